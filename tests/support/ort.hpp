// Runs a model on ONNX Runtime through the onnxruntime package's manager, and compares
// tensors: what the end-to-end tests check exports with.
#ifndef RETARGET_TESTS_SUPPORT_ORT_HPP
#define RETARGET_TESTS_SUPPORT_ORT_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <map>
#include <retarget/backends/onnxruntime.hpp>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/nn.hpp>
#include <string>
#include <vector>

namespace ort {

namespace fs = std::filesystem;

inline fs::path source_dir() { return RETARGET_SOURCE_DIR; }

// Saves the model, runs it with the given inputs (name → TensorProto file), returns the
// outputs by name.
inline std::map<std::string, retarget::ir::tensor> run(
    retarget::ir::model& m, const fs::path& work, const std::map<std::string, fs::path>& inputs) {
  fs::create_directories(work);
  const auto model_path = work / "model.onnx";
  retarget::ir::save(m, model_path);
  using manager = retarget::backends::onnxruntime_manager;
  retarget::backends::onnxruntime_param param;
  param.work_dir = work.string();
  auto session = manager::build_wrapper({model_path}, param);
  retarget::backend::tensor_map feeds;
  for (const auto& [name, file] : inputs) feeds.emplace(name, retarget::ir::read_tensor_file(file));
  auto results = session.run(feeds);
  std::map<std::string, retarget::ir::tensor> out;
  for (const auto& o : m.graph().output()) out.emplace(o.name(), results.at(o.name()));
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
