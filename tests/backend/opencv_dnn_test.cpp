// The opencv_dnn backend: the SRCNN tutorial through the shipped Upsample rewrite, matching
// PyTorch's bilinear model, and a custom-domain op running on a C++ kernel.
#include <gtest/gtest.h>

#include <retarget/ir/proto.hpp>
#include <retarget/retarget.hpp>

#include "support/srcnn.hpp"

#if RETARGET_HAS_OPENCV_DNN
#include <cmath>
#include <functional>
#include <limits>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/backends/opencv_dnn/convert.hpp>  // the package's quirks, read here
#include <retarget/convert/quirk.hpp>

namespace {

namespace bk = retarget::backends;
namespace quirks = retarget::backends::opencv_dnn_convert::quirks;
namespace rc = retarget::convert;
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

// scale_fused_into_power: OpenCV 4.6 fuses a scale or shift after a Power layer into it, inside
// the power. Every form the quirk names is wrong as written and right once converted, against
// the arithmetic done here in double; a Pow by 1, and a Pow read twice, are left alone and right.
TEST_F(OpencvDnn, AScaleAfterAPowerIsKeptApartFromIt) {
  const std::vector<std::int64_t> dims{2, 1, 3, 4};
  std::vector<float> x(24);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 0.5f + 0.25f * static_cast<float>(i % 7);
  struct power {
    const char* name;
    std::function<rx::value(rx::graph&, const rx::value&)> op;
    std::function<double(double)> of;
  };
  struct after {
    const char* name;
    std::function<rx::value(rx::graph&, const rx::value&)> op;
    std::function<double(double)> of;
  };
  const auto scalar = [](rx::graph& g, float v) {
    return g.constant(rx::tensor::of<float>({v}, {}));
  };
  const auto channel = [](rx::graph& g, float v) {
    return g.constant(rx::tensor::of<float>({v}, {1}));
  };
  const power powers[] = {
      {"Pow(x, 2)", [&](rx::graph& g, const rx::value& v) { return g.op("Pow", v, scalar(g, 2)); },
       [](double v) { return v * v; }},
      {"Pow(x, -0.43)",
       [&](rx::graph& g, const rx::value& v) { return g.op("Pow", v, scalar(g, -0.43f)); },
       [](double v) { return std::pow(v, static_cast<double>(-0.43f)); }},
      {"1.5 / x", [&](rx::graph& g, const rx::value& v) { return g.op("Div", scalar(g, 1.5f), v); },
       [](double v) { return 1.5 / v; }}};
  const double c = static_cast<double>(-0.76f);
  const after afters[] = {
      {"+ c", [&](rx::graph& g, const rx::value& v) { return g.op("Add", v, scalar(g, -0.76f)); },
       [&](double v) { return v + c; }},
      {"c -", [&](rx::graph& g, const rx::value& v) { return g.op("Sub", scalar(g, -0.76f), v); },
       [&](double v) { return c - v; }},
      {"c *", [&](rx::graph& g, const rx::value& v) { return g.op("Mul", scalar(g, -0.76f), v); },
       [&](double v) { return c * v; }},
      {"/ c", [&](rx::graph& g, const rx::value& v) { return g.op("Div", v, scalar(g, -0.76f)); },
       [&](double v) { return v / c; }},
      {"Neg", [&](rx::graph& g, const rx::value& v) { return g.op("Neg", v); },
       [](double v) { return -v; }},
      {"BatchNormalization",
       [&](rx::graph& g, const rx::value& v) {
         return g.op("BatchNormalization", v, channel(g, -0.7f), channel(g, 0.3f), channel(g, 0.1f),
                     channel(g, 2.0f));
       },
       [](double v) {
         return (v - static_cast<double>(0.1f)) / std::sqrt(2.0 + static_cast<double>(1e-5f)) *
                    static_cast<double>(-0.7f) +
                static_cast<double>(0.3f);
       }}};
  // The largest error relative to the value, over every element, on OpenCV.
  const auto error_on_opencv = [&](rx::model m, const std::function<double(double)>& want,
                                   const std::string& file) {
    rx::save(m, dir_ / file);
    auto w = bk::opencv_dnn_manager::build_wrapper({dir_ / file}, {});
    const auto got = ort::values_of(w.run({{"x", rx::tensor::of<float>(x, dims)}}).at("y"));
    double worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double due = want(static_cast<double>(x[i]));
      const double e = std::abs(got.at(i) - due) / std::max(1.0, std::abs(due));
      worst = std::isnan(e) ? std::numeric_limits<double>::infinity() : std::max(worst, e);
    }
    return worst;
  };
  const auto model = [&](const auto& make) {
    rx::graph g(13);
    const auto in = g.input("x", rx::dtype::f32, {2, 1, 3, 4});
    g.output(make(g, in), "y");
    return rx::make_model(std::move(g));
  };
  for (const auto& p : powers)
    for (const auto& a : afters) {
      SCOPED_TRACE(std::string(p.name) + " then " + a.name);
      const auto written =
          model([&](rx::graph& g, const rx::value& v) { return a.op(g, p.op(g, v)); });
      const auto want = [&](double v) { return a.of(p.of(v)); };
      EXPECT_FALSE(rc::quirk_sites<quirks::scale_fused_into_power>(written).empty());
      EXPECT_GT(error_on_opencv(written, want, "written.onnx"), 1e-2);
      const auto converted = rc::convert<bk::opencv_dnn>(written).model;
      EXPECT_TRUE(rc::quirk_sites<quirks::scale_fused_into_power>(converted).empty());
      EXPECT_LE(error_on_opencv(converted, want, "converted.onnx"), 1e-5);
    }
  // Left alone: a Pow by 1 (OpenCV fuses it, rightly), and a Pow that a Relu reads too.
  const auto by_one = model([&](rx::graph& g, const rx::value& v) {
    return g.op("Mul", g.op("Pow", v, scalar(g, 1)), scalar(g, -0.76f));
  });
  const auto read_twice = model([&](rx::graph& g, const rx::value& v) {
    const auto q = g.op("Pow", v, scalar(g, 2));
    return g.op("Add", g.op("Mul", q, scalar(g, -0.76f)), g.op("Relu", q));
  });
  EXPECT_TRUE(rc::quirk_sites<quirks::scale_fused_into_power>(by_one).empty());
  EXPECT_TRUE(rc::quirk_sites<quirks::scale_fused_into_power>(read_twice).empty());
  EXPECT_LE(error_on_opencv(
                by_one, [&](double v) { return v * c; }, "by_one.onnx"),
            1e-6);
  EXPECT_LE(error_on_opencv(
                read_twice, [&](double v) { return v * v * c + v * v; }, "twice.onnx"),
            1e-5);
}

}  // namespace
#endif
