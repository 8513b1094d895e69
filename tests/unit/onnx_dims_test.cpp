// How dims are printed, and which domains are standard.
#include <gtest/gtest.h>

#include <cstdint>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/proto.hpp>
#include <retarget/ir/value.hpp>
#include <vector>

namespace {

namespace rx = retarget::ir;

static_assert(rx::is_standard_domain("") && rx::is_standard_domain("ai.onnx"));
static_assert(rx::is_standard_domain("ai.onnx.ml") &&
              rx::is_standard_domain("ai.onnx.preview.training"));
static_assert(!rx::is_standard_domain("mmdeploy") && !rx::is_standard_domain("ai.onnx.contrib") &&
              !rx::is_standard_domain("com.microsoft"));

TEST(OnnxDims, FormatDims) {
  EXPECT_EQ(rx::format_dims(std::vector<std::int64_t>{1, 3, 48, 48}), "[1, 3, 48, 48]");
  EXPECT_EQ(rx::format_dims(std::vector<std::int64_t>{}), "[]");
  EXPECT_EQ(rx::format_dims(std::vector<std::int64_t>{-1, 0, 7}), "[?, 0, 7]");
  const std::int64_t raw[] = {2, 5};
  EXPECT_EQ(rx::format_dims(raw), "[2, 5]");

  onnx::TensorShapeProto shape;
  shape.add_dim()->set_dim_value(1);
  shape.add_dim()->set_dim_param("height");
  shape.add_dim();
  EXPECT_EQ(rx::format_dims(shape), "[1, height, ?]");
  EXPECT_EQ(rx::to_string(std::vector<rx::dim>{1, "height", rx::dim()}), "[1, height, ?]");
}

}  // namespace
