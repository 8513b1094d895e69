// Inputs for comparing engines (retarget/ir/sample_inputs.hpp) and the element-wise
// difference against a reference (ir::difference): seeded tensors that depend on the seed and
// the input's name only, the dims of dynamic inputs, the errors that name the input and the
// dim, and the tolerance rule with NaN and infinities.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <string>
#include <vector>

#include "reliability/common.hpp"

namespace {

namespace rx = retarget::ir;

// A model of one Add, its inputs as given: (name, elem type, dims; a negative dim is "batch").
rx::model model_with_inputs(std::vector<std::tuple<std::string, int, rx::dims_t>> inputs) {
  onnx::ModelProto m;
  auto* g = m.mutable_graph();
  for (const auto& [name, type, dims] : inputs) {
    auto* v = g->add_input();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(type);
    auto* shape = v->mutable_type()->mutable_tensor_type()->mutable_shape();
    for (auto d : dims)
      d < 0 ? shape->add_dim()->set_dim_param("batch") : shape->add_dim()->set_dim_value(d);
  }
  auto* w = g->add_initializer();  // a weight is no input to give
  w->set_name("w");
  w->set_data_type(onnx::TensorProto::FLOAT);
  *g->add_input() = g->input(0);
  g->mutable_input(g->input_size() - 1)->set_name("w");
  return rx::model(std::move(m));
}

using reliability::error_of;

rx::tensor floats(std::vector<float> v, rx::dims_t dims) { return rx::tensor::of<float>(v, dims); }

}  // namespace

TEST(SampleInputs, InputsOfLeaveWeightsOut) {
  const auto m = model_with_inputs({{"x", onnx::TensorProto::FLOAT, {1, 3}}});
  const auto inputs = rx::inputs_of(m);
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_EQ(inputs[0].name, "x");
  EXPECT_EQ(inputs[0].type, rx::dtype::f32);
}

TEST(SampleInputs, AnInputsShapeIsReadAsDims) {
  auto m = model_with_inputs({{"x", onnx::TensorProto::FLOAT, {-1, 3, 4}}});
  // An axis of neither value nor name, and an input that declares no shape.
  auto& g = *m.proto().mutable_graph();
  g.mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim();
  auto* scalar = g.add_input();
  scalar->set_name("s");
  scalar->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  const auto inputs = rx::inputs_of(m);
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[0].shape, (std::vector<rx::dim>{"batch", 3, 4, rx::dim{}}));
  EXPECT_EQ(rx::to_string(inputs[0].shape), "[batch, 3, 4, ?]");
  EXPECT_TRUE(inputs[1].shape.empty());
  EXPECT_EQ(rx::concrete_dims(inputs[1], std::nullopt), rx::dims_t{});
}

TEST(SampleInputs, SameSeedSameNumbersAndEachInputItsOwn) {
  const auto m = model_with_inputs(
      {{"a", onnx::TensorProto::FLOAT, {2, 50}}, {"b", onnx::TensorProto::FLOAT, {2, 50}}});
  const auto one = rx::sample_inputs(m, {}, 3), two = rx::sample_inputs(m, {}, 3),
             other = rx::sample_inputs(m, {}, 4);
  EXPECT_EQ(one.at("a").proto().raw_data(), two.at("a").proto().raw_data());
  EXPECT_NE(one.at("a").proto().raw_data(), other.at("a").proto().raw_data());
  EXPECT_NE(one.at("a").proto().raw_data(), one.at("b").proto().raw_data());
  // Floats in [-1, 1), spread over it.
  const auto v = rx::values_as_double(one.at("a"));
  EXPECT_GE(*std::min_element(v.begin(), v.end()), -1.0);
  EXPECT_LT(*std::max_element(v.begin(), v.end()), 1.0);
  EXPECT_LT(*std::min_element(v.begin(), v.end()), -0.5);
  EXPECT_GT(*std::max_element(v.begin(), v.end()), 0.5);
}

TEST(SampleInputs, IntegersAndBoolsByTheirType) {
  const auto m = model_with_inputs({{"i", onnx::TensorProto::INT64, {100}},
                                    {"b", onnx::TensorProto::BOOL, {100}},
                                    {"u", onnx::TensorProto::UINT8, {100}}});
  const auto in = rx::sample_inputs(m, {}, 0);
  EXPECT_EQ(in.at("i").type(), rx::dtype::i64);
  EXPECT_EQ(in.at("b").type(), rx::dtype::boolean);
  for (const auto* name : {"i", "u"}) {
    const auto v = rx::values_as_double(in.at(name));
    EXPECT_EQ(*std::min_element(v.begin(), v.end()), 0.0) << name;
    EXPECT_EQ(*std::max_element(v.begin(), v.end()), 9.0) << name;
  }
  const auto bits = rx::values_as_double(in.at("b"));
  EXPECT_EQ(std::count(bits.begin(), bits.end(), 0.0) + std::count(bits.begin(), bits.end(), 1.0),
            100);
  EXPECT_GT(std::count(bits.begin(), bits.end(), 1.0), 20);
}

TEST(SampleInputs, DynamicDimsFromTheGivenShape) {
  const auto m = model_with_inputs({{"x", onnx::TensorProto::FLOAT, {-1, 3, 4}}});
  EXPECT_EQ(error_of([&] { rx::sample_inputs(m, {}, 0); }),
            "retarget: input 'x' [batch, 3, 4] has a dynamic dim 'batch' at axis 0: give its "
            "shape (--shape x=Nx3x4)");
  EXPECT_EQ(rx::sample_inputs(m, {{"x", {5, 3, 4}}}, 0).at("x").dims(), (rx::dims_t{5, 3, 4}));
  EXPECT_EQ(error_of([&] {
              rx::sample_inputs(m, {{"x", {5, 2, 4}}}, 0);
            }),
            "retarget: input 'x' [batch, 3, 4] cannot take [5, 2, 4]: axis 1 is 3");
  EXPECT_EQ(error_of([&] {
              rx::sample_inputs(m, {{"x", {5, 3}}}, 0);
            }),
            "retarget: input 'x' has rank 3 [batch, 3, 4], not 2 as in [5, 3]");
  EXPECT_EQ(error_of([&] {
              rx::sample_inputs(m, {{"x", {5, 3, 4}}, {"y", {1}}}, 0);
            }),
            "retarget: the model has no input 'y' to give a shape to");
}

// A declared dim of 100000 is legal; generating 112 GiB for it is refused before anything is
// allocated, and so is a shape whose byte count overflows.
TEST(SampleInputs, TooBigToGenerateIsAnError) {
  const auto m = model_with_inputs({{"x", onnx::TensorProto::FLOAT, {1, 3, 100000, 100000}}});
  EXPECT_EQ(error_of([&] { rx::sample_inputs(m, {}, 0); }),
            "retarget: input 'x' float32 [1, 3, 100000, 100000] is 111.8 GiB, more than the 1.0 "
            "GiB retarget generates: give it from a file, or smaller dims");
  const auto n = model_with_inputs({{"x", onnx::TensorProto::INT64, {-1, 4}}});
  EXPECT_EQ(error_of([&] {
              rx::sample_inputs(n, {{"x", {std::int64_t{1} << 62, 4}}}, 0);
            }),
            "retarget: input 'x' int64 [4611686018427387904, 4] is more than 16 EiB, more than "
            "the 1.0 GiB retarget generates: give it from a file, or smaller dims");
  EXPECT_EQ(rx::sample_inputs(n, {{"x", {1024, 4}}}, 0).at("x").dims(), (rx::dims_t{1024, 4}));
}

TEST(SampleInputs, GivenTensorsAreCheckedAndKept) {
  const auto m = model_with_inputs({{"x", onnx::TensorProto::FLOAT, {-1, 2}}});
  const auto given = floats({1, 2, 3, 4}, {2, 2});
  const auto in = rx::sample_inputs(m, {}, 0, {{"x", given}});
  EXPECT_EQ(in.at("x").proto().raw_data(), given.proto().raw_data());
  EXPECT_EQ(error_of([&] {
              rx::sample_inputs(m, {}, 0, {{"x", floats({1, 2, 3}, {1, 3})}});
            }),
            "retarget: input 'x': dims [1, 3], but the model's input 'x' is [batch, 2]");
  EXPECT_EQ(error_of([&] {
              rx::sample_inputs(m, {}, 0, {{"x", rx::tensor::of<double>({1.0, 2.0}, {1, 2})}});
            }),
            "retarget: input 'x': float64, but the model's input 'x' is float32");
}

// An engine's answer in the model's declared form (ir::as_declared): OpenCV gives a 1-D output
// as [N, 1] and integers as float32.
rx::model_output declared(rx::dtype type, std::vector<rx::dim> shape) {
  return {"y", type, std::move(shape)};
}

TEST(AsDeclared, ReshapedWhereTheElementsFit) {
  const auto t = rx::tensor::of<float>({1, 2, 3}, {3, 1});
  EXPECT_EQ(rx::as_declared(declared(rx::dtype::f32, {3}), t).dims(), (rx::dims_t{3}));
  EXPECT_EQ(rx::as_declared(declared(rx::dtype::f32, {"n"}), t).dims(), (rx::dims_t{3}));
  EXPECT_EQ(rx::as_declared(declared(rx::dtype::f32, {1, "n"}), t).dims(), (rx::dims_t{1, 3}));
  // A scalar given as [1].
  EXPECT_EQ(rx::as_declared(declared(rx::dtype::f32, {}), rx::tensor::of<float>({7}, {1})).dims(),
            (rx::dims_t{}));
}

TEST(AsDeclared, LeftAsItIsWhereTheyDoNot) {
  // Not as many elements; a dynamic batch that is not what the axes of 1 say: not guessed at.
  const auto t = rx::tensor::of<float>(std::vector<float>(144, 0.0f), {1, 144});
  EXPECT_EQ(rx::as_declared(declared(rx::dtype::f32, {2, 3}), t).dims(), (rx::dims_t{1, 144}));
  EXPECT_EQ(rx::as_declared(declared(rx::dtype::f32, {"n", 48}), t).dims(), (rx::dims_t{1, 144}));
  EXPECT_EQ(rx::as_declared(declared(rx::dtype::f32, {"a", "b"}), t).dims(), (rx::dims_t{1, 144}));
}

TEST(AsDeclared, IntegersAndBoolsComeBackInTheirType) {
  const auto t = rx::tensor::of<float>({0.0f, 2.9999998f, -4.0f}, {3});
  const auto i = rx::as_declared(declared(rx::dtype::i64, {3}), t);
  ASSERT_EQ(i.type(), rx::dtype::i64);
  EXPECT_EQ(rx::values_of<std::int64_t>(i.proto()), (std::vector<std::int64_t>{0, 3, -4}));
  const auto b = rx::as_declared(declared(rx::dtype::boolean, {3}), t);
  ASSERT_EQ(b.type(), rx::dtype::boolean);
  EXPECT_EQ(rx::values_of<bool>(b.proto()), (std::vector<bool>{false, true, true}));
  // float16 is kept as the engine gave it: its values are not rounded here.
  EXPECT_EQ(rx::as_declared(declared(rx::dtype::f16, {3}), t).type(), rx::dtype::f32);
}

TEST(AsDeclared, OutputsOfReadsTheGraphsOutputs) {
  onnx::ModelProto m;
  auto* y = m.mutable_graph()->add_output();
  y->set_name("y");
  y->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::INT64);
  y->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_param("n");
  const auto outs = rx::outputs_of(rx::model(std::move(m)));
  ASSERT_EQ(outs.size(), 1u);
  EXPECT_EQ(outs[0].name, "y");
  EXPECT_EQ(outs[0].type, rx::dtype::i64);
  EXPECT_EQ(outs[0].shape, (std::vector<rx::dim>{"n"}));
}

TEST(Difference, PassesWithinAtolPlusRtolOfTheReference) {
  const auto expected = floats({1, 100, 0, -2}, {2, 2});
  const auto actual = floats({1.00005f, 100.05f, 0, -2}, {2, 2});
  const auto d = rx::difference(actual, expected, 1e-4, 1e-3);
  EXPECT_TRUE(d.passes());
  EXPECT_EQ(d.count, 4u);
  EXPECT_NEAR(d.max_abs, 0.05, 1e-5);
  EXPECT_EQ(d.worst, (rx::dims_t{0, 1}));
  EXPECT_NEAR(d.max_rel, 5e-4, 1e-6);
  // The same error with a tighter rtol fails, and says how many elements.
  const auto tight = rx::difference(actual, expected, 1e-4, 1e-4);
  EXPECT_FALSE(tight.passes());
  EXPECT_EQ(tight.outside, 1u);
}

TEST(Difference, NanAndInfinityNeverPass) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  // NaN where the reference has NaN too, and the same infinity: still mismatches.
  const auto d =
      rx::difference(floats({0, nan, inf, 1}, {4}), floats({0, nan, inf, 1}, {4}), 1e-4, 1e-3);
  EXPECT_FALSE(d.passes());
  EXPECT_EQ(d.non_finite, 2u);
  EXPECT_EQ(d.outside, 2u);
  EXPECT_EQ(d.first_non_finite, (rx::dims_t{1}));
  EXPECT_EQ(d.max_abs, 0.0);
}

TEST(Difference, ShapesMustAgreeAndTypesMayDiffer) {
  EXPECT_EQ(rx::difference(floats({1, 2}, {1, 2}), floats({1, 2}, {2}), 0, 0).incomparable,
            "shape [1, 2], expected [2]");
  // An engine that gives float32 for an int64 output is compared by value.
  const auto d =
      rx::difference(floats({1, 2}, {2}), rx::tensor::of<std::int64_t>({1, 2}, {2}), 0, 0);
  EXPECT_TRUE(d.passes());
  EXPECT_FALSE(rx::difference(rx::tensor::of<std::string>({"a"}, {1}),
                              rx::tensor::of<std::string>({"a"}, {1}), 0, 0)
                   .incomparable.empty());
}
