// The tensorrt backend: the ONNX dialect TensorRT's parser takes. TensorRT itself is not in
// Debian's archive, so on a machine without it the manager says so: is_available() is false,
// check_env() says what is missing, to_backend() runs trtexec only when it exists.
#ifndef RETARGET_BACKEND_TENSORRT_HPP
#define RETARGET_BACKEND_TENSORRT_HPP

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <retarget/backend/manager.hpp>
#include <retarget/backend/param.hpp>
#include <retarget/core/backend.hpp>
#include <string>
#include <vector>

namespace retarget::backend {

// The builder's settings, spelled as in MMDeploy's TensorRT configs.
struct tensorrt_common_config {
  field<bool, "Build the engine in FP16."> fp16_mode{false};
  field<std::int64_t, "The builder's workspace, in bytes."> max_workspace_size{std::int64_t{1} << 30};
};
BOOST_DESCRIBE_STRUCT(tensorrt_common_config, (), (fp16_mode, max_workspace_size))

// The range of shapes an engine accepts for one input.
struct tensorrt_input_shape {
  std::vector<std::int64_t> min_shape, opt_shape, max_shape;
};
BOOST_DESCRIBE_STRUCT(tensorrt_input_shape, (), (min_shape, opt_shape, max_shape))

struct tensorrt_model_input {
  std::map<std::string, tensorrt_input_shape> input_shapes;
};
BOOST_DESCRIBE_STRUCT(tensorrt_model_input, (), (input_shapes))

struct tensorrt_param {
  field<std::string, "The working directory: where the engine goes."> work_dir{"."};
  file_field<".engine", "File name of the serialized engine; .engine is added when missing.">
      file_name{"end2end"};
  field<tensorrt_common_config, "Builder settings: fp16_mode, max_workspace_size (bytes).">
      common_config;
  field<std::vector<tensorrt_model_input>,
        "Per model: input_shapes, each input's min_shape, opt_shape and max_shape.">
      model_inputs;
};

BOOST_DESCRIBE_STRUCT(tensorrt_param, (), (work_dir, file_name, common_config, model_inputs))

// There is no TensorRT runtime to wrap: building one is refused with the reason.
struct tensorrt_wrapper {
  tensor_map run(const tensor_map&) {
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

  static bool is_available() { return !find_program("trtexec").empty() && has_library(); }
  static std::string version() {
    return is_available() ? "TensorRT (trtexec found)" : "not installed";
  }
  static std::string check_env() {
    std::string out = "trtexec: ";
    const auto trtexec = find_program("trtexec");
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
  static file_list model_files(const param& p) {
    return {std::filesystem::path(*p.work_dir) / p.file_name.resolved()};
  }
  // trtexec's --minShapes/--optShapes/--maxShapes from the first model's input_shapes.
  static std::string shape_options(const param& p) {
    if (p.model_inputs->empty()) return {};
    std::string min, opt, max;
    const auto append = [](std::string& out, const std::string& name,
                           const std::vector<std::int64_t>& dims) {
      out += (out.empty() ? "" : ",") + name + ":";
      for (std::size_t i = 0; i < dims.size(); ++i)
        out += (i ? "x" : "") + std::to_string(dims[i]);
    };
    for (const auto& [name, shape] : p.model_inputs->front().input_shapes) {
      append(min, name, shape.min_shape);
      append(opt, name, shape.opt_shape);
      append(max, name, shape.max_shape);
    }
    return " --minShapes=" + min + " --optShapes=" + opt + " --maxShapes=" + max;
  }
  static file_list to_backend(const std::filesystem::path& onnx_file, const param& p) {
    const auto trtexec = find_program("trtexec");
    if (trtexec.empty()) throw error("retarget: tensorrt: cannot build an engine: " + check_env());
    const auto engine = model_files(p).front();
    std::string command = "'" + trtexec.string() + "' --onnx='" + onnx_file.string() +
                          "' --saveEngine='" + engine.string() +
                          "' --memPoolSize=workspace:" +
                          std::to_string(*p.common_config->max_workspace_size >> 20);
    if (*p.common_config->fp16_mode) command += " --fp16";
    command += shape_options(p);
    if (std::system(command.c_str()) != 0)
      throw error("retarget: tensorrt: trtexec failed: " + command);
    return {engine};
  }
  static tensorrt_wrapper build_wrapper(const file_list&, const param&) {
    if (!is_available()) throw error("retarget: tensorrt: cannot run an engine: " + check_env());
    throw error("retarget: tensorrt: running engines is not supported yet");
  }
  static param param_from_config(const boost::json::value& j, const std::string& where) {
    return from_json<param>(j, where);
  }
};

}  // namespace retarget::backend

#endif  // RETARGET_BACKEND_TENSORRT_HPP
