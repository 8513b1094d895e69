// convert holds each weight once: a model moved in is converted without a copy of its weights,
// through every pass, and the result shares them (save streams them to the file).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <retarget/convert.hpp>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <string>
#include <utility>
#include <vector>

#include "support/scratch_folder.hpp"

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;
namespace rc = retarget::convert;

// x [1, 256] · w [256, 256] (256 KiB), reshaped by a shape that folds: two passes at least.
rx::model weighted_model() {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {1, 256});
  std::vector<float> weights(256 * 256);
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i % 251) / 251;
  const auto y = g.op("MatMul", x, g.initializer("w", rx::tensor::of(weights, {256, 256})));
  g.output(g.op("Reshape", y, g.op("Shape", y)), "y");
  return rx::make_model(std::move(g));
}

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class ConvertWeights : public support::scratch_folder_test {};

TEST_F(ConvertWeights, AModelMovedInKeepsItsWeightBytesThroughEveryPass) {
  auto m = weighted_model();
  const char* bytes = m.graph().initializer(0).raw_data().data();
  auto [converted, report] = rc::convert<retarget::default_backend>(std::move(m));
  EXPECT_GE(report.passes, 2u) << rc::summary(report);
  EXPECT_EQ(report.folded["Shape"], 1u);
  ASSERT_EQ(converted.shared_initializers().size(), 1u);
  EXPECT_EQ(converted.shared_initializers()[0].data->proto().raw_data().data(), bytes);
}

TEST_F(ConvertWeights, TheResultSavesAndMaterializesAsAModelHoldingItsBytes) {
  auto [shared, report] = rc::convert<retarget::default_backend>(weighted_model());
  rx::model whole = shared;
  whole.materialize();
  EXPECT_TRUE(whole.shared_initializers().empty());
  EXPECT_EQ(whole.graph().initializer(0).raw_data(),
            weighted_model().graph().initializer(0).raw_data());
  rx::save(shared, dir_ / "shared.onnx");
  rx::save(whole, dir_ / "whole.onnx");
  EXPECT_EQ(read_all(dir_ / "shared.onnx"), read_all(dir_ / "whole.onnx"));
}

TEST_F(ConvertWeights, AModelGivenByReferenceIsLeftAsItWas) {
  const auto m = weighted_model();
  const auto before = m.proto().SerializeAsString();
  (void)rc::convert<retarget::default_backend>(m);
  EXPECT_EQ(m.proto().SerializeAsString(), before);
}

}  // namespace
