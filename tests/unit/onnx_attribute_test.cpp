// Attribute literals: every kind, its plural form, empty lists.
#include <gtest/gtest.h>

#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;

template <class A>
onnx::AttributeProto written(const A& a) {
  onnx::AttributeProto p;
  a.write(p);
  return p;
}

TEST(OnnxAttribute, SingularKinds) {
  const auto i = written("axis"_i = 3);
  EXPECT_EQ(i.name(), "axis");
  EXPECT_EQ(i.type(), onnx::AttributeProto::INT);
  EXPECT_EQ(i.i(), 3);

  const auto f = written("alpha"_f = 0.25);
  EXPECT_EQ(f.type(), onnx::AttributeProto::FLOAT);
  EXPECT_FLOAT_EQ(f.f(), 0.25f);

  const auto s = written("mode"_s = "cubic");
  EXPECT_EQ(s.type(), onnx::AttributeProto::STRING);
  EXPECT_EQ(s.s(), "cubic");

  const auto t = written("value"_t = rx::tensor::of<float>({1, 2, 3, 4}, {2, 2}));
  EXPECT_EQ(t.type(), onnx::AttributeProto::TENSOR);
  EXPECT_EQ(t.t().dims_size(), 2);
  EXPECT_EQ(t.t().raw_data().size(), 16u);

  onnx::GraphProto body;
  body.set_name("body");
  const auto g = written("then_branch"_g = body);
  EXPECT_EQ(g.type(), onnx::AttributeProto::GRAPH);
  EXPECT_EQ(g.g().name(), "body");
}

TEST(OnnxAttribute, ListsGiveThePluralKind) {
  const auto ints = written("axes"_i = {0, 1});
  EXPECT_EQ(ints.type(), onnx::AttributeProto::INTS);
  EXPECT_EQ(std::vector<std::int64_t>(ints.ints().begin(), ints.ints().end()),
            (std::vector<std::int64_t>{0, 1}));

  const auto floats = written("scales"_f = {1.0, 2.5});
  EXPECT_EQ(floats.type(), onnx::AttributeProto::FLOATS);
  EXPECT_EQ(floats.floats_size(), 2);
  EXPECT_FLOAT_EQ(floats.floats(1), 2.5f);

  const auto strings = written("keys"_s = {"a", "b", "c"});
  EXPECT_EQ(strings.type(), onnx::AttributeProto::STRINGS);
  EXPECT_EQ(strings.strings(2), "c");

  const auto tensors = written(
      "values"_t = std::vector<rx::tensor>{rx::tensor::scalar(1.0f), rx::tensor::scalar(2.0f)});
  EXPECT_EQ(tensors.type(), onnx::AttributeProto::TENSORS);
  EXPECT_EQ(tensors.tensors_size(), 2);

  const auto graphs = written("branches"_g = std::vector<onnx::GraphProto>(3));
  EXPECT_EQ(graphs.type(), onnx::AttributeProto::GRAPHS);
  EXPECT_EQ(graphs.graphs_size(), 3);

  const std::vector<int> from_vector{4, 5};
  EXPECT_EQ(written("pads"_i = from_vector).ints_size(), 2);
}

TEST(OnnxAttribute, EmptyListsKeepTheirKind) {
  EXPECT_EQ(written("axes"_i = {}).type(), onnx::AttributeProto::INTS);
  EXPECT_EQ(written("scales"_f = {}).type(), onnx::AttributeProto::FLOATS);
  EXPECT_EQ(written("keys"_s = {}).type(), onnx::AttributeProto::STRINGS);
  EXPECT_EQ(written("axes"_i = {}).ints_size(), 0);
}

// The kind is part of the type, which is what lets g.op check it at compile time.
static_assert(decltype("axes"_i = {0})::type == rx::attr_type::ints);
static_assert(decltype("axes"_i = 0)::type == rx::attr_type::int_);
static_assert(decltype("mode"_s = "cubic")::name == "mode");

TEST(OnnxTensor, RawBuffersMustMatchTheirDims) {
  const std::vector<float> data{1, 2, 3};
  EXPECT_THROW(rx::tensor::from_raw(rx::dtype::f32, {2, 2}, std::as_bytes(std::span(data))),
               retarget::error);
  const auto t = rx::tensor::from_raw(rx::dtype::f32, {3}, std::as_bytes(std::span(data)));
  EXPECT_EQ(t.type(), rx::dtype::f32);
  EXPECT_EQ(t.dims(), rx::dims_t{3});
  EXPECT_EQ(rx::tensor::empty(rx::dtype::i64).dims(), rx::dims_t{0});
}

}  // namespace
