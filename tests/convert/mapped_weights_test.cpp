// Converting a model loaded with its external data mapped: folding reads a mapped weight, a
// rule copies one into a constant of its own, the others pass through without being read, and
// the result is the model that converting the same model held whole gives.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <string>
#include <utility>
#include <vector>

#include "support/scratch_folder.hpp"

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;
namespace rc = retarget::convert;
namespace fs = std::filesystem;

std::vector<float> ramp(std::size_t n, float step) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 509) * step - 1.0f;
  return v;
}

// y = (x + c) · Transpose(v) · w, with c [1, 32, 512] (64 KiB: OpenCV's rule trims its leading
// 1 into a constant of its own), v [64, 512] (128 KiB, folded transposed) and w [64, 64] (16
// KiB, read at load), each an initializer.
rx::model weighted_model() {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {1, 32, 512});
  const auto c = g.initializer("c", rx::tensor::of(ramp(32 * 512, 0.01f), {1, 32, 512}));
  const auto v = g.initializer("v", rx::tensor::of(ramp(64 * 512, 0.002f), {64, 512}));
  const auto w = g.initializer("w", rx::tensor::of(ramp(64 * 64, 0.03f), {64, 64}));
  const auto h = g.op("MatMul", g.op("Add", x, c), g.op("Transpose", v, "perm"_i = {1, 0}));
  g.output(g.op("MatMul", h, w), "y");
  return rx::make_model(std::move(g));
}

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class ConvertMappedWeights : public support::scratch_folder_test {};

TEST_F(ConvertMappedWeights, GivesTheModelThatConvertingItHeldWholeGives) {
  fs::create_directories(dir_ / "external");
  fs::create_directories(dir_ / "whole");
  auto source = weighted_model();
  rx::save(source, dir_ / "external" / "m.onnx", {.external_data_threshold = 1024});
  rx::save(source, dir_ / "whole" / "m.onnx");

  auto mapped = rx::load(dir_ / "external" / "m.onnx");
  ASSERT_EQ(mapped.shared_initializers().size(), 2u);  // c and v; w, 16 KiB, is read
  auto whole = rx::load(dir_ / "whole" / "m.onnx");
  ASSERT_TRUE(whole.shared_initializers().empty());

  auto [from_mapped, mapped_report] =
      rc::convert<retarget::backends::opencv_dnn>(std::move(mapped));
  auto [from_whole, whole_report] = rc::convert<retarget::backends::opencv_dnn>(std::move(whole));
  EXPECT_EQ(rc::summary(mapped_report), rc::summary(whole_report));
  EXPECT_EQ(mapped_report.folded["Transpose"], 1u) << rc::summary(mapped_report);
  const auto trimmed =
      std::find_if(mapped_report.rules.begin(), mapped_report.rules.end(),
                   [](const auto& r) { return r.name == "constant_add_without_leading_ones"; });
  ASSERT_NE(trimmed, mapped_report.rules.end());
  EXPECT_EQ(trimmed->fired, 1u) << rc::summary(mapped_report);
  EXPECT_NO_THROW(from_mapped.check());

  // Saved inline, the two are the same file; saved with external data, they load back equal.
  rx::save(from_mapped, dir_ / "from_mapped.onnx");
  rx::save(from_whole, dir_ / "from_whole.onnx");
  EXPECT_EQ(read_all(dir_ / "from_mapped.onnx"), read_all(dir_ / "from_whole.onnx"));
  rx::save(from_mapped, dir_ / "external" / "m.onnx", {.external_data_threshold = 1024});
  EXPECT_EQ(rx::load(dir_ / "external" / "m.onnx").materialize().proto().SerializeAsString(),
            rx::load(dir_ / "from_whole.onnx").proto().SerializeAsString());
}

}  // namespace
