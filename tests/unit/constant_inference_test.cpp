// Shape inference sees a Constant's values whatever attribute holds them: value (a tensor),
// value_ints, value_int, value_floats, value_float.
#include <gtest/gtest.h>

#include <cstdint>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>
#include <vector>

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;
using rx::dtype;
using dims = std::vector<std::int64_t>;

TEST(ConstantInference, ValueIntsGiveAReshapeItsShape) {
  rx::graph g(17);
  auto x = g.input("x", dtype::f32, {2, 3, 4});
  auto shape = g.op("Constant", "value_ints"_i = {4, -1});
  EXPECT_EQ(shape.static_shape(), (dims{2}));
  auto y = g.op("Reshape", x, shape);
  EXPECT_EQ(y.static_shape(), (dims{4, 6}));
  // The same as the tensor spelling.
  auto z =
      g.op("Reshape", x, g.op("Constant", "value"_t = rx::tensor::vector<std::int64_t>({4, -1})));
  EXPECT_EQ(z.static_shape(), y.static_shape());
  g.output(y, "y");
  EXPECT_NO_THROW(rx::make_model(std::move(g)).check());
}

TEST(ConstantInference, ValueIntScalarsGiveARangeItsLength) {
  rx::graph g(17);
  auto start = g.op("Constant", "value_int"_i = 1);
  auto limit = g.op("Constant", "value_int"_i = 10);
  auto delta = g.op("Constant", "value_int"_i = 3);
  EXPECT_EQ(start.static_shape(), dims{});
  auto r = g.op("Range", start, limit, delta);
  EXPECT_EQ(r.static_shape(), (dims{3}));  // 1, 4, 7
}

TEST(ConstantInference, ValueFloatsGiveAResizeItsScales) {
  rx::graph g(17);
  auto x = g.input("x", dtype::f32, {1, 3, 8, 8});
  auto scales = g.op("Constant", "value_floats"_f = {1.0f, 1.0f, 2.0f, 0.5f});
  auto y = g.op("Resize", x, rx::no_input, scales, "mode"_s = "nearest");
  EXPECT_EQ(y.static_shape(), (dims{1, 3, 16, 4}));
}

TEST(ConstantInference, ValueFloatScalarIsKnownData) {
  rx::graph g(17);
  auto x = g.input("x", dtype::f32, {2, 5});
  auto one = g.op("Constant", "value_float"_f = 1.0f);
  const auto* data = g.constant_data(one);
  ASSERT_NE(data, nullptr);
  EXPECT_EQ(data->float_data_size(), 1);
  EXPECT_EQ(data->float_data(0), 1.0f);
  EXPECT_EQ(data->dims_size(), 0);
  EXPECT_EQ(g.op("Add", x, one).static_shape(), (dims{2, 5}));
}

}  // namespace
