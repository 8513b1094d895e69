// The fold pass of retarget::convert on shapes the corpus never has (tests/data/convert_numbers,
// tools/make_convert_number_models.py): a batch dimension `n` that only the run fixes, and
// Shape with start and end (opset 15). Expected values come from ONNX Runtime on the original.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
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

std::vector<std::string> ops_of(const rx::model& m) {
  std::vector<std::string> ops;
  for (const auto& n : m.graph().node()) ops.push_back(n.op_type());
  return ops;
}

using fold = support::scratch_folder_test;

// x.view(x.size(0), -1) on x [n, 3, 4, 4]: the Shape of a tensor whose first dim is `n` folds
// only at a size, so the model is converted at two and the results joined: the Reshape's
// target becomes [0, 48], which holds for any n (the Relu before it stays). The converted model
// keeps `n` open and gives what the original gives at n = 1 and at n = 3, on ONNX Runtime and on
// OpenCV, which runs the original wrong at n = 3.
TEST_F(fold, DynamicBatchKeepsTheShape) {
  auto original = rx::load(data / "flatten_batch.onnx");
  auto [converted, report] = rc::convert<bk::opencv_dnn>(original);
  EXPECT_FALSE(report.folded.empty()) << rc::summary(report);
  EXPECT_NE(report.open_dims.find("kept open"), std::string::npos) << report.open_dims;
  EXPECT_EQ(ops_of(converted), (std::vector<std::string>{"Relu", "Reshape"}));
  const auto& y = converted.graph().output(0).type().tensor_type().shape();
  ASSERT_EQ(y.dim_size(), 2);
  EXPECT_EQ(y.dim(0).dim_param(), "n");
  EXPECT_EQ(converted.graph().input(0).type().tensor_type().shape().dim(0).dim_param(), "n");
  rx::save(converted, dir_ / "converted.onnx");
  rx::save(original, dir_ / "original.onnx");

  for (const int n : {1, 3}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    const auto file = data / ("flatten_batch_n" + std::to_string(n) + ".pb");
    const auto tag = std::to_string(n);
    const auto reference = ort::run(original, dir_ / ("original" + tag), {{"x", file}}).at("y");
    ASSERT_EQ(reference.dims(), (rx::dims_t{n, 48}));
    const auto again = ort::run(converted, dir_ / ("converted" + tag), {{"x", file}}).at("y");
    EXPECT_EQ(again.dims(), reference.dims());
    EXPECT_EQ(ort::max_abs_error(reference, again), 0) << "ONNX Runtime, converted vs original";
#if RETARGET_HAS_OPENCV_DNN
    bk::opencv_dnn_wrapper net(dir_ / "converted.onnx");
    const auto on_opencv = net.run({{"x", rx::read_tensor_file(file)}}).at("y");
    EXPECT_EQ(on_opencv.dims(), reference.dims());
    EXPECT_EQ(ort::max_abs_error(reference, on_opencv), 0) << "OpenCV, converted vs original";
    if (n == 3) {
      // Measured: OpenCV 4.6 computes the original's Shape once, at load, with n = 1, and
      // reshapes the batch of 3 to [1, 144]. Should OpenCV get it right, this says so.
      bk::opencv_dnn_wrapper as_written(dir_ / "original.onnx");
      EXPECT_EQ(as_written.run({{"x", rx::read_tensor_file(file)}}).at("y").dims(),
                (rx::dims_t{1, 144}))
          << "OpenCV now runs a batch of 3 through a Shape";
    }
#endif
  }
}

// Shape(x, start, end) at opset 15 on x [2, 3, 4, 5]: start and end positive, negative, left
// out, beyond the rank, and an end before the start. Each folds to a constant, equal to what
// ONNX Runtime gives on the unconverted model.
TEST_F(fold, ShapeStartAndEnd) {
  auto original = rx::load(data / "shape_slices.onnx");
  ASSERT_EQ(original.opset(), 15);
  ASSERT_EQ(original.graph().node_size(), 8);
  auto [converted, report] = rc::convert<bk::opencv_dnn>(original);
  EXPECT_EQ(report.folded["Shape"], 8u) << rc::summary(report);
  EXPECT_EQ(converted.graph().node_size(), 0);

  const auto file = data / "shape_slices_x.pb";
  const auto reference = ort::run(original, dir_ / "original", {{"x", file}});
  std::map<std::string, rx::tensor> folded;
  for (const auto& t : converted.graph().initializer()) folded.emplace(t.name(), rx::tensor(t));
  const auto again = ort::run(converted, dir_ / "converted", {{"x", file}});
  ASSERT_EQ(reference.size(), 8u);
  for (const auto& [name, expected] : reference) {
    SCOPED_TRACE(name);
    ASSERT_TRUE(folded.count(name)) << "no constant " << name;
    EXPECT_EQ(folded.at(name).dims(), expected.dims());
    EXPECT_EQ(rx::values_as_double(folded.at(name)), rx::values_as_double(expected));
    EXPECT_EQ(rx::values_as_double(again.at(name)), rx::values_as_double(expected));
  }
  // The slices of [2, 3, 4, 5] themselves, so that an empty result cannot pass for all.
  EXPECT_EQ(rx::values_as_double(reference.at("s1")), (std::vector<double>{3, 4}));
  EXPECT_TRUE(rx::values_as_double(reference.at("s5")).empty());
}

}  // namespace
