// values_as_double: every numeric type in both of ONNX's storages, and errors for data it
// cannot see (external files) or that does not fit the dims. The half-precision bit patterns
// and their values are IEEE 754's (binary16) and bfloat16's definitions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>
#include <string>
#include <vector>

namespace {

namespace rx = retarget::ir;

rx::tensor raw_tensor(rx::dtype type, std::vector<std::int64_t> dims, const void* data,
                      std::size_t bytes) {
  onnx::TensorProto p;
  p.set_name("t");
  p.set_data_type(static_cast<int>(type));
  for (auto d : dims) p.add_dims(d);
  p.set_raw_data(std::string(static_cast<const char*>(data), bytes));
  return rx::tensor(std::move(p));
}

std::string error_of(const rx::tensor& t) {
  try {
    rx::values_as_double(t);
  } catch (const retarget::error& e) {
    return e.what();
  }
  return "no error";
}

TEST(TensorStats, HalfPrecisionFromRawBytesAndFromInt32Data) {
  const std::uint16_t bits[] = {0x3C00, 0xC000, 0x3555, 0x0001, 0x7C00, 0x7E00};
  const auto raw = rx::values_as_double(raw_tensor(rx::dtype::f16, {6}, bits, sizeof bits));
  onnx::TensorProto p;
  p.set_data_type(static_cast<int>(rx::dtype::f16));
  p.add_dims(6);
  for (auto b : bits) p.add_int32_data(b);
  const auto typed = rx::values_as_double(rx::tensor(p));
  for (const auto& v : {raw, typed}) {
    ASSERT_EQ(v.size(), 6u);
    EXPECT_EQ(v[0], 1.0);
    EXPECT_EQ(v[1], -2.0);
    EXPECT_EQ(v[2], 0.333251953125);
    EXPECT_EQ(v[3], std::ldexp(1.0, -24));  // the smallest subnormal
    EXPECT_TRUE(std::isinf(v[4]) && v[4] > 0);
    EXPECT_TRUE(std::isnan(v[5]));
  }
}

TEST(TensorStats, BFloat16AndTheSmallerAndUnsignedIntegers) {
  const std::uint16_t bf[] = {0x3F80, 0xC040};
  EXPECT_EQ(rx::values_as_double(raw_tensor(rx::dtype::bf16, {2}, bf, sizeof bf)),
            (std::vector<double>{1.0, -3.0}));
  const std::int16_t i16[] = {-300, 7};
  EXPECT_EQ(rx::values_as_double(raw_tensor(rx::dtype::i16, {2}, i16, sizeof i16)),
            (std::vector<double>{-300, 7}));
  const std::uint16_t u16[] = {65535};
  EXPECT_EQ(rx::values_as_double(raw_tensor(rx::dtype::u16, {1}, u16, sizeof u16)),
            (std::vector<double>{65535}));
  const std::uint32_t u32[] = {4000000000u};
  EXPECT_EQ(rx::values_as_double(raw_tensor(rx::dtype::u32, {}, u32, sizeof u32)),
            (std::vector<double>{4e9}));
  const std::uint64_t u64[] = {1, 2};
  EXPECT_EQ(rx::values_as_double(raw_tensor(rx::dtype::u64, {1, 2}, u64, sizeof u64)),
            (std::vector<double>{1, 2}));
}

TEST(TensorStats, DataItCannotSeeIsAnErrorNotAnEmptyTensor) {
  onnx::TensorProto p;
  p.set_name("w");
  p.set_data_type(static_cast<int>(rx::dtype::f32));
  p.add_dims(4);
  p.set_data_location(onnx::TensorProto::EXTERNAL);
  auto* location = p.add_external_data();
  location->set_key("location");
  location->set_value("w.bin");
  EXPECT_EQ(error_of(rx::tensor(p)),
            "retarget: tensor 'w' has its data in an external file, not in memory");
  // Two such tensors used to compare equal (both read as empty).
  EXPECT_THROW(rx::max_abs_difference(rx::tensor(p), rx::tensor(p)), retarget::error);

  const float three[] = {1, 2, 3};
  EXPECT_EQ(error_of(raw_tensor(rx::dtype::f32, {2, 2}, three, sizeof three)),
            "retarget: tensor 't' holds 3 values, but its dims make 4");
  EXPECT_EQ(error_of(raw_tensor(rx::dtype::f32, {1}, three, 6)),
            "retarget: tensor 't' has 6 bytes of data, not a whole number of float32 elements");
}

// Integers exactly: INT64_MAX, Slice's "to the end", which a double rounds past int64's range.
TEST(TensorStats, IntegersExactlyAsInt64) {
  constexpr auto end = std::numeric_limits<std::int64_t>::max();
  const auto big = rx::tensor::vector<std::int64_t>({end, -3});
  EXPECT_EQ(rx::values_as_int64(big), (std::vector<std::int64_t>{end, -3}));
  const std::uint8_t u8[] = {0, 255};
  const auto bytes = raw_tensor(rx::dtype::u8, {2}, u8, sizeof u8);
  EXPECT_EQ(rx::values_as_int64(bytes), (std::vector<std::int64_t>{0, 255}));
  // Floats, half ones included (stored as 16-bit integers), are not integers.
  const std::uint16_t half[] = {0x3c00};
  for (const auto& t :
       {rx::tensor::vector<float>({1.0f}), raw_tensor(rx::dtype::f16, {1}, half, sizeof half)}) {
    try {
      rx::values_as_int64(t);
      ADD_FAILURE() << "no error";
    } catch (const retarget::error& e) {
      EXPECT_NE(std::string(e.what()).find("not integers"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
