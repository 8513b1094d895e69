// Engines against each other (retarget/backend/compare.hpp) on real engines: a model that
// ONNX Runtime and OpenCV agree on, a model converted with one deliberately wrong node
// rewrite whose bisection must name that node, and a divergence of OpenCV 4.6's own that a
// bisection finds past a value OpenCV cannot give. The models: tests/data/compare, made by
// its make_compare_models.py.
#include <gtest/gtest.h>

#include <retarget/backend/compare.hpp>
#include <retarget/backends.hpp>
#include <retarget/convert.hpp>
#include <retarget/ir/sample_inputs.hpp>

#include "support/scratch_folder.hpp"
#include "support/strict.hpp"

namespace {

namespace rb = retarget::backend;
namespace rc = retarget::convert;
namespace rx = retarget::ir;
namespace fs = std::filesystem;
using shipped = retarget::backends::shipped;

const fs::path data = fs::path(RETARGET_SOURCE_DIR) / "tests/data/compare";

rb::tensor_map inputs_for(const fs::path& model, std::int64_t batch) {
  return rx::sample_inputs(rx::load(model), {{"x", {batch, 3, 8, 8}}}, 7);
}

// Each test asks for the engines it runs, and only those: a test of ONNX Runtime alone does not
// skip where OpenCV is missing. In strict mode (scripts/dev test) a missing engine fails.
#define REQUIRE_ONNXRUNTIME()                                   \
  if (!retarget::backends::onnxruntime_manager::is_available()) \
  RETARGET_SKIP_MISSING("ONNX Runtime", retarget::backends::onnxruntime_manager::check_env())
#define REQUIRE_OPENCV()                                       \
  if (!retarget::backends::opencv_dnn_manager::is_available()) \
  RETARGET_SKIP_MISSING("OpenCV DNN", retarget::backends::opencv_dnn_manager::check_env())

}  // namespace

// An engine whose rewrite of Sigmoid is wrong: HardSigmoid is only near it.
namespace compare_test {
struct careless : retarget::backend_tag<"careless"> {};
}  // namespace compare_test

template <>
struct rc::node_rewrite<"Sigmoid", compare_test::careless> {
  static rx::value call(const auto&, rx::graph& g, const rc::node_of<"Sigmoid">& n) {
    using namespace retarget::literals;
    return g.op("HardSigmoid", n.input(0), "alpha"_f = 0.2f, "beta"_f = 0.5f);
  }
};

TEST(Compare, EnginesThatAgreePass) {
  REQUIRE_ONNXRUNTIME();
  REQUIRE_OPENCV();
  const auto model = data / "tiny.onnx";
  const auto c = rb::compare<shipped>({"onnxruntime", model}, {{"opencv_dnn", model}},
                                      inputs_for(model, 1), {});
  ASSERT_EQ(c.candidates.size(), 1u);
  EXPECT_TRUE(c.passes());
  const auto& y = c.candidates.front().outputs.at(0);
  EXPECT_EQ(y.name, "y");
  EXPECT_EQ(y.difference.count, 256u);
  EXPECT_LT(y.difference.max_abs, 1e-5);
  EXPECT_GT(y.difference.max_abs, 0.0);  // two engines, not one run twice
}

using CompareFiles = support::scratch_folder_test;

TEST_F(CompareFiles, BisectNamesTheNodeOfAWrongRewrite) {
  REQUIRE_ONNXRUNTIME();
  const auto original = data / "tiny.onnx";
  const auto converted = dir_ / "careless.onnx";
  auto [model, report] = rc::convert<compare_test::careless>(rx::load(original));
  rx::save(model, converted);
  const auto feeds = inputs_for(original, 2);

  const rb::run_target reference{"onnxruntime", original}, candidate{"onnxruntime", converted};
  const auto c = rb::compare<shipped>(reference, {candidate}, feeds, {});
  ASSERT_FALSE(c.passes());
  EXPECT_GT(c.candidates.front().outputs.at(0).difference.max_abs, 1e-2);

  // The rewrite's output has a name of its own, which the original lacks: the first node
  // compared that diverges is the Mul that reads it, and its report names the rewrite's node.
  const auto b = rb::bisect<shipped>(reference, candidate, feeds, {});
  ASSERT_TRUE(b.first);
  EXPECT_EQ(b.first->node_name, "scale");
  EXPECT_EQ(b.first->op, "Mul");
  ASSERT_EQ(b.first->inputs.size(), 2u);
  EXPECT_FALSE(b.first->inputs[0].difference);
  EXPECT_EQ(b.first->inputs[0].note, "the reference model has no value of that name");
  EXPECT_NE(b.first->inputs[0].producer.find("(HardSigmoid)"), std::string::npos)
      << b.first->inputs[0].producer;
  ASSERT_TRUE(b.first->inputs[1].difference);
  EXPECT_EQ(b.first->inputs[1].difference->max_abs, 0.0);  // relu1's output: right
  EXPECT_EQ(b.unmatched.size(), 1u);
  EXPECT_TRUE(b.refused.empty());
}

// The same wrong rewrite, planted in a model that keeps every value's name
// (make_compare_models.py): the bisection names the node itself.
TEST(Compare, BisectNamesAPlantedNode) {
  REQUIRE_ONNXRUNTIME();
  const auto feeds = inputs_for(data / "tiny.onnx", 2);
  const rb::run_target reference{"onnxruntime", data / "tiny.onnx"},
      candidate{"onnxruntime", data / "tiny_planted.onnx"};
  const auto b = rb::bisect<shipped>(reference, candidate, feeds, {});
  ASSERT_TRUE(b.first);
  EXPECT_EQ(b.first->node, 3);
  EXPECT_EQ(b.first->node_name, "gate");
  EXPECT_EQ(b.first->op, "HardSigmoid");
  ASSERT_EQ(b.first->inputs.size(), 1u);
  ASSERT_TRUE(b.first->inputs[0].difference);
  EXPECT_EQ(b.first->inputs[0].difference->max_abs, 0.0);  // what it read was right
  ASSERT_EQ(b.first->outputs.size(), 1u);
  ASSERT_TRUE(b.first->outputs[0].difference);
  EXPECT_GT(b.first->outputs[0].difference->max_abs, 1e-2);
  EXPECT_EQ(b.compared, b.values);
  EXPECT_EQ(b.runs, 2u);  // everything exposed at once, on each side
}

TEST(Compare, BisectSkipsValuesAnEngineCannotGive) {
  REQUIRE_OPENCV();
  // OpenCV 4.6 folds the Shape at import, so no layer gives scaled_shape: the planted model
  // against the original, both on OpenCV, bisects around it.
  const auto feeds = inputs_for(data / "tiny.onnx", 2);
  const rb::run_target reference{"opencv_dnn", data / "tiny.onnx"},
      candidate{"opencv_dnn", data / "tiny_planted.onnx"};
  const auto c = rb::compare<shipped>(reference, {candidate}, feeds, {});
  ASSERT_FALSE(c.passes());

  const auto b = rb::bisect<shipped>(reference, candidate, feeds, {});
  ASSERT_FALSE(b.refused.empty());
  for (const auto& r : b.refused) {
    EXPECT_EQ(r.value, "scaled_shape");
    EXPECT_EQ(r.engine, "opencv_dnn");
  }
  ASSERT_TRUE(b.first);
  EXPECT_EQ(b.first->node_name, "gate");
  EXPECT_EQ(b.first->op, "HardSigmoid");
}

// At batch 2 OpenCV gives y as [2, 1, 4, 8, 8]; the wrapper gives it in the declared
// [batch, 4, 8, 8], and the values are ONNX Runtime's.
TEST(Compare, OpenCVsExtraAxisOfOneIsGivenInTheDeclaredDims) {
  REQUIRE_ONNXRUNTIME();
  REQUIRE_OPENCV();
  const auto model = data / "tiny.onnx";
  const auto c = rb::compare<shipped>({"onnxruntime", model}, {{"opencv_dnn", model}},
                                      inputs_for(model, 2), {});
  EXPECT_TRUE(c.passes());
}

TEST(Compare, NanCountsAsAMismatchOnEveryEngine) {
  REQUIRE_ONNXRUNTIME();
  REQUIRE_OPENCV();
  const auto model = data / "log.onnx";
  const auto feeds = rx::sample_inputs(rx::load(model), {}, 0);
  const auto c = rb::compare<shipped>({"onnxruntime", model}, {{"opencv_dnn", model}}, feeds, {});
  const auto& d = c.candidates.front().outputs.at(0).difference;
  EXPECT_FALSE(c.passes());
  EXPECT_GT(d.non_finite, 0u);  // Log of the negative inputs, NaN on both engines
  EXPECT_EQ(d.outside, d.non_finite);
  EXPECT_LT(d.max_abs, 1e-5);  // the rest agree
}

TEST(Compare, ACandidateThatDoesNotRunFailsWithTheEnginesReason) {
  REQUIRE_ONNXRUNTIME();
  REQUIRE_OPENCV();
  const auto model = fs::path(RETARGET_SOURCE_DIR) / "tests/data/convert/srcnn_op13.onnx";
  const auto feeds = rx::sample_inputs(rx::load(model), {}, 0);
  const auto c = rb::compare<shipped>({"onnxruntime", model}, {{"opencv_dnn", model}}, feeds, {});
  ASSERT_FALSE(c.passes());
  EXPECT_NE(c.candidates.front().failure.find("cubic"), std::string::npos)
      << c.candidates.front().failure;
}
