// opencv_dnn's node rewrite of Clip with its bounds as inputs, on the numbers the corpus never
// reaches: inputs over [-10, 10] in steps of 1/32 (past both bounds), each bound and the floats
// next to it (normal ones: OpenCV flushes subnormals to 0), and +inf, -inf and NaN
// (tests/data/convert_numbers, tools/make_convert_number_models.py). The model converted for
// opencv_dnn gives, on ONNX Runtime and on OpenCV 4.6, exactly what ONNX Runtime gives on the
// original: the same values, and NaN where it gives NaN.
#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <filesystem>
#include <iostream>
#include <map>
#include <ostream>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/ort.hpp"
#include "support/scratch_folder.hpp"

namespace {

namespace fs = std::filesystem;
namespace rc = retarget::convert;
namespace rx = retarget::ir;
namespace bk = retarget::backends;

const fs::path data = fs::path(RETARGET_SOURCE_DIR) / "tests/data/convert_numbers";

// Empty when both tensors hold the same values (NaN where the other has NaN), else the first
// elements that differ.
std::string differences(const rx::tensor& reference, const rx::tensor& got) {
  if (got.type() != reference.type() || got.dims() != reference.dims())
    return "type or shape differs: " + rx::format_dims(got.dims()) + " against " +
           rx::format_dims(reference.dims());
  const auto r = rx::values_as_double(reference), g = rx::values_as_double(got);
  std::ostringstream out;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < r.size() && shown < 5; ++i)
    if (!(r[i] == g[i] || (std::isnan(r[i]) && std::isnan(g[i])))) {
      out << "[" << i << "]: " << g[i] << " instead of " << r[i] << "; ";
      ++shown;
    }
  return out.str();
}

constexpr double lowest = -3.4028234663852886e38;  // float's

struct clip_case {
  std::string model;
  double lo, hi;  // lo: the lowest float when the model leaves it out
};
void PrintTo(const clip_case& c, std::ostream* out) { *out << c.model; }

class ClipRewrite : public support::scratch_folder_test,
                    public ::testing::WithParamInterface<clip_case> {};

TEST_P(ClipRewrite, ExactOnBothEnginesWithInfinitiesAndNaN) {
  const auto& c = GetParam();
  auto original = rx::load(data / (c.model + ".onnx"));
  auto [converted, report] = rc::convert<bk::opencv_dnn>(original);
  ASSERT_EQ(report.node_rewrites.size(), 1u);
  EXPECT_EQ(report.node_rewrites[0].op, "Clip");
  EXPECT_EQ(report.node_rewrites[0].count, 1u);
  std::cout << c.model << ": " << report.nodes_before << " node -> " << report.nodes_after
            << " nodes\n";
  for (const auto& n : converted.graph().node()) EXPECT_NE(n.op_type(), "Clip");
  const auto refused = rc::refused_nodes<bk::opencv_dnn>(converted);
  ASSERT_TRUE(refused.has_value());
  EXPECT_TRUE(refused->empty()) << refused->front().node << ": " << refused->front().why;
  rx::save(converted, dir_ / "converted.onnx");

  for (const std::string input : {"finite", "special"}) {
    SCOPED_TRACE(c.model + " on clip_x_" + input + ".pb");
    const auto file = data / ("clip_x_" + input + ".pb");
    const auto x = rx::read_tensor_file(file);
    const auto reference = ort::run(original, dir_ / ("original_" + input), {{"x", file}}).at("y");

    // The inputs reach past both bounds, and the reference is clipped there.
    const auto xs = rx::values_as_double(x), ys = rx::values_as_double(reference);
    std::size_t at_lo = 0, at_hi = 0, non_finite = 0;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      at_lo += xs[i] < c.lo && ys[i] == static_cast<float>(c.lo);
      at_hi += xs[i] > c.hi && ys[i] == static_cast<float>(c.hi);
      non_finite += !std::isfinite(xs[i]);
    }
    if (c.lo == lowest)
      EXPECT_EQ(at_lo, input == "special" ? 1u : 0u);  // -inf alone
    else
      EXPECT_GE(at_lo, 100u);
    EXPECT_GE(at_hi, 100u);
    EXPECT_EQ(non_finite, input == "special" ? 3u : 0u);

    const auto on_ort = ort::run(converted, dir_ / ("converted_" + input), {{"x", file}}).at("y");
    EXPECT_EQ(differences(reference, on_ort), "") << "ONNX Runtime on the converted model";
#if RETARGET_HAS_OPENCV_DNN
    bk::opencv_dnn_wrapper net(dir_ / "converted.onnx");
    const auto on_opencv = net.run({{"x", x}}).at("y");
    EXPECT_EQ(differences(reference, on_opencv), "") << "OpenCV on the converted model";
#endif
  }
}

INSTANTIATE_TEST_SUITE_P(Bounds, ClipRewrite,
                         ::testing::Values(clip_case{"clip_0_6", 0, 6},
                                           clip_case{"clip_-1.5_2.5", -1.5, 2.5},
                                           clip_case{"clip_none_6", lowest, 6}),
                         [](const auto& info) {
                           std::string name = info.param.model;
                           for (auto& ch : name)
                             if (ch == '-' || ch == '.') ch = '_';
                           return name;
                         });

}  // namespace
