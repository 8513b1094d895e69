// ir/graph_cut.hpp: nodes cut out of a model (their outputs typed inputs of the rest, what they
// read its outputs) and put back after the rest changed; ir/version_converter.hpp on the rest.
#include <gtest/gtest.h>

#include <retarget/ir.hpp>
#include <retarget/ir/graph_cut.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/proto.hpp>
#include <retarget/ir/version_converter.hpp>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace rx = retarget::ir;

// x [2, 3] -> Relu -> a -> Neg -> b -> Abs -> y; node 1 (Neg) is the one cut.
rx::model chain(int opset = 13) {
  rx::graph g(opset);
  const auto x = g.input("x", rx::dtype::f32, {2, 3});
  const auto a = g.op("Relu", x);
  const auto b = g.op("Neg", a);
  g.output(g.op("Abs", b), "y");
  return rx::make_model(std::move(g));
}

std::vector<std::string> names_of(const auto& values) {
  std::vector<std::string> out;
  for (const auto& v : values) out.push_back(v.name());
  return out;
}

TEST(GraphCut, CutNodesBecomeInputsAndOutputsOfTheRest) {
  const auto m = chain();
  const rx::model_view view(m);
  const auto a = m.graph().node(0).output(0), b = m.graph().node(1).output(0);
  const auto cut =
      rx::without_nodes(m, view, {1}, [](int i) { return "node " + std::to_string(i); });
  const auto& rest = cut.rest.graph();
  ASSERT_EQ(rest.node_size(), 2);
  EXPECT_EQ(rest.node(0).op_type(), "Relu");
  EXPECT_EQ(rest.node(1).op_type(), "Abs");
  EXPECT_EQ(names_of(rest.input()), (std::vector<std::string>{"x", b}));
  EXPECT_EQ(names_of(rest.output()), (std::vector<std::string>{"y", a}));
  EXPECT_EQ(cut.temporary_inputs, std::vector<std::string>{b});
  EXPECT_EQ(rest.input(1).type().tensor_type().shape().dim_size(), 2);  // typed as inferred
  EXPECT_EQ(m.graph().node_size(), 3);  // the model itself is unchanged
}

TEST(GraphCut, AnUnknownTypeIsPlaced) {
  auto m = chain();
  const auto b = m.graph().node(1).output(0);
  const rx::model_view view(m, {.infer_types = false});  // b's type is not known
  try {
    (void)rx::without_nodes(m, view, {1}, [](int i) { return "node " + std::to_string(i); });
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_EQ(std::string(e.what()),
              "retarget: node 1: the type of '" + b +
                  "' is unknown (shape inference cannot tell it), and converting around the "
                  "node needs it");
  }
}

TEST(GraphCut, SplicedBackAfterAStep) {
  const auto m = chain(13);
  const rx::model_view view(m);
  const auto cut = rx::without_nodes(m, view, {1}, [](int i) { return std::to_string(i); });
  auto converted = rx::onnx_version_step(cut.rest, 13, 14);
  rx::set_default_opset(converted, 14);
  rx::graph scratch(14);
  rx::prepare_for_cut_nodes(scratch, m, converted);
  const auto a = m.graph().node(0).output(0), b = m.graph().node(1).output(0);
  // The cut Neg, emitted at the new opset reading the rest's value, giving its own name.
  const auto in =
      rx::input_of_known_type(scratch, view, a, 1, [](int i) { return std::to_string(i); });
  scratch.output(scratch.op("Neg", in), b);
  rx::splice_back(converted, m, scratch, {}, cut.temporary_inputs);
  const auto& g = converted.graph();
  ASSERT_EQ(g.node_size(), 3);
  EXPECT_EQ(g.node(0).op_type(), "Relu");
  EXPECT_EQ(g.node(1).op_type(), "Neg");  // in topological order
  EXPECT_EQ(g.node(2).op_type(), "Abs");
  EXPECT_EQ(names_of(g.input()), std::vector<std::string>{"x"});
  EXPECT_EQ(names_of(g.output()), std::vector<std::string>{"y"});
  EXPECT_EQ(converted.opset(), 14);
  rx::require_ir_version(converted, rx::ir_version_for_opset(14));
  EXPECT_NO_THROW(converted.check());
}

TEST(VersionConverter, AdaptersAndOpsetImports) {
  EXPECT_TRUE(rx::onnx_converter_has("Reshape", 4, 5));  // its shape became an input
  EXPECT_FALSE(rx::onnx_converter_has("Relu", 14, 15));  // no step of Relu there
  auto m = chain(13);
  rx::set_default_opset(m, 12);
  EXPECT_EQ(m.opset(), 12);
  rx::require_ir_version(m, 3);
  EXPECT_EQ(m.proto().ir_version(), rx::ir_version_for_opset(13));  // not lowered
}

}  // namespace
