// convert/partition.hpp: where partition_for<B> places the cut, on models small enough to
// know the answer by hand (the corpus's SSDlite and RAFT run it end to end: corpus_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/convert/partition.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_helpers.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the parts' graphs
#include <string>
#include <vector>

namespace {

namespace rc = retarget::convert;
namespace rx = retarget::ir;
using retarget::backends::opencv_dnn;

std::vector<std::string> ops(const rx::model& m) {
  std::vector<std::string> out;
  for (const auto& n : m.graph().node()) out.push_back(n.op_type());
  return out;
}

bool cut_at(const rc::partition& p, std::string_view op) {
  return std::any_of(p.cut_at.begin(), p.cut_at.end(),
                     [&](const rc::refusal& r) { return r.node.starts_with(op); });
}

TEST(Partition, AModelTheEngineRunsWholeNeedsNoCut) {
  rx::graph g(13);
  g.output(g.op("Relu", g.input("x", rx::dtype::f32, {1, 3, 4, 4})), "y");
  const auto cut = rc::partition_for<opencv_dnn>(rx::make_model(std::move(g)));
  EXPECT_FALSE(cut.needed());
  EXPECT_EQ(ops(cut.parts.head), std::vector<std::string>{"Relu"});
  EXPECT_EQ(cut.parts.tail.node_count(), 0u);
}

// node 0: the constant k, which only the TopK reads; 1: Relu; 2: Shape of its output, read by
// the Expand; 3: TopK (no layer in OpenCV 4.6); 4: Expand of its values to that shape. The
// TopK goes to the tail with the Expand. Alone, the head gives the Shape's output, which OpenCV
// computes while loading and gives no value for: the Shape follows. The head, without the
// constant (the tail makes its own), has 2 nodes then: the refusal is mapped back by the
// value the node makes, to node 2, not by its place in the head.
TEST(Partition, ARefusalOfTheHeadAloneIsMappedBackToItsNode) {
  rx::graph g(13);
  const auto k = rx::ints_constant(g, {1});
  const auto a = g.op("Relu", g.input("x", rx::dtype::f32, {2, 3}));
  const auto shape = g.op("Shape", a);
  auto [values, indices] = g.op<2>("TopK", a, k);
  g.output(g.op("Expand", values, shape), "y");
  const auto m = rx::make_model(std::move(g));

  const auto cut = rc::partition_for<opencv_dnn>(m);
  ASSERT_TRUE(cut.needed());
  EXPECT_TRUE(cut_at(cut, "TopK"));
  EXPECT_TRUE(cut_at(cut, "Shape")) << "the head's refusal went to another node";
  EXPECT_FALSE(cut_at(cut, "Relu"));
  EXPECT_EQ(ops(cut.parts.head), std::vector<std::string>{"Relu"});
  EXPECT_EQ(ops(cut.parts.tail), (std::vector<std::string>{"Constant", "Shape", "TopK", "Expand"}));
  EXPECT_TRUE(rc::refused_nodes<opencv_dnn>(cut.parts.head)->empty());
}

// The cut names the first refusals; those behind them are counted apart.
TEST(Partition, RefusalsBehindTheFirstAreNotWhereTheCutIs) {
  rx::graph g(13);
  const auto a = g.op("Relu", g.input("x", rx::dtype::f32, {2, 3}));
  auto [values, indices] = g.op<2>("TopK", a, rx::ints_constant(g, {2}));
  auto [again, where] = g.op<2>("TopK", values, rx::ints_constant(g, {1}));
  g.output(again, "y");
  const auto cut = rc::partition_for<opencv_dnn>(rx::make_model(std::move(g)));
  ASSERT_EQ(cut.cut_at.size(), 1u);
  EXPECT_EQ(cut.behind.size(), 1u);
  EXPECT_EQ(ops(cut.parts.head), std::vector<std::string>{"Relu"});
}

// When every node depends on a refused one, no head is left: an error names the refusal.
TEST(Partition, NoHeadLeftIsAnErrorNamingTheRefusal) {
  rx::graph g(13);
  auto [values, indices] =
      g.op<2>("TopK", g.input("x", rx::dtype::f32, {2, 3}), rx::ints_constant(g, {1}));
  g.output(g.op("Relu", values), "y");
  try {
    (void)rc::partition_for<opencv_dnn>(rx::make_model(std::move(g)));
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("retarget: partition: opencv_dnn can run no part of the model"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("TopK"), std::string::npos) << what;
  }
}

}  // namespace
