// ir::stored_graph: a graph as a model stores it, read in place by a pass that rebuilds it —
// its declared inputs and outputs, initializers, nodes in an order that respects their reads —
// and what the rebuild writes from it: an input or output of its declared type, a graph
// input's default value, a subgraph attribute rebuilt.
#include <gtest/gtest.h>

#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>
#include <retarget/ir/stored_graph.hpp>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;

// x ["n", 3] + w, then Relu, then an If on `flag` whose branches read the Relu's output.
rx::model stored() {
  rx::graph g(13);
  g.set_name("main");
  const auto x = g.input("x", rx::dtype::f32, {"n", 3});
  const auto flag = g.input("flag", rx::dtype::boolean, {});
  const auto w = g.initializer("w", rx::tensor::of<float>({1, 2, 3}, {3}));
  const auto y = g.op("Relu", g.op("Add", x, w));
  auto then_branch = g.subgraph("then");
  then_branch.output(then_branch.op("Neg", y));
  auto else_branch = g.subgraph("else");
  else_branch.output(else_branch.op("Abs", y));
  g.output(g.op("If", flag, "then_branch"_g = then_branch, "else_branch"_g = else_branch), "out");
  return rx::make_model(std::move(g));
}

TEST(StoredGraph, InputsInitializersNodesAndOutputsInPlace) {
  const auto m = stored();
  const rx::stored_graph source(m);
  EXPECT_EQ(source.name(), "main");
  EXPECT_EQ(source.sparse_initializer_count(), 0u);
  ASSERT_EQ(source.inputs().size(), 2u);
  EXPECT_EQ(source.inputs()[0].name(), "x");
  EXPECT_TRUE(source.inputs()[0].has_tensor_shape());
  ASSERT_EQ(source.initializer_count(), 1u);
  EXPECT_EQ(source.initializer(0).name(), "w");
  EXPECT_EQ(source.initializer(0).values<float>(), (std::vector<float>{1, 2, 3}));
  // In place: the view's tensor is the model's.
  EXPECT_EQ(source.initializer(0), rx::tensor_view(m.graph().initializer(0)));
  ASSERT_EQ(source.node_count(), 3u);
  EXPECT_EQ(source.node(1).op_type(), "Relu");
  ASSERT_FALSE(source.node(1).name().empty());
  EXPECT_EQ(source.place(1), "node 1 '" + source.node(1).name() + "' (Relu)");
  // The If reads the flag, and the Relu's output through its branches.
  const auto reads = source.reads(2);
  EXPECT_EQ(reads.front(), "flag");
  EXPECT_EQ(reads.size(), 2u);
  EXPECT_EQ(reads.back(), source.node(1).output(0));
  ASSERT_EQ(source.outputs().size(), 1u);
  EXPECT_EQ(source.outputs()[0].name(), "out");
}

TEST(StoredGraph, TopologicalOrderPutsEachNodeAfterWhatItReads) {
  auto m = stored();
  // The If first, then Add, then Relu: stored out of order, as another tool may write it.
  auto& nodes = *m.proto().mutable_graph()->mutable_node();
  nodes.SwapElements(0, 2);
  const rx::stored_graph source(m);
  EXPECT_EQ(source.node(0).op_type(), "If");
  EXPECT_EQ(source.topological_order(), (std::vector<int>{2, 1, 0}));
  // A name no scope gives is an error naming the node; one an outer scope gives is not.
  const auto& branch = m.graph().node(0).attribute(0).g();
  EXPECT_THROW((void)rx::stored_graph(branch).topological_order(), retarget::error);
  EXPECT_EQ(rx::stored_graph(branch).topological_order([](const std::string&) { return true; }),
            (std::vector<int>{0}));
}

TEST(StoredGraph, DeclaredInputsAndOutputsKeepTheirTypes) {
  const auto m = stored();
  const rx::stored_graph source(m);
  rx::graph g(13);
  const auto x = rx::declare_input(g, source.inputs()[0], false);
  EXPECT_EQ(x.dtype(), rx::dtype::f32);
  EXPECT_EQ(rx::to_string(x.shape()), "[n, 3]");
  rx::declare_input(g, source.inputs()[1], false);
  rx::add_input_default(g, source.initializer(0));  // w as the default of an input: no value
  ASSERT_EQ(g.proto().initializer_size(), 1);
  EXPECT_EQ(g.proto().initializer(0).name(), "w");
  rx::declare_output(g, g.op("Relu", x), "out", source.outputs()[0], false);
  EXPECT_EQ(g.proto().output(0).name(), "out");
  EXPECT_EQ(g.proto().output(0).type().SerializeAsString(),
            m.graph().output(0).type().SerializeAsString());
  // A subgraph's input without a type is left to its node.
  onnx::ValueInfoProto bare;
  bare.set_name("i");
  auto body = g.subgraph("body");
  rx::declare_input(body, rx::declared_value(bare), true);
  EXPECT_FALSE(body.proto().input(0).has_type());
}

TEST(StoredGraph, SubgraphAttributesAreRebuiltIntoSubgraphsOfTheirName) {
  const auto m = stored();
  const rx::stored_graph source(m);
  rx::graph g(13);
  const auto y = g.input("y", rx::dtype::f32, {"n", 3});
  std::vector<std::string> seen;
  const auto rebuilt =
      rx::with_rebuilt_subgraphs(g, *source.node(2).attribute("else_branch"),
                                 [&](rx::graph& body, const rx::stored_graph& sub) {
                                   seen.push_back(sub.name());
                                   EXPECT_EQ(sub.node(0).op_type(), "Abs");
                                   body.output(body.op("Sqrt", y));
                                 });
  EXPECT_EQ(seen, (std::vector<std::string>{"else"}));
  EXPECT_EQ(rebuilt.name(), "else_branch");
  EXPECT_EQ(rebuilt.g().name(), "else");
  ASSERT_EQ(rebuilt.g().node_size(), 1);
  EXPECT_EQ(rebuilt.g().node(0).op_type(), "Sqrt");
}

}  // namespace
