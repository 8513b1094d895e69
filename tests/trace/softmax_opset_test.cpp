// softmax and log_softmax exported below opset 13, where the ONNX ops coerce their input to
// 2-D at the axis: over the last axis as it is, over another through Transpose. Run on ONNX
// Runtime and compared with PyTorch (tests/data/softmax_opset, made by
// tools/make_softmax_opset_references.py).
#include <gtest/gtest.h>
#include <unistd.h>

#include <functional>
#include <map>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <retarget/retarget.hpp>
#include <string>

#include "support/ort.hpp"

namespace {

namespace bk = retarget::backends;
namespace ops = retarget::ops;
namespace rx = retarget::ir;
namespace fs = std::filesystem;
using T = retarget::trace::tensor<bk::onnxruntime>;

const fs::path cases_dir = ort::source_dir() / "tests/data/softmax_opset";

const std::map<std::string, std::function<T(const T&)>>& cases() {
  static const std::map<std::string, std::function<T(const T&)>> table{
      {"softmax_last", [](const T& x) { return ops::softmax(x, std::int64_t{-1}); }},
      {"softmax_dim1", [](const T& x) { return ops::softmax(x, std::int64_t{1}); }},
      {"log_softmax_last", [](const T& x) { return ops::log_softmax(x, std::int64_t{2}); }},
      {"log_softmax_dim0", [](const T& x) { return ops::log_softmax(x, std::int64_t{0}); }},
  };
  return table;
}

class SoftmaxBelowOpset13 : public ::testing::TestWithParam<std::tuple<std::string, int>> {};

TEST_P(SoftmaxBelowOpset13, MatchesPytorchOnOnnxRuntime) {
  const auto [name, opset] = GetParam();
  const auto input = cases_dir / name / "in0.pb";
  const auto x = rx::read_tensor_file(input);
  const auto sizes = x.dims();
  const retarget::input_spec specs[] = {{"in0", x.type(), {sizes.begin(), sizes.end()}}};
  auto result = retarget::export_onnx<bk::onnxruntime>(cases().at(name), specs,
                                                       retarget::no_config{}, {.opset = opset});
  ASSERT_NO_THROW(result.model.check());
  ASSERT_EQ(result.model.opset(), opset);
  bool transposed = false;
  for (const auto& n : result.model.graph().node()) transposed |= n.op_type() == "Transpose";
  EXPECT_EQ(transposed, name.find("last") == std::string::npos) << name;
  const auto work =
      fs::temp_directory_path() /
      ("retarget-softmax-" + name + "-" + std::to_string(opset) + "-" + std::to_string(::getpid()));
  const auto outputs = ort::run(result.model, work, {{"in0", input}});
  fs::remove_all(work);
  const auto reference = rx::read_tensor_file(cases_dir / name / "out0.pb");
  const auto& actual = outputs.at(result.model.graph().output(0).name());
  EXPECT_LE(ort::max_abs_error(actual, reference), 1e-5) << name << " at opset " << opset;
}

INSTANTIATE_TEST_SUITE_P(Cases, SoftmaxBelowOpset13,
                         ::testing::Combine(::testing::Values("softmax_last", "softmax_dim1",
                                                              "log_softmax_last",
                                                              "log_softmax_dim0"),
                                            ::testing::Values(11, 12)),
                         [](const auto& info) {
                           return std::get<0>(info.param) + "_opset" +
                                  std::to_string(std::get<1>(info.param));
                         });

}  // namespace
