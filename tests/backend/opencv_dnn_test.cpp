// The opencv_dnn backend: the SRCNN tutorial through the shipped Upsample rewrite, matching
// PyTorch's bilinear model, and a custom-domain op running on a C++ kernel.
#include <gtest/gtest.h>

#include <retarget/ir/proto.hpp>
#include <retarget/retarget.hpp>

#include "support/srcnn.hpp"

#if RETARGET_HAS_OPENCV_DNN
#include <retarget/backends/opencv_dnn.hpp>

namespace {

namespace bk = retarget::backends;
namespace nn = retarget::nn;
namespace rb = retarget::backend;
namespace rx = retarget::ir;
namespace fs = std::filesystem;
using retarget::trace::tensor;

using tutorial::data;

using tutorial::srcnn;

// Seed 004's 2a + b as one custom-domain op, with a declared schema and a C++ kernel.
inline constexpr rx::op_schema plugin_ops[] = {{.domain = "retarget.test",
                                                .name = "AXPB",
                                                .min_inputs = 2,
                                                .max_inputs = 2,
                                                .infer = &rx::same_as_first_input}};
struct axpb : retarget::symbolic_op<axpb, "axpb"> {
  static rx::value symbolic(rx::graph& g, const rx::value& a, const rx::value& b) {
    return rx::graph_view<rx::schemas<plugin_ops>>(g).op("retarget.test::AXPB", a, b);
  }
};
struct axpb_kernel : bk::opencv_layer<axpb_kernel> {
  using opencv_layer::opencv_layer;
  static std::vector<int> output_shape(const std::vector<std::vector<int>>& inputs) {
    return inputs.at(0);
  }
  void compute(const std::vector<cv::Mat>& in, cv::Mat& out) const { out = 2 * in[0] + in[1]; }
};

class OpencvDnn : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("retarget-opencv-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(OpencvDnn, SrcnnThroughTheShippedRewriteMatchesPytorchBilinear) {
  const srcnn model;
  auto exported =
      retarget::export_onnx<bk::opencv_dnn>(model, {{"input", rx::dtype::f32, {1, 3, 16, 16}}});
  EXPECT_EQ(exported.model.metadata("retarget:rewrites"),
            "module Upsample: opencv_dnn rewrite, 1 call");
  rx::save(exported.model, dir_ / "srcnn.onnx");
  bk::opencv_dnn_param p;
  p.work_dir = dir_.string();
  auto wrapper = bk::opencv_dnn_manager::build_wrapper(
      bk::opencv_dnn_manager::to_backend(dir_ / "srcnn.onnx", p), p);
  const auto out = wrapper.run({{"input", retarget::ir::read_tensor_file(data / "input.pb")}});
  const double error = ort::max_abs_error(
      out.at("output"), retarget::ir::read_tensor_file(data / "output_bilinear.pb"));
  std::cout << "opencv_dnn SRCNN: max abs error vs PyTorch " << error << "\n";
  EXPECT_LE(error, 1e-4);
}

TEST_F(OpencvDnn, TheBicubicModelIsRefusedByOpencvItself) {
  // Without the rewrite (exported for onnxruntime), OpenCV 4.6 cannot run the model: this is
  // why the rewrite exists.
  const srcnn model;
  auto exported =
      retarget::export_onnx<bk::onnxruntime>(model, {{"input", rx::dtype::f32, {1, 3, 16, 16}}});
  rx::save(exported.model, dir_ / "bicubic.onnx");
  EXPECT_THROW(
      {
        auto w = bk::opencv_dnn_manager::build_wrapper({dir_ / "bicubic.onnx"}, {});
        w.run({{"input", retarget::ir::read_tensor_file(data / "input.pb")}});
      },
      retarget::error);
}

TEST_F(OpencvDnn, CustomDomainOpRunsOnItsCppKernel) {
  axpb_kernel::register_as("retarget.test::AXPB");
  const auto model = [](const tensor<bk::opencv_dnn>& a, const tensor<bk::opencv_dnn>& b) {
    return retarget::trace::apply<axpb>(a, b);
  };
  auto exported = retarget::export_onnx<bk::opencv_dnn>(
      model, {{"a", rx::dtype::f32, {1, 4}}, {"b", rx::dtype::f32, {1, 4}}});
  EXPECT_NO_THROW(exported.model.check());
  EXPECT_EQ(exported.model.opset("retarget.test"), 1);
  rx::save(exported.model, dir_ / "axpb.onnx");
  auto w = bk::opencv_dnn_manager::build_wrapper({dir_ / "axpb.onnx"}, {});
  const auto out = w.run({{"a", rx::tensor::of<float>({1, 2, 3, 4}, {1, 4})},
                          {"b", rx::tensor::of<float>({10, 20, 30, 40}, {1, 4})}});
  EXPECT_EQ(ort::values_of(out.begin()->second), (std::vector<double>{12, 24, 36, 48}));
}

// An input whose values sit in the typed field (float_data, as a hand-made tensor holds them)
// reaches OpenCV as they are; one with fewer values than its dims is refused by name.
TEST_F(OpencvDnn, InputValuesInTheTypedFieldReachOpencv) {
  rx::graph g;
  const auto x = g.input("x", rx::dtype::f32, {1, 3});
  g.output(g.op("Relu", x), "y");
  auto m = rx::make_model(std::move(g));
  rx::save(m, dir_ / "relu.onnx");
  auto w = bk::opencv_dnn_manager::build_wrapper({dir_ / "relu.onnx"}, {});

  onnx::TensorProto typed;
  typed.set_data_type(onnx::TensorProto::FLOAT);
  typed.add_dims(1);
  typed.add_dims(3);
  for (const float v : {-1.5F, 2.0F, 3.25F}) typed.add_float_data(v);
  const auto out = w.run({{"x", rx::tensor(typed)}});
  EXPECT_EQ(ort::values_of(out.begin()->second), (std::vector<double>{0, 2, 3.25}));

  typed.add_dims(2);  // [1, 3, 2]: six elements due, three given
  try {
    (void)w.run({{"x", rx::tensor(typed)}});
    ADD_FAILURE() << "a tensor with fewer values than its dims ran";
  } catch (const retarget::error& e) {
    EXPECT_NE(std::string(e.what()).find("input 'x' holds 3 values"), std::string::npos)
        << e.what();
  }
}

}  // namespace
#endif
