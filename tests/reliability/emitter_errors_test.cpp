// Bad input to the emitter, through both run-time paths (g.op with runtime_op, and node_spec
// as a converter reading nodes from a file builds them): each error names the op, the opset and
// what was wrong, and a refused node leaves the graph as it was.
#include <gtest/gtest.h>

#include <retarget/ir.hpp>

#include "reliability/common.hpp"

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;
using reliability::error_of;

onnx::AttributeProto attribute(const char* name, onnx::AttributeProto::AttributeType type) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(type);
  return a;
}

class EmitterErrors : public ::testing::Test {
 protected:
  // Every test ends by checking that the refused nodes left nothing behind.
  void TearDown() override {
    EXPECT_EQ(g.node_count(), nodes_before);
    EXPECT_EQ(g.op("Relu", x).name(), "Relu_" + std::to_string(nodes_numbered));
  }
  rx::node_spec spec(std::string op, std::vector<rx::value> inputs) {
    rx::node_spec s;
    s.op_type = std::move(op);
    s.inputs = std::move(inputs);
    return s;
  }

  rx::graph g{17};
  rx::value x = g.input("x", rx::dtype::f32, {1, 3, 8, 8});
  std::size_t nodes_before = 0;    // nodes of g that a test added and kept
  std::size_t nodes_numbered = 0;  // nodes numbered so far, in g and its subgraphs
};

TEST_F(EmitterErrors, UnknownOp) {
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Resise"), x); }),
            "retarget: Resise (opset 17): unknown op (closest: Resize, Less, Reshape)");
  EXPECT_EQ(error_of([&] { g.emit(spec("Convv", {x})); }),
            "retarget: Convv (opset 17): unknown op (closest: Conv, Concat, Cos)");
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("ai.onnx.ml::Scalar"), x); }),
            "retarget: ai.onnx.ml::Scalar (ai.onnx.ml opset 3): unknown op (closest: Scaler, "
            "CastMap, ZipMap)");
  EXPECT_EQ(error_of([&] { g.emit(spec("", {x})); }), "retarget: a node needs an op type");
}

TEST_F(EmitterErrors, OpOutsideTheOpset) {
  rx::graph old(13);
  auto y = old.input("y", rx::dtype::f32, {2, 4});
  EXPECT_EQ(error_of([&] { old.op(retarget::runtime_op("LayerNormalization"), y); }),
            "retarget: LayerNormalization (opset 13): the op first appears in opset 17");
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Upsample"), x); }),
            "retarget: Upsample (opset 17): the op is deprecated at this opset");
}

TEST_F(EmitterErrors, UnknownAttribute) {
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Resize"), x, "mdoe"_s = "cubic"); }),
            "retarget: Resize (opset 17): unknown attribute 'mdoe' (closest: mode, nearest_mode, "
            "cubic_coeff_a)");
  auto s = spec("LeakyRelu", {x});
  s.attributes = {attribute("beta", onnx::AttributeProto::FLOAT)};
  EXPECT_EQ(error_of([&] { g.emit(s); }),
            "retarget: LeakyRelu (opset 17): unknown attribute 'beta' (closest: alpha)");
}

TEST_F(EmitterErrors, MistypedAttribute) {
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Resize"), x, "mode"_f = 1); }),
            "retarget: Resize (opset 17): attribute 'mode' is FLOAT, the schema wants STRING");
  auto s = spec("LeakyRelu", {x});
  s.attributes = {attribute("alpha", onnx::AttributeProto::INTS)};
  EXPECT_EQ(error_of([&] { g.emit(s); }),
            "retarget: LeakyRelu (opset 17): attribute 'alpha' is INTS, the schema wants FLOAT");
  s.attributes = {attribute("alpha", onnx::AttributeProto::UNDEFINED)};
  EXPECT_EQ(
      error_of([&] { g.emit(s); }),
      "retarget: LeakyRelu (opset 17): attribute 'alpha' is UNDEFINED, the schema wants FLOAT");
  auto alpha = attribute("alpha", onnx::AttributeProto::FLOAT);
  alpha.set_f(0.1f);
  s.attributes = {alpha, alpha};
  EXPECT_EQ(error_of([&] { g.emit(s); }),
            "retarget: LeakyRelu (opset 17): Attribute 'alpha' appeared multiple times.");
}

// A string literal is checked by the compiler ("mode"_s = "cubc" does not compile); a value
// known at run time, or one read from a file, is checked at emission against the op's values
// at the graph's opset.
TEST_F(EmitterErrors, EnumeratedAttributeValues) {
  const auto scales = g.constant(rx::tensor::of<float>({1, 1, 2, 2}, {4}));
  nodes_before = nodes_numbered = 1;
  const std::string typo = "cubc";
  EXPECT_EQ(error_of([&] { g.op("Resize", x, rx::no_input, scales, "mode"_s = typo); }),
            "retarget: Resize (opset 17): attribute 'mode' = 'cubc' is not a value the op takes "
            "(closest: cubic, linear, nearest)");
  // Pad's mode, not Resize's: the compiler lets it through, emission does not.
  EXPECT_EQ(error_of([&] { g.op("Resize", x, rx::no_input, scales, "mode"_s = "reflect"); }),
            "retarget: Resize (opset 17): attribute 'mode' = 'reflect' is not a value the op "
            "takes (closest: nearest, linear, cubic)");
  auto conv = spec("Conv", {x, x});
  auto same = attribute("auto_pad", onnx::AttributeProto::STRING);
  same.set_s("SAME");
  conv.attributes = {same};
  EXPECT_EQ(error_of([&] { g.emit(conv); }),
            "retarget: Conv (opset 17): attribute 'auto_pad' = 'SAME' is not a value the op "
            "takes (closest: VALID, NOTSET, SAME_UPPER)");
  const std::vector<std::string> activations{"Sigmoid", "Tahn", "Tanh"};
  EXPECT_EQ(error_of([&] { g.op<3>("LSTM", x, x, x, "activations"_s = activations); }),
            "retarget: LSTM (opset 17): attribute 'activations'[1] = 'Tahn' is not a value the "
            "op takes (closest: Tanh, Relu, Elu)");
  EXPECT_EQ(error_of([&] { g.op("ScatterND", x, x, x, "reduction"_s = "max"); }),
            "retarget: ScatterND (opset 17): attribute 'reduction' = 'max' is a value the op takes "
            "only since opset 18 (closest: mul, add, none)");
}

TEST_F(EmitterErrors, EnumeratedAttributeValuesOfAnotherOpset) {
  rx::graph g13(13), g10(10);
  auto y = g13.input("y", rx::dtype::f32, {1, 3, 8, 8});
  EXPECT_EQ(error_of([&] {
              g13.op("Resize", y, rx::no_input, y,
                     "coordinate_transformation_mode"_s = "tf_half_pixel_for_nn");
            }),
            "retarget: Resize (opset 13): attribute 'coordinate_transformation_mode' = "
            "'tf_half_pixel_for_nn' is a value the op takes only in opsets 11 to 12 (closest: "
            "half_pixel, pytorch_half_pixel, align_corners)");
  auto z = g10.input("z", rx::dtype::f32, {1, 3, 8, 8});
  EXPECT_EQ(error_of([&] { g10.op("Resize", z, z, "mode"_s = "cubic"); }),
            "retarget: Resize (opset 10): attribute 'mode' = 'cubic' is a value the op takes only "
            "since opset 11 (closest: linear, nearest)");
  EXPECT_EQ(g13.node_count() + g10.node_count(), 0u);
}

// An attribute that a later opset made an input: the error says which input, and since when.
TEST(EmitterAttributesMadeInputs, TheErrorNamesTheInput) {
  const auto error_at = [](int opset, const char* op, onnx::AttributeProto a) {
    rx::graph g(opset);
    rx::node_spec s;
    s.op_type = op;
    s.inputs = {g.input("x", rx::dtype::f32, {1, 3, 8, 8})};
    s.attributes = {std::move(a)};
    auto message = error_of([&] { g.emit(s); });
    EXPECT_EQ(g.node_count(), 0u);
    return message;
  };
  const auto ints = [](const char* name) { return attribute(name, onnx::AttributeProto::INTS); };
  const auto floats = [](const char* name) {
    return attribute(name, onnx::AttributeProto::FLOATS);
  };
  const auto one_float = [](const char* name) {
    return attribute(name, onnx::AttributeProto::FLOAT);
  };
  EXPECT_EQ(error_at(13, "Squeeze", ints("axes")),
            "retarget: Squeeze (opset 13): unknown attribute 'axes': Squeeze takes axes as its "
            "second input since opset 13");
  EXPECT_EQ(error_at(17, "Unsqueeze", ints("axes")),
            "retarget: Unsqueeze (opset 17): unknown attribute 'axes': Unsqueeze takes axes as its "
            "second input since opset 13");
  EXPECT_EQ(error_at(13, "Split", ints("split")),
            "retarget: Split (opset 13): unknown attribute 'split': Split takes split as its "
            "second input since opset 13");
  EXPECT_EQ(error_at(13, "ReduceSum", ints("axes")),
            "retarget: ReduceSum (opset 13): unknown attribute 'axes': ReduceSum takes axes as its "
            "second input since opset 13");
  EXPECT_EQ(error_at(11, "Pad", ints("pads")),
            "retarget: Pad (opset 11): unknown attribute 'pads': Pad takes pads as its second "
            "input since opset 11");
  EXPECT_EQ(error_at(11, "Pad", one_float("value")),
            "retarget: Pad (opset 11): unknown attribute 'value': Pad takes value as its third "
            "input 'constant_value' since opset 11");
  EXPECT_EQ(error_at(11, "Clip", one_float("min")),
            "retarget: Clip (opset 11): unknown attribute 'min': Clip takes min as its second "
            "input since opset 11");
  EXPECT_EQ(error_at(12, "Clip", one_float("max")),
            "retarget: Clip (opset 12): unknown attribute 'max': Clip takes max as its third "
            "input since opset 11");
  EXPECT_EQ(error_at(10, "Slice", ints("starts")),
            "retarget: Slice (opset 10): unknown attribute 'starts': Slice takes starts as its "
            "second input since opset 10");
  EXPECT_EQ(error_at(17, "Slice", ints("steps")),
            "retarget: Slice (opset 17): unknown attribute 'steps': Slice takes steps as its "
            "fifth input since opset 10");
  EXPECT_EQ(error_at(10, "TopK", attribute("k", onnx::AttributeProto::INT)),
            "retarget: TopK (opset 10): unknown attribute 'k': TopK takes k as its second input "
            "'K' since opset 10");
  EXPECT_EQ(error_at(9, "Upsample", floats("scales")),
            "retarget: Upsample (opset 9): unknown attribute 'scales': Upsample takes scales as "
            "its second input since opset 9");
  EXPECT_EQ(error_at(12, "Dropout", one_float("ratio")),
            "retarget: Dropout (opset 12): unknown attribute 'ratio': Dropout takes ratio as its "
            "second input since opset 12");
  // Resize never had scales as an attribute: its third input from opset 11, second in 10.
  EXPECT_EQ(error_at(11, "Resize", floats("scales")),
            "retarget: Resize (opset 11): unknown attribute 'scales': Resize takes scales as its "
            "third input since opset 11");
  EXPECT_EQ(error_at(10, "Resize", floats("scales")),
            "retarget: Resize (opset 10): unknown attribute 'scales': Resize takes scales as its "
            "second input in opset 10");
  // Where the attribute had no closest names, the error used to end in "(closest: )".
  EXPECT_EQ(error_at(17, "Resize", floats("sizes")).find("closest"), std::string::npos);
}

// Before the opset that made it an input, the attribute is still one.
TEST(EmitterAttributesMadeInputs, BeforeThatOpsetTheAttributeIsTaken) {
  rx::graph g(10);
  auto x = g.input("x", rx::dtype::f32, {1, 3, 1, 8});
  EXPECT_EQ(g.op("Squeeze", x, "axes"_i = {2}).static_shape(),
            (std::vector<std::int64_t>{1, 3, 8}));
  EXPECT_EQ(g.op("Pad", x, "pads"_i = {0, 0, 0, 0, 0, 0, 0, 0}, "mode"_s = "edge").static_shape(),
            (std::vector<std::int64_t>{1, 3, 1, 8}));
}

TEST_F(EmitterErrors, MissingRequiredAttribute) {
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Cast"), x); }),
            "retarget: Cast (opset 17): missing required attribute 'to'");
  EXPECT_EQ(error_of([&] { g.emit(spec("Cast", {x})); }),
            "retarget: Cast (opset 17): missing required attribute 'to'");
}

TEST_F(EmitterErrors, WrongInputOrOutputCount) {
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Conv"), x); }),
            "retarget: Conv (opset 17): 1 inputs given, the schema takes 2 to 3");
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("Relu"), x, x); }),
            "retarget: Relu (opset 17): 2 inputs given, the schema takes 1");
  EXPECT_EQ(error_of([&] { g.emit(spec("Concat", {})); }),
            "retarget: Concat (opset 17): missing required attribute 'axis'");
  auto concat = spec("Concat", {});
  concat.attributes = {attribute("axis", onnx::AttributeProto::INT)};
  EXPECT_EQ(error_of([&] { g.emit(concat); }),
            "retarget: Concat (opset 17): 0 inputs given, the schema takes 1 or more");
  auto relu = spec("Relu", {x});
  relu.output_count = 2;
  EXPECT_EQ(error_of([&] { g.emit(relu); }),
            "retarget: Relu (opset 17): 2 outputs asked for, the schema gives 1");
}

TEST_F(EmitterErrors, ValueFromAnotherGraphOrEmpty) {
  rx::graph other;
  auto foreign = other.input("y", rx::dtype::f32, {1, 3, 8, 8});
  EXPECT_EQ(error_of([&] { g.op("Add", x, foreign); }),
            "retarget: Add input 'y' is a value of another graph");
  EXPECT_EQ(error_of([&] {
              g.emit(spec("Add", {x, foreign}));
            }),
            "retarget: Add input 'y' is a value of another graph");
  EXPECT_EQ(error_of([&] { g.output(foreign, "out"); }),
            "retarget: output 'y' is a value of another graph");
  EXPECT_EQ(error_of([&] { g.op("Relu", rx::value{}); }), "retarget: Relu input is an empty value");
  // A subgraph may read its parent's values, never the other way round.
  auto branch = g.subgraph("then");
  auto inner = branch.op("Relu", x);
  EXPECT_EQ(error_of([&] { g.op("Relu", inner); }),
            "retarget: Relu input 'Relu_0' is a value of another graph");
  nodes_numbered = 1;  // the subgraph's Relu is numbered with g's nodes
}

TEST_F(EmitterErrors, DuplicateValueNames) {
  EXPECT_EQ(error_of([&] { g.input("x", rx::dtype::f32, {1}); }),
            "retarget: duplicate value name 'x' for a graph input");
  EXPECT_EQ(error_of([&] { g.initializer("x", rx::tensor::scalar(1.0f)); }),
            "retarget: duplicate value name 'x' for an initializer");
  auto s = spec("Relu", {x});
  s.outputs = {"x"};
  EXPECT_EQ(error_of([&] { g.emit(s); }),
            "retarget: duplicate value name 'x' for an output of Relu");
  auto topk =
      spec("TopK", {x, g.initializer("k", rx::tensor::of(std::vector<std::int64_t>{2}, {1}))});
  topk.outputs = {"best", "best"};
  EXPECT_EQ(error_of([&] { g.emit(topk); }),
            "retarget: duplicate value name 'best' for an output of TopK");
  EXPECT_EQ(error_of([&] { g.input("", rx::dtype::f32, {1}); }),
            "retarget: a graph input needs a name");
}

TEST_F(EmitterErrors, DuplicateOrTakenGraphOutputNames) {
  auto y = g.op("Relu", x);
  g.output(y, "y");
  EXPECT_EQ(error_of([&] { g.output(y, "y"); }), "retarget: graph output name 'y' is used twice");
  EXPECT_EQ(error_of([&] { g.output(x, "Relu_0"); }),
            "retarget: graph output name 'Relu_0' is already the name of another value");
  nodes_before = nodes_numbered = 1;
}

TEST_F(EmitterErrors, InputTypesThatDoNotFitTheOp) {
  auto i = g.input("i", rx::dtype::i64, {1, 3, 8, 8});
  auto s = g.input("s", rx::dtype::string, {1, 3, 8, 8});
  // Mul's A and B are both T: float32 times int64 is refused when emitted, not when loaded.
  EXPECT_EQ(error_of([&] { g.op("Mul", x, i); }),
            "retarget: Mul (opset 17): input types do not fit the op: B has inconsistent type "
            "tensor(int64) (inputs: x float32 [1, 3, 8, 8], i int64 [1, 3, 8, 8])");
  EXPECT_EQ(
      error_of([&] { g.emit(spec("Relu", {s})); }),
      "retarget: Relu (opset 17): input types do not fit the op: X typestr: T, has unsupported "
      "type: tensor(string) (inputs: s string [1, 3, 8, 8])");
}

TEST_F(EmitterErrors, OpsetOutOfRange) {
  EXPECT_EQ(error_of([] { rx::graph bad(18); }),
            "retarget: opset 18 is out of range: retarget emits opsets 1 to 17");
  EXPECT_EQ(error_of([] { rx::graph bad(0); }),
            "retarget: opset 0 is out of range: retarget emits opsets 1 to 17");
  EXPECT_EQ(error_of([&] { g.set_domain_version("custom", 0); }),
            "retarget: domain 'custom' version 0 is out of range: versions start at 1");
  EXPECT_EQ(error_of([&] { g.set_domain_version("", 16); }),
            "retarget: the standard domain's version is the graph's opset, fixed at construction");
}

TEST_F(EmitterErrors, CustomDomainWithoutDeclaredVersion) {
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("custom::Op"), x); }),
            "retarget: custom domain 'custom' has no declared version: declare its schemas or call "
            "set_domain_version");
  auto s = spec("Op", {x});
  s.domain = "com.example";
  EXPECT_EQ(
      error_of([&] { g.emit(s); }),
      "retarget: custom domain 'com.example' has no declared version: declare its schemas or call "
      "set_domain_version");
  // With a version but no schemas, the op is still unknown, and the message says why.
  g.set_domain_version("com.example", 1);
  EXPECT_EQ(error_of([&] { g.emit(s); }),
            "retarget: com.example::Op (com.example opset 1): unknown op (the domain has no "
            "declared schemas)");
}

// A shape function runs while its thread reads ONNX's schema registry; adding a schema then
// would wait for itself.
void registers_a_schema(onnx::InferenceContext&) {
  static constexpr rx::op_schema late[] = {{.domain = "com.retarget.late", .name = "Late"}};
  rx::register_schemas(late);
}

TEST_F(EmitterErrors, RegisteringASchemaFromAShapeFunction) {
  static constexpr rx::op_schema reentrant[] = {
      {.domain = "com.retarget.reentrant", .name = "Reentrant", .infer = &registers_a_schema}};
  rx::register_schemas(reentrant);
  g.set_domain_version("com.retarget.reentrant", 1);
  EXPECT_EQ(error_of([&] { g.op(retarget::runtime_op("com.retarget.reentrant::Reentrant"), x); }),
            "retarget: com.retarget.reentrant::Reentrant (com.retarget.reentrant opset 1): shape "
            "inference "
            "failed: retarget: register_schemas called while this thread reads the schema registry "
            "(from a "
            "shape function?); register schemas before emitting (inputs: x float32 [1, 3, 8, 8])");
}

TEST_F(EmitterErrors, ShapesThatDoNotFitShowTheInputs) {
  auto f = g.input("f", rx::dtype::f32, {2});
  EXPECT_EQ(error_of([&] { g.op("Add", x, f); }),
            "retarget: Add (opset 17): shape inference failed: [ShapeInferenceError] Incompatible "
            "dimensions "
            "(inputs: x float32 [1, 3, 8, 8], f float32 [2])");
  auto w = g.initializer("w", rx::tensor::of(std::vector<float>(12), {4, 3}));
  EXPECT_EQ(error_of([&] { g.op("MatMul", w, w); }),
            "retarget: MatMul (opset 17): shape inference failed: [ShapeInferenceError] "
            "Incompatible dimensions for "
            "matrix multiplication (inputs: w float32 [4, 3], w float32 [4, 3])");
}

// Found by fuzz_emitter: ONNX's own inference for LSTM-1 reads dims it never checked and crashed.
TEST(EmitterRanks, RecurrentOpsOfTheWrongRankAreRefusedNotCrashed) {
  rx::graph g(1);
  auto x = g.input("x", rx::dtype::f16, {});
  auto w = g.input("w", rx::dtype::f16, {1, 16, 4});
  rx::node_spec lstm;
  lstm.op_type = "LSTM";
  lstm.inputs = {x, w, w};
  lstm.output_count = 3;
  EXPECT_EQ(error_of([&] { g.emit(lstm); }),
            "retarget: LSTM (opset 1): input 0 'x' has rank 0, the op takes rank 3");
}

// Found by fuzz_load_model: ONNX's inference for convolutions and pooling divides by each stride.
TEST(EmitterRanks, AStrideOfZeroIsRefusedNotCrashed) {
  rx::graph g(6);
  auto x = g.input("x", rx::dtype::f32, {2, 3, 6, 1});
  EXPECT_EQ(error_of([&] {
              g.op("AveragePool", x, "kernel_shape"_i = {2, 1}, "strides"_i = {0, 1});
            }),
            "retarget: AveragePool (opset 6): attribute 'strides'[0] is 0: a stride is at least 1");
  EXPECT_EQ(error_of([&] {
              g.op("MaxPool", x, "kernel_shape"_i = {2, 1}, "strides"_i = {1, -2});
            }),
            "retarget: MaxPool (opset 6): attribute 'strides'[1] is -2: a stride is at least 1");
  EXPECT_EQ(g.node_count(), 0u);
}

}  // namespace

namespace {

// Found by fuzz_emitter in a fresh checkout's smoke run: ONNX's ConvTranspose inference reads
// the weight's dims by the data's rank and crashed on a weight of rank 2 for data of rank 3.
TEST(EmitterRanks, ConvolutionWeightsOfAnotherRankThanTheDataAreRefused) {
  rx::graph g(11);
  auto x = g.input("X", rx::dtype::f32, {1, 1, 3});
  auto w = g.input("W", rx::dtype::f32, {1, 3});
  for (const char* op : {"ConvTranspose", "Conv"}) {
    rx::node_spec conv;
    conv.op_type = op;
    conv.inputs = {x, w};
    EXPECT_EQ(error_of([&] { g.emit(conv); }),
              "retarget: " + std::string(op) +
                  " (opset 11): input 1 'W' has rank 2, the op takes rank 3 (that of input 0 'X')");
  }
  EXPECT_EQ(g.node_count(), 0u);
}

}  // namespace
