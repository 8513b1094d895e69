// What the numbered tutorials share, none of it about rewriting: where PyTorch's reference
// data is, a folder for the files a tutorial writes, the ONNX Runtime param, and how an
// output is compared with its reference.
#ifndef RETARGET_EXAMPLES_TUTORIAL_HPP
#define RETARGET_EXAMPLES_TUTORIAL_HPP

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <retarget/backends/onnxruntime.hpp>
#include <retarget/ir.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/nn.hpp>
#include <retarget/trace/export.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace tutorial {

namespace fs = std::filesystem;

// A reference file: under $RETARGET_EXAMPLE_DATA, or tests/data of the source tree; the
// tutorial model's weights and references ("srcnn/...") are in the model zoo (zoo/).
inline fs::path data(const fs::path& file) {
  const char* dir = std::getenv("RETARGET_EXAMPLE_DATA");
  const fs::path in_data = fs::path(dir ? dir : RETARGET_EXAMPLE_DATA) / file;
  const fs::path in_zoo = fs::path(RETARGET_EXAMPLE_ZOO) / file;
  return fs::exists(in_data) || !fs::exists(in_zoo) ? in_data : in_zoo;
}
inline retarget::ir::tensor load(const fs::path& file) {
  return retarget::ir::read_tensor_file(data(file));
}

// A fresh folder in the temporary directory, removed with everything in it at the end.
class work_dir {
 public:
  explicit work_dir(const std::string& name)
      : path_(fs::temp_directory_path() / ("retarget-" + name + "-" + std::to_string(::getpid()))) {
    fs::create_directories(path_);
  }
  work_dir(const work_dir&) = delete;
  work_dir& operator=(const work_dir&) = delete;
  ~work_dir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const noexcept { return path_; }
  fs::path operator/(const fs::path& file) const { return path_ / file; }

 private:
  fs::path path_;
};

// ONNX Runtime's param: files go to `dir`; the worker comes from $RETARGET_ORT_DIR, or the
// onnxruntime package's own (found by the manager).
inline retarget::backends::onnxruntime_param onnxruntime_param(const fs::path& dir) {
  retarget::backends::onnxruntime_param p;
  p.work_dir = dir.string();
  return p;
}
// Whether ONNX Runtime can run here; if not, says why. A tutorial then exits with `skipped`:
// 77, which ctest reports as a skip, or 1 under RETARGET_STRICT=1 (scripts/dev test, which
// installs ONNX Runtime, the rule of tests/support/strict.hpp).
inline bool onnxruntime_available(const retarget::backends::onnxruntime_param& p) {
  using manager = retarget::backends::onnxruntime_manager;
  if (!retarget::backend::find_program("node").empty() && !manager::installed_version(p).empty())
    return true;
  std::printf("ONNX Runtime is not available here:\n%s\n", manager::check_env().c_str());
  return false;
}
inline const int skipped = [] {
  const char* strict = std::getenv("RETARGET_STRICT");
  return strict != nullptr && std::string_view(strict) == "1" ? 1 : 77;
}();

// The values of a float32 tensor.
inline std::vector<float> floats(const retarget::ir::tensor& t) {
  if (t.type() != retarget::ir::dtype::f32) return {};
  return retarget::ir::tensor_view(t).values<float>();
}

// Prints the comparison and says whether it is within the tolerance.
inline bool compare(const char* what, const retarget::ir::tensor& out,
                    const retarget::ir::tensor& ref, double tolerance = 1e-4) {
  // Infinity when types or shapes differ, or a value is NaN on one side only.
  const double error = retarget::ir::max_abs_difference(out, ref);
  const bool ok = error <= tolerance;
  const auto dims = out.dims();
  const std::vector<retarget::ir::dim> shape(dims.begin(), dims.end());
  std::printf("%s: %s, max abs error vs PyTorch %.1e%s\n", what,
              retarget::ir::to_string(shape).c_str(), error, ok ? "" : "  <-- MISMATCH");
  return ok;
}

// The op types of a model's nodes, in order: "Constant Resize Conv ...".
inline std::string op_types(const retarget::ir::model& m) {
  std::string out;
  for (std::size_t i = 0; i < m.node_count(); ++i) {
    const auto n = m.node(i);
    out += (out.empty() ? "" : " ") +
           (n.in_default_domain() ? "" : std::string(n.domain()) + "::") + n.op_type();
  }
  return out;
}

// A model's inputs and outputs with their dims: "input [1, 3, height, width] -> output [...]".
inline std::string signature(const retarget::ir::model& m) {
  const auto describe = [](const std::vector<retarget::ir::value_summary>& values) {
    std::string out;
    for (const auto& v : values) {
      std::string dims;
      for (const auto& d : v.dims) dims += (dims.empty() ? "" : ", ") + d;
      out += (out.empty() ? "" : ", ") + v.name + " [" + dims + "]";
    }
    return out;
  };
  const auto summary = retarget::ir::summarize(m);
  return describe(summary.inputs) + " -> " + describe(summary.outputs);
}

// The rewrites an export applied, as its report says them.
inline std::string rewrites(const retarget::export_result& r) {
  return r.report.empty() ? "none" : retarget::to_string(r.report);
}

// The line of a (long, multi-line) error message that contains `needle`, trimmed.
inline std::string line_with(const std::string& text, const std::string& needle) {
  const auto at = text.find(needle);
  if (at == std::string::npos) return text.substr(0, text.find('\n'));
  const auto begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  std::string line = text.substr(begin, text.find('\n', at) - begin);
  line.erase(0, line.find_first_not_of("> \t"));
  return line;
}

inline int finish(bool ok) {
  std::printf(ok ? "all checks passed\n" : "CHECK FAILED\n");
  return ok ? 0 : 1;
}

}  // namespace tutorial

#endif  // RETARGET_EXAMPLES_TUTORIAL_HPP
