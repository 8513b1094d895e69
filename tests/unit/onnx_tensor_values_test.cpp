// The one decoder of tensor data: raw_data read as little-endian whatever the machine, each
// element type's typed field, bools as 0 or 1, the element type visit, and the errors for data
// that is not there (an external file) or not whole. Also the TypeProto of a stored tensor and
// the dims of a shape proto, which values, graphs and converters share.
#include <gtest/gtest.h>

#include <cstdint>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/proto.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <retarget/ir/value.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "support/error_of.hpp"
namespace {

namespace rx = retarget::ir;

onnx::TensorProto raw(rx::dtype type, std::vector<std::int64_t> dims, std::string bytes) {
  onnx::TensorProto p;
  p.set_name("t");
  p.set_data_type(static_cast<int>(type));
  for (auto d : dims) p.add_dims(d);
  p.set_raw_data(std::move(bytes));
  return p;
}

using support::error_of;

TEST(TensorValues, RawDataIsLittleEndian) {
  // Bytes as ONNX's format defines them, spelled out: least significant first.
  const auto i64 = raw(rx::dtype::i64, {2},
                       std::string("\x01\x00\x00\x00\x00\x00\x00\x00"
                                   "\xfe\xff\xff\xff\xff\xff\xff\xff",
                                   16));
  EXPECT_EQ(rx::values_of<std::int64_t>(i64), (std::vector<std::int64_t>{1, -2}));
  const auto i32 = raw(rx::dtype::i32, {1}, std::string("\x00\x01\x00\x00", 4));
  EXPECT_EQ(rx::values_of<std::int32_t>(i32), (std::vector<std::int32_t>{256}));
  // 0x3f800000 is 1.0f and 0xc0000000 is -2.0f in IEEE 754 binary32.
  const auto f32 = raw(rx::dtype::f32, {2}, std::string("\x00\x00\x80\x3f\x00\x00\x00\xc0", 8));
  EXPECT_EQ(rx::values_of<float>(f32), (std::vector<float>{1.0f, -2.0f}));
  const auto u16 = raw(rx::dtype::u16, {1}, std::string("\x34\x12", 2));
  EXPECT_EQ(rx::values_of<std::uint16_t>(u16), (std::vector<std::uint16_t>{0x1234}));
}

TEST(TensorValues, EachTypedField) {
  onnx::TensorProto f;
  f.set_data_type(static_cast<int>(rx::dtype::f32));
  f.add_float_data(0.5f);
  f.add_float_data(-3.0f);
  EXPECT_EQ(rx::values_of<float>(f), (std::vector<float>{0.5f, -3.0f}));

  onnx::TensorProto d;
  d.set_data_type(static_cast<int>(rx::dtype::f64));
  d.add_double_data(0.25);
  EXPECT_EQ(rx::values_of<double>(d), (std::vector<double>{0.25}));

  onnx::TensorProto i;
  i.set_data_type(static_cast<int>(rx::dtype::i64));
  i.add_int64_data(-7);
  EXPECT_EQ(rx::values_of<std::int64_t>(i), (std::vector<std::int64_t>{-7}));

  // uint32 and uint64 sit in uint64_data; the narrow integers in int32_data.
  onnx::TensorProto u32;
  u32.set_data_type(static_cast<int>(rx::dtype::u32));
  u32.add_uint64_data(4000000000u);
  EXPECT_EQ(rx::values_of<std::uint32_t>(u32), (std::vector<std::uint32_t>{4000000000u}));
  onnx::TensorProto i8;
  i8.set_data_type(static_cast<int>(rx::dtype::i8));
  i8.add_int32_data(-128);
  i8.add_int32_data(127);
  EXPECT_EQ(rx::values_of<std::int8_t>(i8), (std::vector<std::int8_t>{-128, 127}));
}

TEST(TensorValues, BoolsAreZeroOrOne) {
  const auto r = raw(rx::dtype::boolean, {3}, std::string("\x00\x02\x01", 3));
  EXPECT_EQ(rx::values_of<bool>(r), (std::vector<bool>{false, true, true}));
  onnx::TensorProto typed;
  typed.set_data_type(static_cast<int>(rx::dtype::boolean));
  typed.add_int32_data(5);
  typed.add_int32_data(0);
  std::vector<int> seen;
  rx::for_each_value<bool>(typed, [&](bool b) { seen.push_back(b); });
  EXPECT_EQ(seen, (std::vector<int>{1, 0}));
}

TEST(TensorValues, StoredCountIgnoresTheDims) {
  const auto r = raw(rx::dtype::f32, {5}, std::string(8, '\0'));
  EXPECT_EQ(rx::stored_count<float>(r), 2u);
  onnx::TensorProto typed;
  typed.add_int64_data(1);
  EXPECT_EQ(rx::stored_count<std::int64_t>(typed), 1u);
  EXPECT_EQ(rx::stored_count<float>(typed), 0u);
}

TEST(TensorValues, DataThatIsNotHereOrNotWholeIsAnError) {
  auto external = raw(rx::dtype::f32, {1}, "");
  external.clear_raw_data();
  external.set_data_location(onnx::TensorProto::EXTERNAL);
  EXPECT_EQ(error_of([&] { rx::values_of<float>(external); }),
            "retarget: tensor 't' has its data in an external file, not in memory");
  const auto ragged = raw(rx::dtype::f32, {1}, std::string(6, '\0'));
  EXPECT_EQ(error_of([&] { rx::values_of<float>(ragged); }),
            "retarget: tensor 't' has 6 bytes of data, not a whole number of float32 elements");
}

TEST(TensorValues, VisitElementTypeGivesTheTypeItIsReadAs) {
  const auto read_as = [](rx::dtype t) {
    return rx::visit_element_type(t, []<class T>(std::type_identity<T>) { return sizeof(T); });
  };
  EXPECT_EQ(read_as(rx::dtype::f32), 4u);
  EXPECT_EQ(read_as(rx::dtype::f64), 8u);
  EXPECT_EQ(read_as(rx::dtype::f16), 2u);
  EXPECT_EQ(read_as(rx::dtype::bf16), 2u);
  EXPECT_EQ(read_as(rx::dtype::u64), 8u);
  EXPECT_EQ(read_as(rx::dtype::boolean), 1u);
  const auto is = [](rx::dtype t, auto expected) {
    return rx::visit_element_type(
        t, [&]<class T>(std::type_identity<T>) { return std::is_same_v<T, decltype(expected)>; });
  };
  EXPECT_TRUE(is(rx::dtype::i16, std::int16_t{}));
  EXPECT_TRUE(is(rx::dtype::u8, std::uint8_t{}));
  EXPECT_TRUE(is(rx::dtype::i32, std::int32_t{}));
  EXPECT_TRUE(is(rx::dtype::u32, std::uint32_t{}));
  EXPECT_EQ(error_of([&] { read_as(rx::dtype::string); }),
            "retarget: no numeric values for a tensor of string");
}

TEST(TensorValues, ElementCountOfAProtosDims) {
  const auto p = raw(rx::dtype::f32, {2, 3, 4}, std::string(96, '\0'));
  EXPECT_EQ(rx::element_count(p.dims()), 24);
  const auto scalar = raw(rx::dtype::f32, {}, std::string(4, '\0'));
  EXPECT_EQ(rx::element_count(scalar.dims()), 1);
  EXPECT_EQ(rx::element_count(rx::dims_t{2, 0, 5}), 0);
}

TEST(TensorValues, TypeOfAStoredTensor) {
  const auto p = raw(rx::dtype::i64, {2, 3}, std::string(48, '\0'));
  const auto type = rx::type_of(p);
  ASSERT_TRUE(type.has_tensor_type());
  EXPECT_EQ(type.tensor_type().elem_type(), static_cast<int>(rx::dtype::i64));
  EXPECT_EQ(rx::format_dims(type.tensor_type().shape()), "[2, 3]");
  const auto scalar = rx::type_of(raw(rx::dtype::f32, {}, std::string(4, '\0')));
  EXPECT_TRUE(scalar.tensor_type().has_shape());
  EXPECT_EQ(scalar.tensor_type().shape().dim_size(), 0);
}

TEST(TensorValues, DimsOfAShapeProto) {
  onnx::TensorShapeProto shape;
  shape.add_dim()->set_dim_value(1);
  shape.add_dim()->set_dim_param("height");
  shape.add_dim();
  const auto dims = rx::dims_of(shape);
  ASSERT_EQ(dims.size(), 3u);
  EXPECT_EQ(dims[0], rx::dim(1));
  EXPECT_EQ(dims[1], rx::dim("height"));
  EXPECT_FALSE(dims[2].is_static() || dims[2].is_symbolic());
  EXPECT_EQ(rx::to_string(dims), "[1, height, ?]");
}

}  // namespace
