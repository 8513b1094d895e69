// Open dims (a dynamic batch) through a conversion: the model is converted at two sizes and
// the results joined (ir/open_dims.hpp), a Reshape's target written with 0 and -1 and an
// Expand's with 1; where the results differ otherwise, it is converted with its dims open and
// the report says why. Each converted model is run on ONNX Runtime at two batches against the
// original, and where OpenCV is installed, on OpenCV too.
#include <gtest/gtest.h>

#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_helpers.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/open_dims.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/ort.hpp"
#include "support/scratch_folder.hpp"

namespace {

namespace fs = std::filesystem;
namespace rc = retarget::convert;
namespace rx = retarget::ir;
namespace bk = retarget::backends;

using namespace retarget::literals;
using open_dims = support::scratch_folder_test;

// x [n, 6] through Relu, then x.view(x.size(0), 2, 3): the Shape arithmetic torch writes.
rx::model batch_view() {
  rx::graph g(13);
  const auto x = g.input("x", rx::dtype::f32, {"n", 6});
  const auto r = g.op("Relu", x);
  const auto n = g.op("Unsqueeze", g.op("Gather", g.op("Shape", r), rx::ints_constant(g, {0})),
                      rx::ints_constant(g, {0}));
  const auto n1 = g.op("Reshape", n, rx::ints_constant(g, {1}));
  const auto shape = g.op("Concat", n1, rx::ints_constant(g, {2, 3}), "axis"_i = 0);
  g.output(g.op("Reshape", r, shape), "y");
  return rx::make_model(std::move(g));
}

// The converted model's Reshape targets, in graph order.
std::vector<std::vector<std::int64_t>> reshape_targets(const rx::model& m) {
  std::vector<std::vector<std::int64_t>> out;
  for (const auto& n : m.graph().node()) {
    if (n.op_type() != "Reshape") continue;
    for (const auto& t : m.graph().initializer())
      if (t.name() == n.input(1)) out.push_back(rx::tensor_view(t).values<std::int64_t>());
    for (const auto& c : m.graph().node())
      if (c.op_type() == "Constant" && c.output(0) == n.input(1))
        out.push_back(rx::tensor_view(c.attribute(0).t()).values<std::int64_t>());
  }
  return out;
}

rx::tensor ramp(std::int64_t n, std::int64_t k) {
  std::vector<float> v(static_cast<std::size_t>(n * k));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 7) - 2.5f;
  return rx::tensor::of<float>(v, {n, k});
}

// The converted model against the original on ONNX Runtime, at batches 1 and 3.
void same_on_onnxruntime(rx::model original, rx::model converted, const fs::path& dir) {
  for (const std::int64_t n : {1, 3}) {
    const auto input = dir / ("x" + std::to_string(n) + ".pb");
    rx::write_tensor_file(input, ramp(n, 6));
    const auto tag = std::to_string(n);
    const auto a = ort::run(original, dir / ("a" + tag), {{"x", input}});
    const auto b = ort::run(converted, dir / ("b" + tag), {{"x", input}});
    for (const auto& [name, t] : a) {
      EXPECT_EQ(b.at(name).dims(), t.dims()) << name << " at n = " << n;
      EXPECT_EQ(ort::max_abs_error(t, b.at(name)), 0) << name << " at n = " << n;
    }
  }
}

TEST(OpenDims, AreListedByInputAndAxisAndTiedByName) {
  rx::graph g(13);
  const auto a = g.input("a", rx::dtype::f32, {"n", 3, rx::dim()});
  const auto b = g.input("b", rx::dtype::f32, {"n", 3, 4});
  g.output(g.op("Relu", a), "y");
  g.output(g.op("Relu", b), "z");
  const auto m = rx::make_model(std::move(g));
  const auto open = rx::open_dims(m);
  ASSERT_EQ(open.size(), 3u);
  EXPECT_EQ(open[0].describe(), "'a' dim 0 (n)");
  EXPECT_EQ(open[1].describe(), "'a' dim 2");
  EXPECT_EQ(open[2].key(), "n");
  // One size per key: n = 2 on both inputs, a's unnamed dim the next size.
  const auto sized = rx::with_sizes(m, open, 2);
  EXPECT_TRUE(rx::open_dims(sized).empty());
  const auto& in = sized.graph().input();
  EXPECT_EQ(in[0].type().tensor_type().shape().dim(0).dim_value(), 2);
  EXPECT_EQ(in[0].type().tensor_type().shape().dim(2).dim_value(), 3);
  EXPECT_EQ(in[1].type().tensor_type().shape().dim(0).dim_value(), 2);
}

// A model given trial sizes says so (an engine meets those dims open); one given a size by
// the user, or joined back, does not.
TEST_F(open_dims, TrialSizesAreMarkedAndTheJoinedModelIsNot) {
  const auto m = batch_view();
  const auto open = rx::open_dims(m);
  EXPECT_FALSE(rx::at_trial_sizes(m));
  const auto a = rx::with_sizes(m, open, rx::trial_sizes[0]);
  const auto b = rx::with_sizes(m, open, rx::trial_sizes[1]);
  EXPECT_TRUE(rx::at_trial_sizes(a));
  EXPECT_TRUE(rx::at_trial_sizes(rx::model_view(a)));
  EXPECT_EQ(a.metadata(rx::trial_sizes_key), "'x' dim 0 (n)");
  EXPECT_FALSE(rx::at_trial_sizes(rx::with_dims_given(m, {{"n", 2}})));
  EXPECT_FALSE(rx::at_trial_sizes(rx::joined_over_sizes(m, a, b)));
  // Converted, the rules are told; the result is joined, and unmarked.
  const auto [converted, report] = rc::convert<bk::opencv_dnn>(m);
  EXPECT_FALSE(rx::at_trial_sizes(converted));
}

TEST_F(open_dims, TheBatchsShapeArithmeticFoldsToATargetForAnySize) {
  const auto original = batch_view();
  const auto [converted, report] = rc::convert<bk::opencv_dnn>(original);
  EXPECT_NE(report.open_dims.find("'x' dim 0 (n) kept open"), std::string::npos)
      << report.open_dims;
  EXPECT_EQ(reshape_targets(converted), (std::vector<std::vector<std::int64_t>>{{0, 2, 3}}));
  EXPECT_EQ(converted.graph().input(0).type().tensor_type().shape().dim(0).dim_param(), "n");
  same_on_onnxruntime(original, converted, dir_);
}

// Progress: every node of each pass, at each size the open dims are converted at.
TEST(OpenDims, ProgressIsCalledForEachNodeOfEachPassAtEachSize) {
  std::vector<rc::progress> calls;
  rc::options o;
  o.on_progress = [&](const rc::progress& p) { calls.push_back(p); };
  const auto [converted, report] = rc::convert<bk::opencv_dnn>(batch_view(), o);
  ASSERT_FALSE(calls.empty());
  std::set<std::int64_t> sizes;
  for (const auto& p : calls) {
    sizes.insert(p.size);
    EXPECT_GE(p.pass, 1u);
    EXPECT_LE(p.pass, report.passes);
    EXPECT_GE(p.node, 1u);
    EXPECT_LE(p.node, p.nodes);
  }
  EXPECT_EQ(sizes, (std::set<std::int64_t>{2, 5}));
  EXPECT_EQ(calls.front().node, 1u);
  EXPECT_EQ(calls.front().nodes, batch_view().node_count());
  EXPECT_EQ(calls.back().node, calls.back().nodes);
}

// x [n, 6] viewed as [n * 2, 3]: the first dim is no dim of the input, so it is the one -1.
TEST_F(open_dims, ADimThatIsNotTheInputsIsInferred) {
  rx::graph g(13);
  const auto x = g.input("x", rx::dtype::f32, {"n", 6});
  const auto n = g.op("Gather", g.op("Shape", x), rx::ints_constant(g, {0}));
  const auto twice = g.op("Mul", n, rx::ints_constant(g, {2}));
  const auto shape = g.op("Concat", twice, rx::ints_constant(g, {3}), "axis"_i = 0);
  g.output(g.op("Reshape", g.op("Relu", x), shape), "y");
  const auto original = rx::make_model(std::move(g));
  const auto [converted, report] = rc::convert<bk::opencv_dnn>(original);
  EXPECT_EQ(reshape_targets(converted), (std::vector<std::vector<std::int64_t>>{{-1, 3}}));
  same_on_onnxruntime(original, converted, dir_);
}

// A constant of the batch's size that another op than a Reshape or an Expand reads (a mask
// added to x) has no size-free form: the model is converted with its dims open, and the report
// names the node.
TEST_F(open_dims, AConstantOfTheBatchsSizeLeavesTheModelAsWritten) {
  rx::graph g(13);
  const auto x = g.input("x", rx::dtype::f32, {"n", 6});
  const auto ones =
      g.op("ConstantOfShape", g.op("Shape", x), "value"_t = rx::tensor::of<float>({1.0f}, {1}));
  g.output(g.op("Add", g.op("Relu", x), ones), "y");
  const auto original = rx::make_model(std::move(g));
  const auto [converted, report] = rc::convert<bk::opencv_dnn>(original);
  EXPECT_NE(report.open_dims.find("left open as written"), std::string::npos) << report.open_dims;
  EXPECT_NE(report.open_dims.find("Add"), std::string::npos) << report.open_dims;
  EXPECT_NE(rc::summary(report).find("left open as written"), std::string::npos);
  same_on_onnxruntime(original, converted, dir_);
}

TEST(OpenDims, ResultsThatDifferInTheirNodesAreNotJoined) {
  const auto original = batch_view();
  const auto at2 = rx::with_sizes(original, rx::open_dims(original), 2);
  rx::graph g(13);
  g.output(g.op("Relu", g.input("x", rx::dtype::f32, {2, 6})), "y");
  const auto other = rx::make_model(std::move(g));
  try {
    (void)rx::joined_over_sizes(original, at2, other);
    FAIL() << "joined";
  } catch (const retarget::error& e) {
    EXPECT_NE(std::string(e.what()).find("differs in its nodes"), std::string::npos) << e.what();
  }
}

// A Gemm's output [n, 10] with a bias [10]: what OpenCV takes at any batch, refused at none.
TEST(OpenDims, TheCheckMeetsTheBatchAtSizes) {
  rx::graph g(13);
  const auto x = g.input("x", rx::dtype::f32, {"n", 4});
  std::vector<float> w(40, 0.5f), b(10, 0.25f);
  const auto y = g.op("Gemm", x, g.constant(rx::tensor::of<float>(w, {10, 4})),
                      g.constant(rx::tensor::of<float>(b, {10})), "transB"_i = 1);
  g.output(y, "y");
  const auto refused = rc::refused_nodes<bk::opencv_dnn>(rx::make_model(std::move(g)));
  ASSERT_TRUE(refused.has_value());
  EXPECT_TRUE(refused->empty()) << refused->front().node << ": " << refused->front().why;
}

}  // namespace
