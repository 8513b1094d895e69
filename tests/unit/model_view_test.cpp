// ir::model_view: one analysis of a model for every layer above ir/ — producers and consumers,
// constants (initializers, shared weights, Constant nodes, Identity of a constant), types as
// inference finds them without copying large weights, and the one node describer. Also
// model::share_weights and keep_initializers, on which convert's passes hold each weight once.
#include <gtest/gtest.h>

#include <memory>
#include <retarget/ir.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/proto.hpp>  // the test clears a declared shape
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;

// x [1, 300] · w [300, 4] (4800 bytes: a large weight), + a Constant bias through an
// Identity, reshaped by a small initializer to [2, 2]; w is read twice.
rx::model small_model() {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {1, 300});
  std::vector<float> weights(300 * 4, 0.5f);
  const auto w = g.initializer("w", rx::tensor::of(weights, {300, 4}));
  const auto bias = g.op("Identity", g.constant(rx::tensor::of<float>({1, 2, 3, 4}, {4})));
  const auto y = g.op("Add", g.op("MatMul", x, w), bias);
  const auto shape = g.initializer("shape", rx::tensor::vector<std::int64_t>({2, 2}));
  const auto z = g.op("Reshape", y, shape);
  g.output(g.op("Add", z, g.op("ReduceSum", w, "keepdims"_i = 0)), "out");
  return rx::make_model(std::move(g));
}

TEST(ModelView, ProducersAndConsumers) {
  const auto m = small_model();
  const rx::model_view view(m);
  ASSERT_EQ(view.node_count(), m.graph().node_size());
  const auto& matmul = view.node(view.consumers("x")[0]);
  EXPECT_EQ(matmul.op_type(), "MatMul");
  EXPECT_EQ(view.producer("x"), -1);
  EXPECT_EQ(view.producer(matmul.output(0)), view.consumers("x")[0]);
  EXPECT_EQ(view.consumers("w").size(), 2u);  // MatMul and ReduceSum
  EXPECT_TRUE(view.consumers("nothing").empty());
  EXPECT_EQ(view.producer("nothing"), -1);
}

TEST(ModelView, GraphInputsAndOutputs) {
  const auto m = small_model();
  const rx::model_view view(m);
  EXPECT_TRUE(view.is_graph_input("x"));
  EXPECT_FALSE(view.is_graph_input("out"));
  EXPECT_TRUE(view.is_graph_output("out"));
  EXPECT_FALSE(view.is_graph_output("x"));
  EXPECT_FALSE(view.is_graph_output("w"));
  EXPECT_FALSE(view.is_graph_output("nothing"));
}

TEST(ModelView, DeclaredShapesOfGraphInputsAndOutputs) {
  auto m = small_model();
  {
    const rx::model_view view(m);
    EXPECT_TRUE(view.declares_shape("x"));
    EXPECT_TRUE(view.declares_shape("out"));
    EXPECT_FALSE(view.declares_shape("w"));  // no graph input or output
    EXPECT_FALSE(view.declares_shape("nothing"));
  }
  // A type without its shape (another exporter's graph output).
  m.proto()
      .mutable_graph()
      ->mutable_output(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->clear_shape();
  const rx::model_view view(m);
  EXPECT_TRUE(view.declares_shape("x"));
  EXPECT_FALSE(view.declares_shape("out"));
}

TEST(ModelView, ConstantsByEveryDefinition) {
  const auto m = small_model();
  const rx::model_view view(m);
  EXPECT_TRUE(view.is_initializer("w"));
  ASSERT_NE(view.constant("w"), nullptr);
  EXPECT_EQ(view.constant("w")->raw_data().size(), 4800u);
  EXPECT_NE(view.constant("shape"), nullptr);
  EXPECT_EQ(view.constant("x"), nullptr);
  // The Constant's output and the Identity over it are both the same stored tensor.
  int identity = -1;
  for (int i = 0; i < view.node_count(); ++i)
    if (view.node(i).op_type() == "Identity") identity = i;
  ASSERT_GE(identity, 0);
  const auto& through = view.node(identity).output(0);
  ASSERT_NE(view.constant(through), nullptr);
  EXPECT_EQ(view.constant(through), view.constant(view.node(identity).input(0)));
  EXPECT_FALSE(view.is_initializer(through));
  EXPECT_EQ(view.static_shape(through), (std::vector<std::int64_t>{4}));
  // Computed values are not constants, even when their inputs are.
  EXPECT_EQ(view.constant(view.node(view.consumers("w")[1]).output(0)), nullptr);
}

TEST(ModelView, InitializerNamesInOrder) {
  const auto m = small_model();
  const rx::model_view view(m);
  // The Constant's value is a constant but not an initializer.
  EXPECT_EQ(view.initializer_names(), (std::vector<std::string>{"w", "shape"}));
}

TEST(ModelView, SharedWeightsAreReadFromTheirTensorWithoutACopy) {
  auto m = small_model();
  const auto* bytes = m.graph().initializer(0).raw_data().data();
  m.share_weights();
  ASSERT_EQ(m.shared_initializers().size(), 1u);  // w; the 16-byte shape stays
  EXPECT_TRUE(m.graph().initializer(0).raw_data().empty());
  EXPECT_EQ(m.graph().initializer(0).name(), "w");
  const rx::model_view view(m);
  ASSERT_NE(view.constant("w"), nullptr);
  EXPECT_EQ(view.constant("w")->raw_data().data(), bytes);  // moved, never copied
  // A copy of the model shares the weight too.
  const rx::model copy = m;
  EXPECT_EQ(copy.shared_initializers()[0].data.get(), m.shared_initializers()[0].data.get());
  // Put back, the model is the one it was.
  auto whole = m;
  whole.materialize();
  EXPECT_EQ(whole.proto().SerializeAsString(), small_model().proto().SerializeAsString());
}

TEST(ModelView, TypesAreInferredWithoutTheLargeWeights) {
  auto m = small_model();
  m.share_weights();
  const rx::model_view view(m);
  // Reshape's shape comes from the small initializer, which inference sees.
  int reshape = -1;
  for (int i = 0; i < view.node_count(); ++i)
    if (view.node(i).op_type() == "Reshape") reshape = i;
  ASSERT_GE(reshape, 0);
  EXPECT_EQ(view.static_shape(view.node(reshape).output(0)), (std::vector<std::int64_t>{2, 2}));
  EXPECT_EQ(view.static_shape("w"), (std::vector<std::int64_t>{300, 4}));
  EXPECT_EQ(view.rank("x"), 2u);
  EXPECT_EQ(view.element_type("out"), static_cast<int>(rx::dtype::f32));
  // Without inference, intermediate values have no type.
  const rx::model_view declared(m, {.infer_types = false});
  EXPECT_EQ(declared.type(view.node(reshape).output(0)), nullptr);
  EXPECT_NE(declared.type("x"), nullptr);
}

TEST(ModelView, DescribesANodeOneWay) {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {2});
  g.output(g.op("Relu", x), "y");
  auto m = rx::make_model(std::move(g));
  m.proto().mutable_graph()->mutable_node(0)->set_name("/act/Relu");
  const rx::model_view view(m);
  EXPECT_EQ(view.describe(0), "Relu '/act/Relu'");
  m.proto().mutable_graph()->mutable_node(0)->clear_name();
  EXPECT_EQ(rx::describe_node(m.graph().node(0)), "Relu");
}

TEST(ModelView, KeepInitializersKeepsSharedBytesWithTheirEntries) {
  auto m = small_model();
  m.share_weights(16);  // both w and the 16-byte shape
  ASSERT_EQ(m.shared_initializers().size(), 2u);
  const auto removed = m.keep_initializers([](const std::string& name) { return name != "w"; });
  EXPECT_EQ(removed, 1u);
  ASSERT_EQ(m.graph().initializer_size(), 1);
  ASSERT_EQ(m.shared_initializers().size(), 1u);
  EXPECT_EQ(m.shared_initializers()[0].index, 0);
  EXPECT_EQ(m.shared_initializers()[0].data->proto().raw_data().size(), 16u);
  m.materialize();
  EXPECT_EQ(m.graph().initializer(0).name(), "shape");
  EXPECT_EQ(m.graph().initializer(0).raw_data().size(), 16u);
}

}  // namespace
