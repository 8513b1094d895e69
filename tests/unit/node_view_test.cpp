// ir::node_view, ir::attribute_view and ir::tensor_view: how the layers above ir/ read a node,
// its attributes and its stored tensors in place; ir::axis_in_range, the one axis range rule.
#include <gtest/gtest.h>

#include <cstdint>
#include <retarget/ir.hpp>
#include <retarget/ir/axis.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/proto.hpp>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;

// The attribute a literal writes: attr("axis"_i = 1).
template <class A>
onnx::AttributeProto attr(const A& a) {
  onnx::AttributeProto p;
  a.write(p);
  return p;
}

// Gemm 'fc' (alpha, transB, a string and a tensor attribute are not Gemm's: the node is built
// unchecked, as a file may have it) and an unnamed Relu in domain "ai.onnx".
rx::model two_nodes() {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {2, 3});
  const auto w = g.initializer("w", rx::tensor::of<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  rx::node_spec gemm;
  gemm.op_type = "Gemm";
  gemm.name = "fc";
  gemm.inputs = {x, w, rx::value()};
  gemm.attributes = {attr("alpha"_f = 0.5f), attr("transB"_i = 1)};
  const auto y = g.emit(std::move(gemm)).front();
  g.output(g.op("Relu", y), "out");
  auto m = rx::make_model(std::move(g));
  auto& relu = *m.proto().mutable_graph()->mutable_node(1);
  relu.set_domain("ai.onnx");  // as a file may spell it
  relu.clear_name();
  return m;
}

TEST(NodeView, OpDomainNameAndDescription) {
  const auto m = two_nodes();
  const rx::node_view gemm(m.graph().node(0)), relu(m.graph().node(1));
  EXPECT_EQ(gemm.op_type(), "Gemm");
  EXPECT_EQ(gemm.name(), "fc");
  EXPECT_EQ(gemm.describe(), "Gemm 'fc'");
  EXPECT_EQ(relu.describe(), "Relu");
  // "ai.onnx" is the default domain spelled out: canonical "".
  EXPECT_TRUE(relu.has_domain());
  EXPECT_TRUE(relu.in_default_domain());
  EXPECT_EQ(relu.domain(), "");
  EXPECT_EQ(gemm.describe(), rx::describe_node(m.graph().node(0)));
}

TEST(NodeView, InputsAndOutputsByName) {
  const auto m = two_nodes();
  const rx::node_view gemm(m.graph().node(0));
  ASSERT_EQ(gemm.input_count(), 3u);
  EXPECT_EQ(gemm.input(0), "x");
  EXPECT_EQ(gemm.input(1), "w");
  EXPECT_EQ(gemm.input(2), "");  // the absent C
  EXPECT_EQ(gemm.inputs(), (std::vector<std::string>{"x", "w", ""}));
  ASSERT_EQ(gemm.output_count(), 1u);
  EXPECT_EQ(gemm.outputs(), std::vector<std::string>{gemm.output(0)});
  EXPECT_EQ(rx::node_view(m.graph().node(1)).input(0), gemm.output(0));
}

TEST(NodeView, AttributesByNameWithTheirKinds) {
  const auto m = two_nodes();
  const rx::node_view gemm(m.graph().node(0));
  ASSERT_EQ(gemm.attribute_count(), 2u);
  const auto alpha = gemm.attribute("alpha");
  ASSERT_TRUE(alpha);
  EXPECT_EQ(alpha->kind(), rx::attr_type::float_);
  EXPECT_EQ(alpha->f(), 0.5f);
  const auto trans = gemm.attribute("transB");
  ASSERT_TRUE(trans);
  EXPECT_EQ(trans->kind(), rx::attr_type::int_);
  EXPECT_EQ(trans->i(), 1);
  EXPECT_FALSE(gemm.attribute("beta"));
  std::vector<std::string> names;
  for (const auto& a : gemm.attributes()) names.emplace_back(a.name());
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "transB"}));
  ASSERT_EQ(gemm.attribute_protos().size(), 2u);
  EXPECT_EQ(gemm.attribute_protos()[1].i(), 1);
}

TEST(NodeView, ListStringTensorAndGraphAttributes) {
  onnx::NodeProto n;
  n.set_op_type("Custom");
  *n.add_attribute() = attr("pads"_i = {1, 2, 3});
  *n.add_attribute() = attr("scales"_f = {0.5f, 2.0f});
  *n.add_attribute() = attr("mode"_s = "nearest");
  *n.add_attribute() = attr("value"_t = rx::tensor::vector<std::int64_t>({7, 8}));
  auto* body = n.add_attribute();
  body->set_name("body");
  body->set_type(onnx::AttributeProto::GRAPH);
  body->mutable_g()->set_name("b");
  const rx::node_view v(n);
  EXPECT_EQ(v.attribute("pads")->ints(), (std::vector<std::int64_t>{1, 2, 3}));
  EXPECT_EQ(v.attribute("scales")->floats(), (std::vector<float>{0.5f, 2.0f}));
  EXPECT_EQ(v.attribute("mode")->s(), "nearest");
  const auto value = v.attribute("value")->t();
  ASSERT_TRUE(value);
  EXPECT_EQ(value.values<std::int64_t>(), (std::vector<std::int64_t>{7, 8}));
  EXPECT_FALSE(v.attribute("pads")->t());  // not a tensor attribute: absent
  EXPECT_TRUE(v.attribute("body")->has_subgraph());
  EXPECT_FALSE(v.attribute("value")->has_subgraph());
  EXPECT_EQ(v.attribute("body")->kind(), rx::attr_type::graph);
}

TEST(NodeView, AttributesCompareByNameKindAndValue) {
  onnx::NodeProto a, b;
  *a.add_attribute() = attr("axis"_i = 1);
  *a.add_attribute() = attr("axes"_i = {1});
  *b.add_attribute() = attr("axis"_i = 1);
  *b.add_attribute() = attr("axis"_i = 2);
  *b.add_attribute() = attr("axis"_f = 1.0f);
  const auto x = rx::node_view(a).attributes(), y = rx::node_view(b).attributes();
  EXPECT_TRUE(x[0].same_as(y[0]));
  EXPECT_FALSE(x[0].same_as(y[1]));  // value
  EXPECT_FALSE(x[0].same_as(y[2]));  // kind
  EXPECT_FALSE(x[0].same_as(x[1]));  // name and kind
}

TEST(NodeView, SameValueWhateverTheName) {
  onnx::NodeProto n;
  *n.add_attribute() = attr("axis"_i = 1);
  *n.add_attribute() = attr("keepdims"_i = 1);
  *n.add_attribute() = attr("keepdims"_i = 0);
  *n.add_attribute() = attr("scale"_f = 1.0f);
  n.mutable_attribute(1)->set_doc_string("documented");
  const auto a = rx::node_view(n).attributes();
  EXPECT_TRUE(a[0].same_value(a[1]));   // another name, a doc string: the same value
  EXPECT_FALSE(a[0].same_as(a[1]));     // but not the same attribute
  EXPECT_FALSE(a[0].same_value(a[2]));  // another value
  EXPECT_FALSE(a[0].same_value(a[3]));  // another kind
}

TEST(NodeView, SubgraphsRebuiltInACopy) {
  onnx::NodeProto n;
  auto* branch = n.add_attribute();
  branch->set_name("then_branch");
  branch->set_type(onnx::AttributeProto::GRAPH);
  branch->mutable_g()->set_name("then");
  auto* bodies = n.add_attribute();
  bodies->set_name("bodies");
  bodies->set_type(onnx::AttributeProto::GRAPHS);
  bodies->add_graphs()->set_name("a");
  bodies->add_graphs()->set_name("b");
  const auto renamed = [](const onnx::GraphProto& g) {
    onnx::GraphProto out = g;
    out.set_name(g.name() + "_rebuilt");
    return out;
  };
  const auto a = rx::node_view(n).attributes();
  const auto then = a[0].with_rebuilt_subgraphs(renamed);
  EXPECT_EQ(then.name(), "then_branch");
  EXPECT_EQ(then.g().name(), "then_rebuilt");
  EXPECT_EQ(then.graphs_size(), 0);
  const auto both = a[1].with_rebuilt_subgraphs(renamed);
  ASSERT_EQ(both.graphs_size(), 2);
  EXPECT_EQ(both.graphs(0).name(), "a_rebuilt");
  EXPECT_EQ(both.graphs(1).name(), "b_rebuilt");
  EXPECT_FALSE(both.has_g());
  EXPECT_EQ(n.attribute(0).g().name(), "then");  // the node's own is left as it is
}

TEST(TensorView, ReadsInPlaceWithoutCopying) {
  const auto m = two_nodes();
  const auto& w = m.graph().initializer(0);
  const rx::tensor_view t(w);
  EXPECT_EQ(t.name(), "w");
  EXPECT_EQ(t.type(), rx::dtype::f32);
  EXPECT_EQ(t.dims(), (rx::dims_t{2, 3}));
  EXPECT_EQ(t.element_count(), 6);
  EXPECT_FALSE(t.is_external());
  ASSERT_TRUE(t.raw_bytes());
  EXPECT_EQ(static_cast<const void*>(t.raw_bytes()->data()),
            static_cast<const void*>(w.raw_data().data()));
  EXPECT_EQ(t.values<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(t.stored_count<float>(), 6u);
  EXPECT_EQ(t.copy().dims(), (rx::dims_t{2, 3}));
  EXPECT_EQ(&t.proto(), &w);
}

TEST(TensorView, TypedFieldsAndAbsence) {
  onnx::TensorProto p;
  p.set_data_type(static_cast<int>(rx::dtype::i32));
  p.add_dims(3);
  for (int v : {4, -5, 6}) p.add_int32_data(v);
  const rx::tensor_view t(p);
  EXPECT_FALSE(t.raw_bytes());
  EXPECT_EQ(t.values<std::int32_t>(), (std::vector<std::int32_t>{4, -5, 6}));
  const rx::tensor_view absent(static_cast<const onnx::TensorProto*>(nullptr));
  EXPECT_FALSE(absent);
  EXPECT_FALSE(rx::tensor_view());
  EXPECT_THROW((void)absent.dims(), retarget::error);
}

TEST(Axis, InRangeAndNormalized) {
  EXPECT_EQ(rx::axis_in_range(-1, 4), 3);
  EXPECT_EQ(rx::axis_in_range(-4, 4), 0);
  EXPECT_EQ(rx::axis_in_range(3, 4), 3);
  EXPECT_FALSE(rx::axis_in_range(4, 4));
  EXPECT_FALSE(rx::axis_in_range(-5, 4));
  EXPECT_FALSE(rx::axis_in_range(0, 0));
  EXPECT_EQ(rx::normalized_axis(-2, 3), 1);
  EXPECT_THROW(rx::normalized_axis(3, 3), retarget::error);
}

// A stored tensor's elements under other dims, as a new constant: the source stays as it is.
TEST(TensorView, ReshapedCopiesTheElementsUnderNewDims) {
  auto stored = rx::tensor::of<float>({1, 2, 3, 4, 5, 6}, {1, 2, 3});
  stored.set_name("w");
  const rx::tensor_view w(stored);
  const auto flat = w.reshaped({6, 1, 1});
  EXPECT_EQ(flat.dims(), (rx::dims_t{6, 1, 1}));
  EXPECT_EQ(flat.type(), rx::dtype::f32);
  EXPECT_EQ(flat.name(), "");
  EXPECT_EQ(rx::tensor_view(flat).values<float>(), (std::vector<float>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(w.dims(), (rx::dims_t{1, 2, 3}));
  EXPECT_EQ(w.name(), "w");
  EXPECT_THROW((void)w.reshaped({4}), retarget::error);
}

// The attributes of a node to emit: a node's own read as views, others added from literals and
// run-time names, some dropped; emitted as listed.
TEST(AttributeList, ReadAsViewsAddedToAndEmitted) {
  const auto m = two_nodes();
  const rx::node_view gemm(m.graph().node(0));
  rx::attribute_list list = gemm.attribute_protos();
  ASSERT_EQ(list.size(), 2u);
  list.push_back(rx::attribute_entry("mode", "linear"));
  list.push_back(rx::attribute_entry("axes", std::vector<std::int64_t>{0, 2}));
  std::vector<std::string> names;
  for (const rx::attribute_view a : list) names.emplace_back(a.name());
  EXPECT_EQ(names, (std::vector<std::string>{"alpha", "transB", "mode", "axes"}));
  EXPECT_TRUE(list[0].same_as(*gemm.attribute("alpha")));
  EXPECT_EQ(list[2].s(), "linear");
  EXPECT_EQ(list.back().ints(), (std::vector<std::int64_t>{0, 2}));
  rx::erase_attributes(
      list, [](const rx::attribute_view& a) { return a.kind() == rx::attr_type::string; });
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[2].name(), "axes");

  rx::graph g(17);
  rx::node_spec leaky;
  leaky.op_type = "LeakyRelu";
  leaky.inputs = {g.input("x", rx::dtype::f32, {2})};
  leaky.attributes = {rx::attribute_entry("alpha"_f = 0.25f)};
  leaky.attributes.push_back(*gemm.attribute("alpha"));  // a node's as it is: a second alpha
  EXPECT_THROW(g.emit(leaky), retarget::error);
  leaky.attributes = {rx::attribute_entry("alpha"_f = 0.25f)};
  g.emit(leaky);
  EXPECT_EQ(g.node(0).attribute("alpha")->f(), 0.25f);
}

}  // namespace
