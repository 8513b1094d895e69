// What crosses the process boundary to an engine and what a manager asks of a stored model,
// through ir/: a tensor as TensorProto bytes and back (a mapped tensor's bytes go in as raw
// data), and whether a model keeps weights in an external file.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <retarget/ir.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <string>
#include <vector>

#include "support/scratch_folder.hpp"

namespace {

namespace rx = retarget::ir;

// y = x + w, with w of `count` floats (distinct values) as an initializer.
rx::model add_weight(std::int64_t count) {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {count});
  std::vector<float> w;
  for (std::int64_t i = 0; i < count; ++i) w.push_back(static_cast<float>(i % 1000) * 0.5f - 3.0f);
  g.output(g.op("Add", x, g.initializer("w", rx::tensor::of<float>(w, {count}))), "y");
  return rx::make_model(std::move(g));
}

TEST(TensorBytes, RoundTripKeepsTypeDimsAndValues) {
  const auto t = rx::tensor::of<std::int64_t>({4, -5, 6, 7, 8, 9}, {2, 3});
  const auto back = rx::tensor_from_bytes(rx::tensor_to_bytes(t));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->type(), rx::dtype::i64);
  EXPECT_EQ(back->dims(), (rx::dims_t{2, 3}));
  EXPECT_EQ(rx::tensor_view(*back).values<std::int64_t>(),
            (std::vector<std::int64_t>{4, -5, 6, 7, 8, 9}));
}

TEST(TensorBytes, NotATensorProtoIsNullopt) {
  // Field 13 with wire type 6, which protobuf does not have.
  EXPECT_FALSE(rx::tensor_from_bytes("not a tensor"));
}

using TensorBytesFiles = support::scratch_folder_test;

TEST_F(TensorBytesFiles, AMappedTensorGoesWithItsBytes) {
  const std::int64_t count = 100000;  // 400 kB: mapped when loaded
  rx::save(add_weight(count), dir_ / "m.onnx", {.external_data_threshold = 1024});
  const auto loaded = rx::load(dir_ / "m.onnx");
  ASSERT_EQ(loaded.shared_initializers().size(), 1u);
  const auto& mapped = *loaded.shared_initializers().front().data;
  ASSERT_TRUE(mapped.is_mapped());
  const auto back = rx::tensor_from_bytes(rx::tensor_to_bytes(mapped));
  ASSERT_TRUE(back);
  // Another process cannot read this one's mapping: the bytes themselves are sent.
  EXPECT_FALSE(rx::tensor_view(*back).is_external());
  EXPECT_EQ(back->raw_bytes().size(), static_cast<std::size_t>(count) * sizeof(float));
  EXPECT_EQ(rx::tensor_view(*back).values<float>(), rx::tensor_view(mapped).values<float>());
}

TEST_F(TensorBytesFiles, ExternalDataOfAStoredModel) {
  EXPECT_FALSE(add_weight(1000).has_external_data());
  rx::save(add_weight(1000), dir_ / "external.onnx", {.external_data_threshold = 1024});
  rx::save(add_weight(1000), dir_ / "inline.onnx");
  EXPECT_TRUE(rx::read_model_file(dir_ / "external.onnx").has_external_data());
  EXPECT_FALSE(rx::read_model_file(dir_ / "inline.onnx").has_external_data());
}

}  // namespace
