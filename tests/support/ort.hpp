// Runs a model on ONNX Runtime through tools/ort/run.js and reads back its outputs, and
// compares tensors: what the end-to-end tests check exports with.
#ifndef RETARGET_TESTS_SUPPORT_ORT_HPP
#define RETARGET_TESTS_SUPPORT_ORT_HPP

#include <retarget/onnx.hpp>
#include <retarget/trace/nn.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ort {

namespace fs = std::filesystem;

inline fs::path source_dir() { return RETARGET_SOURCE_DIR; }

// Saves the model, runs it with the given inputs (name → TensorProto file), returns the
// outputs by name.
inline std::map<std::string, retarget::onnx::tensor> run(retarget::onnx::model& m, const fs::path& work,
                                                         const std::map<std::string, fs::path>& inputs) {
  fs::create_directories(work);
  const auto model_path = work / "model.onnx";
  retarget::onnx::save(m, model_path);
  std::string command = "node '" + (source_dir() / "tools/ort/run.js").string() + "' '" + model_path.string() +
                        "' '" + (work / "out").string() + "'";
  for (const auto& [name, file] : inputs) command += " '" + name + "=" + file.string() + "'";
  command += " > '" + (work / "ort.log").string() + "' 2>&1";
  if (std::system(command.c_str()) != 0) {
    std::ifstream log(work / "ort.log");
    throw retarget::error("ONNX Runtime failed: " + std::string(std::istreambuf_iterator<char>(log), {}));
  }
  std::map<std::string, retarget::onnx::tensor> out;
  for (const auto& o : m.graph().output())
    out.emplace(o.name(), retarget::nn::load_tensor(work / "out" / (o.name() + ".pb")));
  return out;
}

// The largest absolute difference of two float tensors of the same shape (infinity if the
// shapes differ).
inline double max_abs_error(const retarget::onnx::tensor& a, const retarget::onnx::tensor& b) {
  if (a.dims() != b.dims() || a.type() != retarget::onnx::dtype::f32 || b.type() != a.type()) return INFINITY;
  const auto* x = reinterpret_cast<const float*>(a.proto().raw_data().data());
  const auto* y = reinterpret_cast<const float*>(b.proto().raw_data().data());
  const auto n = a.proto().raw_data().size() / sizeof(float);
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(double(x[i]) - double(y[i])));
  return worst;
}

}  // namespace ort

#endif  // RETARGET_TESTS_SUPPORT_ORT_HPP
