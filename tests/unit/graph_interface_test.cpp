// ir/graph_interface.hpp (output names and ranks, a named output dim, weights listed as inputs)
// and ir/exposed_values.hpp (a model that gives intermediate values as outputs too).
#include <gtest/gtest.h>

#include <retarget/ir.hpp>
#include <retarget/ir/exposed_values.hpp>
#include <retarget/ir/graph_interface.hpp>
#include <retarget/ir/proto.hpp>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace rx = retarget::ir;

// y = Relu(x · w) [2, 4], z = Neg(y).
void build(rx::graph& g) {
  const auto x = g.input("x", rx::dtype::f32, {2, 3});
  const auto w = g.initializer("w", rx::tensor::of(std::vector<float>(12, 1.0f), {3, 4}));
  const auto y = g.op("Relu", g.op("MatMul", x, w));
  g.output(y, "y");
  g.output(g.op("Neg", y), "z");
}

TEST(GraphInterface, OutputNamesAndRanks) {
  rx::graph g(17);
  build(g);
  EXPECT_EQ(rx::output_names(g), (std::vector<std::string>{"y", "z"}));
  EXPECT_EQ(rx::output_rank(g, "y"), 2u);
  EXPECT_FALSE(rx::output_rank(g, "x"));  // an input, not an output
}

TEST(GraphInterface, NamesAnOutputDim) {
  rx::graph g(17);
  build(g);
  rx::name_output_dim(g, "z", 0, "batch");
  const auto& dims = g.proto().output(1).type().tensor_type().shape();
  EXPECT_EQ(dims.dim(0).dim_param(), "batch");
  EXPECT_EQ(dims.dim(1).dim_value(), 4);
  EXPECT_EQ(g.proto().output(0).type().tensor_type().shape().dim(0).dim_value(), 2);
  EXPECT_THROW(rx::name_output_dim(g, "z", 2, "n"), retarget::error);
  EXPECT_THROW(rx::name_output_dim(g, "nope", 0, "n"), retarget::error);
}

TEST(GraphInterface, ListsInitializersAsInputs) {
  rx::graph g(17);
  build(g);
  rx::list_initializers_as_inputs(g);
  ASSERT_EQ(g.proto().input_size(), 2);
  EXPECT_EQ(g.proto().input(1).name(), "w");
  EXPECT_EQ(rx::dims_of(g.proto().input(1).type().tensor_type().shape()).size(), 2u);
  EXPECT_EQ(g.proto().input(1).type().tensor_type().elem_type(), static_cast<int>(rx::dtype::f32));
}

TEST(ExposedValues, AddsTypedOutputsOnce) {
  rx::graph g(17);
  build(g);
  auto m = rx::make_model(std::move(g));
  const auto matmul = m.graph().node(0).output(0);
  m.infer_shapes();
  const std::vector<std::string> names = {matmul, "y", "unknown", matmul};
  const auto exposed = rx::exposing(m, names);
  const auto& outputs = exposed.graph().output();
  ASSERT_EQ(outputs.size(), 4);  // y, z, then matmul and unknown (y and the repeat not again)
  EXPECT_EQ(outputs[0].name(), "y");
  EXPECT_EQ(outputs[1].name(), "z");
  EXPECT_EQ(outputs[2].name(), matmul);
  EXPECT_TRUE(outputs[2].type().has_tensor_type());  // typed by the inferred value_info
  EXPECT_EQ(outputs[3].name(), "unknown");
  EXPECT_FALSE(outputs[3].has_type());
  EXPECT_EQ(m.graph().output_size(), 2);  // the model itself is unchanged
  EXPECT_EQ(exposed.graph().initializer_size(), 1);
}

}  // namespace
