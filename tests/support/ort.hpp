// Runs a model on ONNX Runtime through tools/ort/run.js and reads back its outputs, and
// compares tensors: what the end-to-end tests check exports with.
#ifndef RETARGET_TESTS_SUPPORT_ORT_HPP
#define RETARGET_TESTS_SUPPORT_ORT_HPP

#include <retarget/onnx.hpp>
#include <retarget/trace/nn.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
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

// The values of a tensor as doubles, whatever its numeric type.
inline std::vector<double> values_of(const retarget::onnx::tensor& t) {
  const auto& raw = t.proto().raw_data();
  std::vector<double> out;
  const auto read = [&]<class T>(T) {
    for (std::size_t i = 0; i + sizeof(T) <= raw.size(); i += sizeof(T)) {
      T v;
      std::memcpy(&v, raw.data() + i, sizeof(T));
      out.push_back(static_cast<double>(v));
    }
  };
  switch (t.type()) {
    case retarget::onnx::dtype::f32: read(float{}); break;
    case retarget::onnx::dtype::f64: read(double{}); break;
    case retarget::onnx::dtype::i64: read(std::int64_t{}); break;
    case retarget::onnx::dtype::i32: read(std::int32_t{}); break;
    case retarget::onnx::dtype::boolean: read(std::uint8_t{}); break;
    default: throw retarget::error("values_of: unsupported type " + std::string(to_string(t.type())));
  }
  return out;
}

// The largest absolute difference of two tensors of the same type and shape; infinity if
// their types or shapes differ.
inline double max_abs_error(const retarget::onnx::tensor& a, const retarget::onnx::tensor& b) {
  if (a.dims() != b.dims() || a.type() != b.type()) return INFINITY;
  const auto x = values_of(a), y = values_of(b);
  if (x.size() != y.size()) return INFINITY;
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(x[i] - y[i]));
  return worst;
}

}  // namespace ort

#endif  // RETARGET_TESTS_SUPPORT_ORT_HPP
