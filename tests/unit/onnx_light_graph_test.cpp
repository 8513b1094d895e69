// The middle of ir/ (attribute literals, node views, attribute lists, the graph builder and its
// interface) as a unit that does not include ONNX's or protobuf's headers sees it: with
// retarget::compiled (and header-only, in retarget_unit_tests, on the inline definitions) a
// graph is built and read through the definitions of ir/detail/*_impl.hpp; the attributes that
// hold a message through a pointer copy it deeply, and stay assignable once moved from.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_helpers.hpp>
#include <retarget/ir/graph_interface.hpp>
#include <retarget/ir/node_view.hpp>
#include <string>
#include <utility>
#include <vector>

// What this unit checks first: with retarget::compiled these headers stay light.
#if defined(RETARGET_SEPARATE_COMPILATION) && \
    (defined(ONNX_ONNX_PB_H) || defined(GOOGLE_PROTOBUF_VERSION))
#error "ir's graph headers include ONNX's or protobuf's headers with retarget::compiled"
#endif

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;

// The alpha of the LeakyRelu that g.op emits with the attribute.
float alpha_written(const rx::runtime_attribute& a) {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {4});
  g.op("LeakyRelu", x, a);
  const auto written = g.node(0).attribute("alpha");
  return written ? written->f() : -1.0f;
}

TEST(LightGraph, ARuntimeAttributeCopiesItsProto) {
  rx::runtime_attribute a;
  ("alpha"_f = 0.25).write(*a.proto);
  rx::runtime_attribute b = a;
  ("alpha"_f = 0.5).write(*b.proto);
  EXPECT_EQ(alpha_written(a), 0.25f);
  EXPECT_EQ(alpha_written(b), 0.5f);

  // Moved from, it holds no message (a copy of it neither), and is assigned anew.
  rx::runtime_attribute c = std::move(a);
  EXPECT_EQ(alpha_written(c), 0.25f);
  EXPECT_TRUE(c.proto);
  EXPECT_FALSE(a.proto);  // NOLINT(bugprone-use-after-move)
  const rx::runtime_attribute moved_copy = a;
  EXPECT_FALSE(moved_copy.proto);
  a = b;
  EXPECT_EQ(alpha_written(a), 0.5f);
  rx::runtime_attribute d;
  d = std::move(c);
  c = std::move(d);
  EXPECT_EQ(alpha_written(c), 0.25f);
}

TEST(LightGraph, NodesAndAttributesReadThroughViews) {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {1, 3, "h", "w"});
  const auto y = g.op("Transpose", x, "perm"_i = {0, 1, 3, 2});
  const auto z = g.op("Mul", y, g.constant(rx::tensor::scalar(2.0f)));
  g.output(z, "z");

  ASSERT_EQ(g.node_count(), 3u);
  const rx::node_view t = g.node(0);
  EXPECT_EQ(t.op_type(), "Transpose");
  EXPECT_EQ(t.describe(), "Transpose 'Transpose_0'");
  EXPECT_EQ(t.inputs(), (std::vector<std::string>{"x"}));
  ASSERT_EQ(t.attribute_count(), 1u);
  const auto perm = t.attribute("perm");
  ASSERT_TRUE(perm.has_value());
  EXPECT_EQ(perm->kind(), rx::attr_type::ints);
  EXPECT_EQ(perm->ints(), (std::vector<std::int64_t>{0, 1, 3, 2}));
  EXPECT_FALSE(t.attribute("axes").has_value());

  const auto value = g.node(1).attribute("value");
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(value->kind(), rx::attr_type::tensor);
  EXPECT_EQ(value->t().type(), rx::dtype::f32);
  EXPECT_EQ(value->t().values<float>(), (std::vector<float>{2.0f}));
  EXPECT_EQ(value->t().reshaped({1, 1}).dims(), (rx::dims_t{1, 1}));

  EXPECT_EQ(z.dtype(), rx::dtype::f32);
  EXPECT_EQ(z.rank(), 4u);
  ASSERT_TRUE(g.producer(z).has_value());
  EXPECT_EQ(g.producer(z)->op_type(), "Mul");
  EXPECT_EQ(g.find("x"), x);
  EXPECT_EQ(g.constant_data(x), nullptr);
}

TEST(LightGraph, AnAttributeListCopiesItsEntries) {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {2, 3});
  g.op("Softmax", x, "axis"_i = 1);
  g.op("Pad", x, rx::ints_constant(g, {0, 0, 0, 0}), "mode"_s = "reflect");
  rx::attribute_list a = g.node(0).attribute_protos();
  a.push_back(*g.node(2).attribute("mode"));
  rx::attribute_list b = a;
  b.erase_if([](const rx::attribute_view& v) { return v.name() == "axis"; });
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].name(), "axis");
  EXPECT_EQ(a[0].i(), 1);
  EXPECT_EQ(b.back().s(), "reflect");
  std::vector<std::string> names;
  for (const auto v : a) names.emplace_back(v.name());
  EXPECT_EQ(names, (std::vector<std::string>{"axis", "mode"}));

  rx::attribute_list c = std::move(a);
  EXPECT_EQ(c.size(), 2u);
  a = b;
  EXPECT_EQ(a.size(), 1u);
  EXPECT_TRUE(a.back().same_as(b.back()));

  // A node_spec carries its list into the node it emits.
  rx::node_spec spec;
  spec.op_type = "Softmax";
  spec.inputs = {x};
  spec.attributes = c;
  spec.attributes.erase_if([](const rx::attribute_view& v) { return v.name() == "mode"; });
  const auto out = g.emit(std::move(spec));
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(g.node(3).attribute("axis")->i(), 1);
  EXPECT_EQ(c.size(), 2u);
}

TEST(LightGraph, AGraphAttributeHoldsItsOwnSubgraph) {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {2});
  auto then_branch = g.subgraph("then");
  then_branch.output(then_branch.op("Identity", x), "t");
  auto else_branch = g.subgraph("else");
  else_branch.output(else_branch.op("Neg", x), "e");
  const auto then_attribute = "then_branch"_g = then_branch;
  auto copy = then_attribute;
  // Renaming the builder's graph after the attribute was made leaves the attribute as it was.
  then_branch.set_name("renamed");
  const auto y =
      g.op("If", g.constant(rx::tensor::scalar(true)), copy, "else_branch"_g = else_branch);
  g.output(y, "y");
  const auto node = g.node(g.node_count() - 1);
  ASSERT_EQ(node.op_type(), "If");
  ASSERT_TRUE(node.attribute("then_branch").has_value());
  EXPECT_EQ(node.attribute("then_branch")->kind(), rx::attr_type::graph);
  EXPECT_TRUE(node.attribute("then_branch")->has_subgraph());
  EXPECT_EQ(y.dtype(), rx::dtype::f32);
}

TEST(LightGraph, TheInterfaceIsFinishedOutOfLine) {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {2, 3});
  g.initializer("w", rx::tensor::of<float>({1, 2, 3}, {3}));
  g.output(g.op("Relu", x), "y");
  EXPECT_EQ(rx::output_names(g), (std::vector<std::string>{"y"}));
  EXPECT_EQ(rx::output_rank(g, "y"), std::optional<std::size_t>(2));
  EXPECT_EQ(rx::output_rank(g, "z"), std::nullopt);
  rx::name_output_dim(g, "y", 0, "batch");
  EXPECT_THROW(rx::name_output_dim(g, "y", 2, "n"), retarget::error);
  rx::list_initializers_as_inputs(g);
  EXPECT_EQ(g.prune_unused_initializers(), 0u);  // listed as an input, it is read
  EXPECT_EQ(rx::scalar_like(g, x, 1.0).dtype(), rx::dtype::f32);
  EXPECT_EQ(g.domain_version(""), 17);
}

}  // namespace
