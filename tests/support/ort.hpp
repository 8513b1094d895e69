// Runs a model on ONNX Runtime through tools/ort/run.js and reads back its outputs, and
// compares tensors: what the end-to-end tests check exports with.
#ifndef RETARGET_TESTS_SUPPORT_ORT_HPP
#define RETARGET_TESTS_SUPPORT_ORT_HPP

#include <retarget/ir.hpp>
#include <retarget/ir/tensor_stats.hpp>
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
inline std::map<std::string, retarget::ir::tensor> run(retarget::ir::model& m, const fs::path& work,
                                                         const std::map<std::string, fs::path>& inputs) {
  fs::create_directories(work);
  const auto model_path = work / "model.onnx";
  retarget::ir::save(m, model_path);
  std::string command = "node '" + (source_dir() / "tools/ort/run.js").string() + "' '" + model_path.string() +
                        "' '" + (work / "out").string() + "'";
  for (const auto& [name, file] : inputs) command += " '" + name + "=" + file.string() + "'";
  command += " > '" + (work / "ort.log").string() + "' 2>&1";
  if (std::system(command.c_str()) != 0) {
    std::ifstream log(work / "ort.log");
    throw retarget::error("ONNX Runtime failed: " + std::string(std::istreambuf_iterator<char>(log), {}));
  }
  std::map<std::string, retarget::ir::tensor> out;
  for (const auto& o : m.graph().output())
    out.emplace(o.name(), retarget::nn::load_tensor(work / "out" / (o.name() + ".pb")));
  return out;
}

// The values of a tensor as doubles, whatever its numeric type.
inline std::vector<double> values_of(const retarget::ir::tensor& t) {
  return retarget::ir::values_as_double(t);
}

// The largest absolute difference of two tensors of the same type and shape; infinity if
// their types or shapes differ.
inline double max_abs_error(const retarget::ir::tensor& a, const retarget::ir::tensor& b) {
  return retarget::ir::max_abs_difference(a, b);
}

}  // namespace ort

#endif  // RETARGET_TESTS_SUPPORT_ORT_HPP
