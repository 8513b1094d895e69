// The bottom of ir/ (dtypes, dims, tensors and their values, tensor files, statistics, values)
// with retarget::compiled (and header-only, in retarget_unit_tests), as a unit that does not
// include ONNX's or protobuf's headers sees it: a tensor holds its proto through a pointer from
// construction on and copies it deeply, and a moved-from one is destroyed or assigned to; the
// decoders and the files work through the definitions compiled into the library.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <retarget/ir/value.hpp>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "support/scratch_folder.hpp"

// What this unit checks first: with retarget::compiled these headers stay light (header-only,
// their definitions include ONNX's, and the tests below run on those).
#if defined(RETARGET_SEPARATE_COMPILATION) && \
    (defined(ONNX_ONNX_PB_H) || defined(GOOGLE_PROTOBUF_VERSION))
#error "ir's tensor headers include ONNX's or protobuf's headers with retarget::compiled"
#endif

namespace {

namespace rx = retarget::ir;

TEST(LightTensor, ValuesDecodeWithoutTheMessagesDefinition) {
  const auto t = rx::tensor::of<float>({1.5f, -2.0f, 3.25f, 4.0f}, {2, 2});
  EXPECT_EQ(t.type(), rx::dtype::f32);
  EXPECT_EQ(t.dims(), (rx::dims_t{2, 2}));
  EXPECT_TRUE(t.has_raw_data());
  EXPECT_EQ(t.raw_bytes().size(), 4 * sizeof(float));
  EXPECT_EQ(rx::stored_count<float>(t.proto()), 4u);
  EXPECT_EQ(rx::values_of<float>(t.proto()), (std::vector<float>{1.5f, -2.0f, 3.25f, 4.0f}));
  ASSERT_TRUE(rx::raw_bytes(t.proto()).has_value());
  EXPECT_EQ(rx::raw_bytes(t.proto())->size(), 4 * sizeof(float));
  EXPECT_EQ(rx::values_as_double(t), (std::vector<double>{1.5, -2.0, 3.25, 4.0}));
  EXPECT_EQ(rx::statistics(t).max, 4.0);

  const auto s = rx::tensor::of<std::string>({"a", "bc"}, {2});
  EXPECT_EQ(s.type(), rx::dtype::string);
  EXPECT_EQ(s.dims(), (rx::dims_t{2}));
  EXPECT_FALSE(s.has_raw_data());

  const auto e = rx::tensor::empty(rx::dtype::i64);
  EXPECT_EQ(e.dims(), (rx::dims_t{0}));
  EXPECT_TRUE(rx::values_of<std::int64_t>(e.proto()).empty());
}

TEST(LightTensor, ACopyHoldsItsOwnProto) {
  auto a = rx::tensor::vector<std::int64_t>({1, 2, 3});
  a.set_name("a");
  auto b = a;
  b.set_name("b");
  EXPECT_EQ(a.name(), "a");
  EXPECT_EQ(b.name(), "b");
  EXPECT_NE(&a.proto(), &b.proto());
  EXPECT_EQ(rx::values_of<std::int64_t>(b.proto()), (std::vector<std::int64_t>{1, 2, 3}));

  rx::tensor c = rx::tensor::scalar(2.5);
  c = a;
  a.set_name("changed");
  EXPECT_EQ(c.name(), "a");
  EXPECT_EQ(c.type(), rx::dtype::i64);
  EXPECT_EQ(rx::values_of<std::int64_t>(c.proto()), (std::vector<std::int64_t>{1, 2, 3}));
  const auto& same = c;
  c = same;  // assigned to itself, it stays as it was
  EXPECT_EQ(c.name(), "a");
}

TEST(LightTensor, ADefaultTensorHoldsAnEmptyProto) {
  const rx::tensor t;
  EXPECT_EQ(t.type(), rx::dtype::undefined);
  EXPECT_TRUE(t.dims().empty());
  EXPECT_EQ(t.name(), "");
  EXPECT_FALSE(t.has_raw_data());
  EXPECT_TRUE(t.raw_bytes().empty());
  EXPECT_EQ(rx::stored_count<float>(t.proto()), 0u);

  // The proto is the tensor's own from the start: a view taken before it is set sees what is set.
  rx::tensor u;
  const rx::tensor_view v(u);
  const auto* before = &std::as_const(u).proto();
  u.set_name("given");
  EXPECT_EQ(&std::as_const(u).proto(), before);
  EXPECT_EQ(v.name(), "given");
  EXPECT_EQ(rx::tensor(u).name(), "given");
}

TEST(LightTensor, AMovedFromTensorIsDestroyedOrAssigned) {
  auto a = rx::tensor::of<float>({1.0f, 2.0f}, {2});
  a.set_name("a");
  rx::tensor b = std::move(a);
  EXPECT_EQ(b.name(), "a");
  EXPECT_EQ(rx::values_of<float>(b.proto()), (std::vector<float>{1.0f, 2.0f}));
  // Moved from, it takes a copy, a move, or another moved-from one, and is destroyed.
  a = b;  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.name(), "a");
  EXPECT_NE(&a.proto(), &b.proto());
  rx::tensor c;
  c = std::move(b);
  b = std::move(c);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(b.dims(), (rx::dims_t{2}));
  rx::tensor d = std::move(c);  // NOLINT(bugprone-use-after-move): a moved-from one, moved again
  c = rx::tensor::scalar(3.0f);
  EXPECT_EQ(c.type(), rx::dtype::f32);
  { rx::tensor gone = std::move(c); }
  c = std::move(d);  // NOLINT(bugprone-use-after-move)
  c = a;
  EXPECT_EQ(c.name(), "a");
}

using LightTensorFiles = support::scratch_folder_test;

TEST_F(LightTensorFiles, WrittenAndReadBack) {
  auto t = rx::tensor::of<std::int32_t>({7, -8, 9, 10, 11, 12}, {2, 3});
  t.set_name("x");
  rx::write_tensor_file(dir_ / "x.pb", t);
  const auto back = rx::read_tensor_file(dir_ / "x.pb");
  EXPECT_EQ(back.name(), "x");
  EXPECT_EQ(back.dims(), (rx::dims_t{2, 3}));
  EXPECT_EQ(rx::max_abs_difference(back, t), 0.0);

  const auto bytes = rx::tensor_to_bytes(t);
  const auto parsed = rx::tensor_from_bytes(bytes);
  ASSERT_TRUE(parsed.has_value());
  EXPECT_EQ(rx::values_of<std::int32_t>(parsed->proto()),
            (std::vector<std::int32_t>{7, -8, 9, 10, 11, 12}));
  EXPECT_TRUE(rx::difference(*parsed, t, 0, 0).passes());
}

TEST(LightTensor, DimsOfAnyRange) {
  const rx::dims_t dims{2, 3, 4};
  EXPECT_EQ(rx::element_count(dims), 24);
  EXPECT_EQ(rx::element_count(std::span<const std::int64_t>(dims)), 24);
  EXPECT_EQ(rx::element_count({dims.begin(), dims.begin() + 2}), 6);  // a braced list: dims_t
  EXPECT_EQ(rx::format_dims(dims), "[2, 3, 4]");
  EXPECT_EQ(rx::to_string(std::vector<rx::dim>{1, "height", rx::dim{}}), "[1, height, ?]");
}

}  // namespace
