// The tensorrt manager: builds engines with trtexec. TensorRT itself is not in Debian's
// archive, so on a machine without it the manager says so: is_available() is false,
// check_env() says what is missing, to_backend() runs trtexec only when it exists.
#ifndef RETARGET_BACKENDS_TENSORRT_MANAGER_HPP
#define RETARGET_BACKENDS_TENSORRT_MANAGER_HPP

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <retarget/backend/manager.hpp>
#include <retarget/backend/process.hpp>
#include <retarget/backends/tensorrt/backend.hpp>
#include <retarget/backends/tensorrt/param.hpp>
#include <retarget/options/json.hpp>
#include <string>
#include <vector>

// Its param is read once, in retarget::compiled.
RETARGET_OPTIONS_READ_ONCE(retarget::backends::tensorrt_param);

namespace retarget::backends {

// There is no TensorRT runtime to wrap: building one is refused with the reason.
struct tensorrt_wrapper {
  retarget::backend::tensor_map run(const retarget::backend::tensor_map&) {
    throw error("retarget: tensorrt: no TensorRT runtime on this machine");
  }
};

struct tensorrt_manager {
  using backend = backends::tensorrt;
  using param = tensorrt_param;

  static bool has_library() {
    void* handle = ::dlopen("libnvinfer.so", RTLD_LAZY | RTLD_LOCAL);
    if (!handle) handle = ::dlopen("libnvinfer.so.10", RTLD_LAZY | RTLD_LOCAL);
    if (!handle) return false;
    ::dlclose(handle);
    return true;
  }

  static bool is_available() {
    return !retarget::backend::find_program("trtexec").empty() && has_library();
  }
  static std::string version() {
    return is_available() ? "TensorRT (trtexec found)" : "not installed";
  }
  static std::string check_env() {
    std::string out = "trtexec: ";
    const auto trtexec = retarget::backend::find_program("trtexec");
    out += trtexec.empty() ? "not found on PATH" : trtexec.string();
    out += "\nlibnvinfer: ";
    out += has_library() ? "found" : "not found";
    if (!is_available())
      out +=
          "\nTensorRT is not installed, and Debian's archive does not have it: models are exported "
          "in "
          "TensorRT's ONNX dialect, but no engine can be built or run here";
    return out;
  }
  static retarget::backend::file_list model_files(const param& p) {
    return {std::filesystem::path(*p.work_dir) / p.file_name.resolved()};
  }
  // trtexec's --minShapes, --optShapes and --maxShapes from the first model's input_shapes.
  static std::vector<std::string> shape_options(const param& p) {
    if (p.model_inputs->empty()) return {};
    std::string min, opt, max;
    const auto append = [](std::string& out, const std::string& name,
                           const std::vector<std::int64_t>& dims) {
      out += (out.empty() ? "" : ",") + name + ":";
      for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? "x" : "") + std::to_string(dims[i]);
    };
    for (const auto& [name, shape] : p.model_inputs->front().input_shapes) {
      append(min, name, shape.min_shape);
      append(opt, name, shape.opt_shape);
      append(max, name, shape.max_shape);
    }
    return {"--minShapes=" + min, "--optShapes=" + opt, "--maxShapes=" + max};
  }
  static retarget::backend::file_list to_backend(const std::filesystem::path& onnx_file,
                                                 const param& p) {
    const auto trtexec = retarget::backend::find_program("trtexec");
    if (trtexec.empty()) throw error("retarget: tensorrt: cannot build an engine: " + check_env());
    const auto engine = model_files(p).front();
    std::vector<std::string> command{
        trtexec.string(), "--onnx=" + onnx_file.string(), "--saveEngine=" + engine.string(),
        "--memPoolSize=workspace:" + std::to_string(*p.common_config->max_workspace_size >> 20)};
    if (*p.common_config->fp16_mode) command.push_back("--fp16");
    for (auto& option : shape_options(p)) command.push_back(std::move(option));
    if (const int status = retarget::backend::run_program(command); status != 0) {
      std::string line;
      for (const auto& a : command) line += (line.empty() ? "" : " ") + a;
      throw error("retarget: tensorrt: trtexec failed (exit status " + std::to_string(status) +
                  "): " + line);
    }
    return {engine};
  }
  static tensorrt_wrapper build_wrapper(const retarget::backend::file_list&, const param&) {
    if (!is_available()) throw error("retarget: tensorrt: cannot run an engine: " + check_env());
    throw error("retarget: tensorrt: running engines is not supported yet");
  }
  static param param_from_config(const boost::json::value& j, const std::string& where) {
    return options::from_json<param>(j, where);
  }
};

}  // namespace retarget::backends

#endif  // RETARGET_BACKENDS_TENSORRT_MANAGER_HPP
