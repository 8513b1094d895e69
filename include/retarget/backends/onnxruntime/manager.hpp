// The onnxruntime manager: ONNX Runtime 1.30 through its official Node.js binding
// (onnxruntime-node). The wrapper keeps one worker process per model alive and exchanges
// TensorProto messages with it over pipes. The worker (worker/ beside this header) is found
// through the param's runtime_dir, else $RETARGET_ORT_DIR, else where retarget's CMake
// package put it (RETARGET_ONNXRUNTIME_WORKER_DIR, set by the target retarget::onnxruntime).
#ifndef RETARGET_BACKENDS_ONNXRUNTIME_MANAGER_HPP
#define RETARGET_BACKENDS_ONNXRUNTIME_MANAGER_HPP

#include <algorithm>
#include <boost/json/parse.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <retarget/backend/manager.hpp>
#include <retarget/backend/process.hpp>
#include <retarget/backends/onnxruntime/backend.hpp>
#include <retarget/backends/onnxruntime/param.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/options/json.hpp>
#include <string>
#include <string_view>

// Its param is read once, in retarget::compiled.
RETARGET_OPTIONS_READ_ONCE(retarget::backends::onnxruntime_param);

namespace retarget::backends {

class onnxruntime_wrapper {
 public:
  // `graph_optimization`: ONNX Runtime's level, all, extended, basic or disabled.
  onnxruntime_wrapper(const std::filesystem::path& model, const std::filesystem::path& runtime_dir,
                      const std::string& graph_optimization = "all")
      : log_(std::filesystem::temp_directory_path() /
             ("retarget-ort-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++) +
              ".log")),
        process_(std::make_unique<retarget::backend::worker_process>(
            std::vector<std::string>{"node", (runtime_dir / "worker.js").string(), model.string(),
                                     checked_level(graph_optimization)},
            log_.string())) {
    if (!process_->read_bytes(version_)) fail("did not start");
  }
  onnxruntime_wrapper(onnxruntime_wrapper&&) noexcept = default;
  ~onnxruntime_wrapper() {
    process_.reset();
    std::error_code ec;
    if (!log_.empty()) std::filesystem::remove(log_, ec);
  }

  // The level, when it is one ONNX Runtime knows; retarget::error naming the param otherwise.
  static const std::string& checked_level(const std::string& level) {
    static constexpr std::string_view levels[] = {"all", "extended", "basic", "disabled"};
    if (std::find(std::begin(levels), std::end(levels), level) == std::end(levels))
      throw error("retarget: onnxruntime: graph_optimization is '" + level +
                  "'; it is one of all, extended, basic, disabled");
    return level;
  }

  // "onnxruntime 1.30.0", as the worker reports it.
  const std::string& version() const noexcept { return version_; }

  retarget::backend::tensor_map run(const retarget::backend::tensor_map& inputs) {
    process_->write_u32(static_cast<std::uint32_t>(inputs.size()));
    for (const auto& [name, t] : inputs) {
      process_->write_bytes(name);
      process_->write_bytes(ir::tensor_to_bytes(t));
    }
    std::uint8_t ok = 0;
    if (!process_->read(&ok, 1)) fail("stopped");
    if (!ok) {
      std::string message;
      process_->read_bytes(message);
      throw error("retarget: onnxruntime: " + message);
    }
    std::uint32_t count = 0;
    if (!process_->read_u32(count)) fail("stopped");
    retarget::backend::tensor_map out;
    for (std::uint32_t i = 0; i < count; ++i) {
      std::string name, bytes;
      if (!process_->read_bytes(name) || !process_->read_bytes(bytes)) fail("stopped");
      auto t = ir::tensor_from_bytes(bytes);
      if (!t) throw error("retarget: onnxruntime: output '" + name + "' is not a TensorProto");
      out.emplace(name, std::move(*t));
    }
    return out;
  }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  [[noreturn]] void fail(const char* what) {
    std::ifstream in(log_);
    throw error(std::string("retarget: the onnxruntime worker ") + what + ": " +
                std::string(std::istreambuf_iterator<char>(in), {}));
  }

  std::filesystem::path log_;
  std::unique_ptr<retarget::backend::worker_process> process_;
  std::string version_;
};

struct onnxruntime_manager {
  using backend = backends::onnxruntime;
  using param = onnxruntime_param;

  static std::filesystem::path runtime_dir(const param& p = {}) {
    if (!p.runtime_dir->empty()) return *p.runtime_dir;
    if (const char* env = std::getenv("RETARGET_ORT_DIR"); env && *env) return env;
#ifdef RETARGET_ONNXRUNTIME_WORKER_DIR
    return RETARGET_ONNXRUNTIME_WORKER_DIR;
#else
    return {};
#endif
  }
  static std::string installed_version(const param& p = {}) {
    std::ifstream in(runtime_dir(p) / "node_modules/onnxruntime-node/package.json");
    const std::string json(std::istreambuf_iterator<char>(in), {});
    if (json.empty()) return {};
    const auto parsed = boost::json::parse(json);
    return std::string(parsed.at("version").as_string());
  }

  static bool is_available() {
    return !retarget::backend::find_program("node").empty() && !installed_version().empty();
  }
  static std::string version() {
    const auto v = installed_version();
    return v.empty() ? "not installed" : "onnxruntime-node " + v;
  }
  static std::string check_env() {
    std::string out = "node: ";
    const auto node = retarget::backend::find_program("node");
    out += node.empty() ? "not found on PATH" : node.string();
    out += "\nworker folder: ";
    const auto dir = runtime_dir();
    out +=
        dir.empty() ? "not found (set RETARGET_ORT_DIR or the param's runtime_dir)" : dir.string();
    out += "\nonnxruntime-node: ";
    const auto v = installed_version();
    out += v.empty() ? "not installed there (npm install --ignore-scripts onnxruntime-node@1.30.0)"
                     : v;
    return out;
  }
  static retarget::backend::file_list model_files(const param& p) {
    return {std::filesystem::path(*p.work_dir) / p.file_name.resolved()};
  }
  // ONNX Runtime runs the ONNX file itself: it is copied into place.
  static retarget::backend::file_list to_backend(const std::filesystem::path& onnx_file,
                                                 const param& p) {
    return retarget::backend::copy_model_into_place(onnx_file, model_files(p).front());
  }
  static onnxruntime_wrapper build_wrapper(const retarget::backend::file_list& files,
                                           const param& p) {
    if (files.empty()) throw error("retarget: onnxruntime needs the model file");
    if (runtime_dir(p).empty()) throw error("retarget: onnxruntime: " + check_env());
    return onnxruntime_wrapper(files.front(), runtime_dir(p), *p.graph_optimization);
  }
  static param param_from_config(const boost::json::value& j, const std::string& where) {
    return options::from_json<param>(j, where);
  }
};

}  // namespace retarget::backends

#endif  // RETARGET_BACKENDS_ONNXRUNTIME_MANAGER_HPP
