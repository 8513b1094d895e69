// The graph builder: nodes, multiple outputs, custom domains and opset imports, subgraphs,
// shape inference as the graph grows, and the errors of the runtime-name path.
#include <gtest/gtest.h>
#include <onnx/defs/shape_inference.h>

#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <string>

#include "support/error_of.hpp"
namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;
using rx::dtype;

using support::error_of;

TEST(OnnxGraph, SeedResizeExampleBuildsAndChecks) {
  rx::graph g(17);
  auto x = g.input("x", dtype::f32, {1, 3, 8, 8});
  auto scales = g.constant(rx::tensor::of<float>({1, 1, 4, 4}, {4}));
  auto y = g.op("Resize", x, g.constant(rx::empty_f32), scales,
                "coordinate_transformation_mode"_s = "pytorch_half_pixel",
                "cubic_coeff_a"_f = -0.75f, "mode"_s = "cubic", "nearest_mode"_s = "floor");
  EXPECT_EQ(y.dtype(), dtype::f32);
  EXPECT_EQ(y.static_shape(), (std::vector<std::int64_t>{1, 3, 32, 32}));
  g.output(y, "y");
  auto m = rx::make_model(std::move(g));
  EXPECT_NO_THROW(m.check());
  const auto& node = m.graph().node(2);
  EXPECT_EQ(node.op_type(), "Resize");
  EXPECT_EQ(node.attribute_size(), 4);
  EXPECT_EQ(m.graph().output(0).name(), "y");
  EXPECT_EQ(node.output(0), "y");  // the output was renamed, not copied through an Identity
}

TEST(OnnxGraph, ShapesAreInferredAsTheGraphGrows) {
  rx::graph g;
  auto x = g.input("x", dtype::f32, {"batch", 3, 32, 32});
  auto w =
      g.initializer("w", rx::tensor::of(std::vector<float>(16 * 3 * 3 * 3, 0.5f), {16, 3, 3, 3}));
  auto y = g.op("Conv", x, w, "pads"_i = {1, 1, 1, 1}, "strides"_i = {2, 2});
  EXPECT_EQ(y.rank(), 4u);
  EXPECT_EQ(y.shape(), (std::vector<rx::dim>{"batch", 16, 16, 16}));
  EXPECT_FALSE(y.static_shape());

  auto r = g.op("Relu", y);
  EXPECT_EQ(r.shape(), y.shape());

  // The shape of a Reshape comes from the constant that holds it.
  auto flat = g.op("Reshape", r, g.constant(rx::tensor::vector<std::int64_t>({0, -1})));
  EXPECT_EQ(flat.shape(), (std::vector<rx::dim>{"batch", 16 * 16 * 16}));

  // Shape → Gather → Unsqueeze → Concat → Reshape: the symbolic dim travels through data.
  auto shape = g.op("Shape", x);
  auto batch = g.op("Gather", shape, g.constant(rx::tensor::scalar<std::int64_t>(0)), "axis"_i = 0);
  auto batch1 = g.op("Unsqueeze", batch, g.constant(rx::tensor::vector<std::int64_t>({0})));
  auto target =
      g.op("Concat", std::vector{batch1, g.constant(rx::tensor::vector<std::int64_t>({-1}))},
           "axis"_i = 0);
  auto again = g.op("Reshape", r, target);
  EXPECT_EQ(again.rank(), 2u);
  EXPECT_EQ(again.shape()[0], rx::dim("batch"));
}

TEST(OnnxGraph, SeveralOutputs) {
  rx::graph g;
  auto x = g.input("x", dtype::f32, {2, 10});
  auto [values, indices] =
      g.op<2>("TopK", x, g.constant(rx::tensor::vector<std::int64_t>({3})), "axis"_i = 1);
  EXPECT_EQ(values.static_shape(), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(indices.dtype(), dtype::i64);
  auto parts =
      g.op<3>("Split", x, g.constant(rx::tensor::vector<std::int64_t>({2, 3, 5})), "axis"_i = 1);
  EXPECT_EQ(parts[2].static_shape(), (std::vector<std::int64_t>{2, 5}));
  EXPECT_NE(parts[0].name(), parts[1].name());
}

// What a pattern walks up from: the node that made a value, read through its view; nothing for
// an input, an initializer, a Constant's value of another graph.
TEST(OnnxGraph, ProducersAndNodesAreReadThroughViews) {
  rx::graph g;
  auto x = g.input("x", dtype::f32, {2, 10});
  auto w = g.initializer("w", rx::tensor::of<float>({1, 2}, {2, 1}));
  auto [values, indices] =
      g.op<2>("TopK", x, g.constant(rx::tensor::vector<std::int64_t>({3})), "axis"_i = 1);
  auto y = g.op("Relu", values);
  EXPECT_FALSE(g.producer(x));
  EXPECT_FALSE(g.producer(w));
  const auto topk = g.producer(indices);
  ASSERT_TRUE(topk);
  EXPECT_EQ(topk->op_type(), "TopK");
  EXPECT_EQ(topk->output(1), indices.name());
  EXPECT_EQ(topk->attribute("axis")->i(), 1);
  ASSERT_TRUE(g.producer(y));
  EXPECT_EQ(g.producer(y)->input(0), values.name());
  auto branch = g.subgraph("branch");
  EXPECT_FALSE(branch.producer(y));  // a value of the outer graph
  ASSERT_EQ(g.node_count(), 3u);     // the Constant, TopK, Relu
  EXPECT_EQ(g.node(0).op_type(), "Constant");
  EXPECT_EQ(g.node(2).describe(), g.producer(y)->describe());
}

// A custom domain whose schemas the user declares: checked and shape-inferred like others.
void infer_axpb(onnx::InferenceContext& ctx) {
  onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
  if (onnx::hasInputShape(ctx, 0)) onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
}
inline constexpr rx::attribute_schema axpb_attributes[] = {{"alpha", rx::attr_type::float_, true}};
inline constexpr rx::op_schema test_ops[] = {
    {.domain = "test.retarget",
     .name = "AXPB",
     .since_version = 2,
     .min_inputs = 2,
     .max_inputs = 2,
     .attributes = axpb_attributes,
     .infer = &infer_axpb},
};
using test_graph = rx::basic_graph<rx::schemas<test_ops>>;

TEST(OnnxGraph, CustomDomainOpsAreCheckedInferredAndImported) {
  test_graph g;
  auto a = g.input("a", dtype::f32, {4, "n"});
  auto b = g.input("b", dtype::f32, {4, "n"});
  auto y = g.op("test.retarget::AXPB", a, b, "alpha"_f = 2.0f);
  EXPECT_EQ(y.shape(), (std::vector<rx::dim>{4, "n"}));
  EXPECT_EQ(g.domain_version("test.retarget"), 2);

  EXPECT_NE(error_of([&] {
              g.op(retarget::runtime_op("test.retarget::AXPB"), a, b);
            }).find("missing required attribute 'alpha'"),
            std::string::npos);

  g.output(y);
  auto m = rx::make_model(std::move(g));
  EXPECT_EQ(m.opset("test.retarget"), 2);
  EXPECT_EQ(m.opset(""), 17);
  EXPECT_NO_THROW(m.check());
}

// The op name as a template argument, as code that is itself templated on an op has it.
template <retarget::fixed_string Op>
rx::value over_last_axis(rx::graph& g, const rx::value& x) {
  return g.op<Op>(x, "axis"_i = -1);
}

TEST(OnnxGraph, OpNamesCanBeTemplateArguments) {
  rx::graph g;
  auto x = g.input("x", dtype::f32, {2, 10});
  auto soft = over_last_axis<"Softmax">(g, x);
  auto log_soft = over_last_axis<"LogSoftmax">(g, soft);
  EXPECT_EQ(log_soft.static_shape(), (std::vector<std::int64_t>{2, 10}));
  auto [values, indices] =
      g.op<"TopK", 2>(x, g.constant(rx::tensor::vector<std::int64_t>({3})), "axis"_i = 1);
  EXPECT_EQ(values.static_shape(), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(indices.dtype(), dtype::i64);
  ASSERT_EQ(g.node_count(), 4u);  // Softmax, LogSoftmax, TopK's k, TopK
  EXPECT_EQ(g.proto().node(0).op_type(), "Softmax");
  EXPECT_EQ(g.proto().node(1).op_type(), "LogSoftmax");
  EXPECT_EQ(g.proto().node(3).op_type(), "TopK");
  EXPECT_EQ(g.proto().node(1).attribute(0).name(), "axis");
  EXPECT_EQ(g.proto().node(1).attribute(0).i(), -1);

  // Through a view with custom schemas too.
  auto y = rx::graph_view<rx::schemas<test_ops>>(g).op<"test.retarget::AXPB">(x, x, "alpha"_f = 2);
  EXPECT_EQ(y.static_shape(), (std::vector<std::int64_t>{2, 10}));
  EXPECT_EQ(g.proto().node(4).domain(), "test.retarget");
  EXPECT_EQ(g.proto().node(4).op_type(), "AXPB");
}

TEST(OnnxGraph, DomainVersionCanBeSet) {
  test_graph g;
  g.set_domain_version("test.retarget", 5);
  auto a = g.input("a", dtype::f32, {1});
  g.output(g.op("test.retarget::AXPB", a, a, "alpha"_f = 1));
  EXPECT_EQ(rx::make_model(std::move(g)).opset("test.retarget"), 5);
}

TEST(OnnxGraph, SubgraphAttributesSeeOuterValues) {
  rx::graph g(13);
  auto x = g.input("x", dtype::f32, {2, 2});
  auto flag = g.input("flag", dtype::boolean, {});
  auto then_branch = g.subgraph("then");
  then_branch.output(then_branch.op("Relu", x));
  auto else_branch = g.subgraph("else");
  else_branch.output(else_branch.op("Neg", x));
  auto y = g.op("If", flag, "then_branch"_g = then_branch, "else_branch"_g = else_branch);
  EXPECT_EQ(y.dtype(), dtype::f32);
  EXPECT_EQ(y.static_shape(), (std::vector<std::int64_t>{2, 2}));
  g.output(y, "y");
  auto m = rx::make_model(std::move(g));
  EXPECT_EQ(m.graph().node(0).attribute(0).g().node(0).op_type(), "Relu");
  EXPECT_NO_THROW(m.check());
}

TEST(OnnxGraph, OpsDefinedByFunctionsAreInferredThroughTheirBodies) {
  rx::graph g(13);
  auto x = g.input("x", dtype::f32, {2, 3, 4, 4});
  EXPECT_EQ(g.op("MeanVarianceNormalization", x).static_shape(),
            (std::vector<std::int64_t>{2, 3, 4, 4}));
  EXPECT_EQ(g.op("GreaterOrEqual", x, x).dtype(), dtype::boolean);
}

TEST(OnnxGraph, DomainsUsedOnlyInSubgraphsAreImported) {
  rx::graph g(17);
  auto flag = g.input("flag", dtype::boolean, {});
  auto keys = g.input("keys", dtype::string, {2});
  auto then_branch = g.subgraph("then");
  then_branch.output(then_branch.op("ai.onnx.ml::LabelEncoder", keys, "keys_strings"_s = {"a", "b"},
                                    "values_int64s"_i = {1, 2}));
  auto else_branch = g.subgraph("else");
  else_branch.output(else_branch.op("ai.onnx.ml::LabelEncoder", keys, "keys_strings"_s = {"a", "b"},
                                    "values_int64s"_i = {2, 1}));
  auto y = g.op("If", flag, "then_branch"_g = then_branch, "else_branch"_g = else_branch);
  EXPECT_EQ(y.dtype(), dtype::i64);
  g.output(y, "y");
  auto m = rx::make_model(std::move(g));
  EXPECT_TRUE(m.opset("ai.onnx.ml").has_value());
  EXPECT_NO_THROW(m.check());
  // The branches are emitted as they were built: inference added nothing to them.
  EXPECT_EQ(m.graph().node(0).attribute(0).g().value_info_size(), 0);
}

TEST(OnnxGraph, RuntimeNamesAreCheckedAtEmission) {
  rx::graph g(17);
  auto x = g.input("x", dtype::f32, {1, 3, 8, 8});
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Resise"), x); }),
            "retarget: Resise (opset 17): unknown op (closest: Resize, Less, Reshape)");
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Resize"), x, "mdoe"_s = "cubic"); }),
            "retarget: Resize (opset 17): unknown attribute 'mdoe' (closest: mode, nearest_mode, "
            "cubic_coeff_a)");
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Resize"), x, "mode"_f = 1); }),
            "retarget: Resize (opset 17): attribute 'mode' is FLOAT, the schema wants STRING");
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Cast"), x); }),
            "retarget: Cast (opset 17): missing required attribute 'to'");
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Conv"), x); }),
            "retarget: Conv (opset 17): 1 inputs given, the schema takes 2 to 3");
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Relu"), x, x); }),
            "retarget: Relu (opset 17): 2 inputs given, the schema takes 1");
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("custom::Op"), x); }),
            "retarget: custom domain 'custom' has no declared version: declare its schemas or call "
            "set_domain_version");
  // A rejected node leaves the graph as it was.
  EXPECT_EQ(g.node_count(), 0u);
  EXPECT_EQ(g.op("Relu", x).name(), "Relu_0");
}

TEST(OnnxGraph, OpsNewerThanTheOpsetAreRefused) {
  rx::graph g(13);
  auto x = g.input("x", dtype::f32, {2, 4});
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("LayerNormalization"), x); }),
            "retarget: LayerNormalization (opset 13): the op first appears in opset 17");
}

TEST(OnnxGraph, ShapeInferenceFailuresAreErrors) {
  rx::graph g;
  auto a = g.input("a", dtype::f32, {2, 3});
  auto b = g.input("b", dtype::f32, {4, 5});
  EXPECT_NE(
      error_of([&] { g.op("MatMul", a, b); }).find("MatMul (opset 17): shape inference failed"),
      std::string::npos);
}

TEST(OnnxGraph, ValuesNamesAndOpsetAreChecked) {
  rx::graph g, other;
  auto x = g.input("x", dtype::f32, {1});
  auto foreign = other.input("y", dtype::f32, {1});
  EXPECT_EQ(error_of([&] { g.op("Add", x, foreign); }),
            "retarget: Add input 'y' is a value of another graph");
  EXPECT_EQ(error_of([&] { g.input("x", dtype::f32, {1}); }),
            "retarget: duplicate value name 'x' for a graph input");
  EXPECT_EQ(error_of([] { rx::graph bad(18); }),
            "retarget: opset 18 is out of range: retarget emits opsets 1 to 17");
  EXPECT_EQ(error_of([] { rx::graph bad(0); }),
            "retarget: opset 0 is out of range: retarget emits opsets 1 to 17");
}

TEST(OnnxGraph, RuntimeNodeSpecsKeepTheirNames) {
  rx::graph g(17);
  auto x = g.input("x", dtype::f32, {3});
  rx::node_spec spec;
  spec.op_type = "LeakyRelu";
  spec.inputs = {x};
  onnx::AttributeProto alpha;
  alpha.set_name("alpha");
  alpha.set_type(onnx::AttributeProto::FLOAT);
  alpha.set_f(0.1f);
  spec.attributes = {alpha};
  spec.outputs = {"activated"};
  spec.name = "leaky";
  const auto outs = g.emit(spec);
  EXPECT_EQ(outs.at(0).name(), "activated");
  EXPECT_EQ(g.proto().node(0).name(), "leaky");
  EXPECT_EQ(g.find("activated"), outs[0]);
}

TEST(OnnxGraph, AnInputGivenOutUnderAnotherNameGoesThroughIdentity) {
  rx::graph g;
  auto x = g.input("x", dtype::f32, {2});
  g.output(x, "y");
  ASSERT_EQ(g.node_count(), 1u);
  EXPECT_EQ(g.proto().node(0).op_type(), "Identity");
  EXPECT_EQ(g.proto().node(0).output(0), "y");
  EXPECT_EQ(g.proto().output(0).name(), "y");
  EXPECT_NO_THROW(rx::make_model(std::move(g)).check());
}

TEST(OnnxModel, RecordsProducerMetadataAndIrVersion) {
  rx::graph g(11);
  auto x = g.input("x", dtype::f32, {1});
  g.output(g.op("Relu", x), "y");
  auto m =
      rx::make_model(std::move(g), {.metadata = {{"backend", "tensorrt"}, {"rewrites", "repeat"}}});
  EXPECT_EQ(m.proto().producer_name(), "retarget");
  EXPECT_EQ(m.proto().ir_version(), 6);
  EXPECT_EQ(m.metadata("backend"), "tensorrt");
  EXPECT_EQ(m.metadata("missing"), std::nullopt);
  EXPECT_NO_THROW(m.check());
}

TEST(OnnxModel, CheckReportsAnInvalidModel) {
  rx::graph g;
  auto x = g.input("x", dtype::f32, {1});
  g.output(g.op("Relu", x), "y");
  auto m = rx::make_model(std::move(g));
  m.proto().mutable_graph()->mutable_node(0)->set_input(0, "nowhere");
  EXPECT_NE(error_of([&] { m.check(); }).find("retarget: model check failed"), std::string::npos);
}

}  // namespace
