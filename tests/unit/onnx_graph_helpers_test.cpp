// The graph helpers every rewrite shares: an int64 vector and an int64 scalar constant, a scalar
// of another value's element type, an axis made non-negative.
#include <gtest/gtest.h>

#include <cstdint>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_helpers.hpp>
#include <retarget/ir/proto.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <string>
#include <vector>

namespace {

namespace rx = retarget::ir;
using rx::dtype;

const onnx::TensorProto& data_of(const rx::graph& g, const rx::value& v) {
  const auto* t = g.constant_data(v);
  if (!t) throw retarget::error("not a constant: " + v.name());
  return *t;
}

TEST(GraphHelpers, IntsConstantIsAnInt64Vector) {
  rx::graph g(17);
  const auto c = rx::ints_constant(g, {1, -1, 4});
  EXPECT_EQ(c.dtype(), dtype::i64);
  EXPECT_EQ(c.static_shape(), (std::vector<std::int64_t>{3}));
  EXPECT_EQ(rx::values_of<std::int64_t>(data_of(g, c)), (std::vector<std::int64_t>{1, -1, 4}));
  EXPECT_EQ(g.proto().node(0).op_type(), "Constant");
  const auto none = rx::ints_constant(g, {});
  EXPECT_EQ(none.static_shape(), (std::vector<std::int64_t>{0}));
}

TEST(GraphHelpers, IntScalarHasNoDims) {
  rx::graph g(17);
  const auto c = rx::int_scalar(g, -3);
  EXPECT_EQ(c.dtype(), dtype::i64);
  EXPECT_EQ(c.static_shape(), (std::vector<std::int64_t>{}));
  EXPECT_EQ(rx::values_of<std::int64_t>(data_of(g, c)), (std::vector<std::int64_t>{-3}));
}

TEST(GraphHelpers, ScalarLikeTakesTheElementType) {
  rx::graph g(17);
  const auto of = [&](dtype t) {
    return rx::scalar_like(
        g, g.input(std::string("x") + std::to_string(static_cast<int>(t)), t, {2}), 2.5);
  };
  const auto f32 = of(dtype::f32);
  EXPECT_EQ(f32.dtype(), dtype::f32);
  EXPECT_EQ(f32.static_shape(), (std::vector<std::int64_t>{}));
  EXPECT_EQ(rx::values_of<float>(data_of(g, f32)), (std::vector<float>{2.5f}));
  const auto f64 = of(dtype::f64);
  EXPECT_EQ(f64.dtype(), dtype::f64);
  EXPECT_EQ(rx::values_of<double>(data_of(g, f64)), (std::vector<double>{2.5}));
  const auto i64 = of(dtype::i64);
  EXPECT_EQ(i64.dtype(), dtype::i64);
  EXPECT_EQ(rx::values_of<std::int64_t>(data_of(g, i64)), (std::vector<std::int64_t>{2}));
  const auto i32 = of(dtype::i32);
  EXPECT_EQ(i32.dtype(), dtype::i32);
  EXPECT_EQ(rx::values_of<std::int32_t>(data_of(g, i32)), (std::vector<std::int32_t>{2}));
  const auto b = of(dtype::boolean);
  EXPECT_EQ(b.dtype(), dtype::boolean);
  EXPECT_EQ(rx::values_of<bool>(data_of(g, b)), (std::vector<bool>{true}));
  // Another type (half precision here) gets float32, as before.
  EXPECT_EQ(of(dtype::f16).dtype(), dtype::f32);
}

TEST(GraphHelpers, NormalizedAxis) {
  EXPECT_EQ(rx::normalized_axis(0, 4), 0);
  EXPECT_EQ(rx::normalized_axis(3, 4), 3);
  EXPECT_EQ(rx::normalized_axis(-1, 4), 3);
  EXPECT_EQ(rx::normalized_axis(-4, 4), 0);
  EXPECT_THROW(rx::normalized_axis(4, 4), retarget::error);
  EXPECT_THROW(rx::normalized_axis(-5, 4), retarget::error);
  try {
    rx::normalized_axis(2, 2);
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_STREQ(e.what(), "retarget: axis 2 is out of range for rank 2");
  }
}

}  // namespace
