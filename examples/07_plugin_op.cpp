// Tutorial 07: a plugin op.
//
// Seed 004's last step: an op that ONNX does not have, emitted as one node of a domain of its
// own, Just_A_Scope_Name::DynamicTRTResize, for an engine that brings its implementation (a
// TensorRT plugin). "ONNX is a format, not an implementation." In retarget the op gets a
// declared schema, so the model is still checked and shape-inferred; it is emitted for
// tensorrt through a symbolic rewrite; and, since TensorRT is not installed here, it gets a
// C++ kernel on OpenCV DNN, where the whole bicubic SRCNN then runs and matches PyTorch.
#include <onnx/defs/shape_inference.h>  // the shape function reads ONNX's InferenceContext

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <opencv2/core/utils/logger.hpp>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/retarget.hpp>
#include <vector>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace nn = retarget::nn;
namespace rb = retarget::backend;
namespace rx = retarget::ir;
using namespace retarget::literals;
using retarget::trace::tensor;

// 1. The plugin's schema. Its output is the input resized by the scales: when the scales are a
// constant, the sizes are known; otherwise the rank is. ONNX's shape inference calls this for
// every DynamicTRTResize node, in retarget as each node is emitted and in ONNX's checker.
void infer_dynamic_resize(onnx::InferenceContext& ctx) {
  onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
  if (!onnx::hasInputShape(ctx, 0)) return;
  const auto& in = onnx::getInputShape(ctx, 0);
  const rx::tensor_view scales = ctx.getInputData(1);  // absent unless a constant
  std::vector<float> s(static_cast<std::size_t>(in.dim_size()));
  const auto bytes = scales ? scales.raw_bytes() : std::nullopt;
  const bool known = bytes && bytes->size() == s.size() * sizeof(float);
  if (known) std::memcpy(s.data(), bytes->data(), bytes->size());
  auto* out = onnx::getOutputShape(ctx, 0);
  for (int i = 0; i < in.dim_size(); ++i) {
    auto* d = out->add_dim();
    if (known && in.dim(i).has_dim_value())
      d->set_dim_value(static_cast<std::int64_t>(
          std::floor(static_cast<float>(in.dim(i).dim_value()) * s[static_cast<std::size_t>(i)])));
  }
}

inline constexpr rx::op_schema plugin_ops[] = {
    {.domain = "Just_A_Scope_Name",
     .name = "DynamicTRTResize",
     .min_inputs = 2,
     .max_inputs = 2,
     .infer = &infer_dynamic_resize,
     .doc = "Bicubic resize of an NCHW tensor by one scale per dim (PyTorch's bicubic)."}};
using plugin_schemas = rx::schemas<plugin_ops>;

// 2. The op, as in tutorial 02: its own symbolic is ONNX's Resize, for every engine that has it.
struct new_interpolate : retarget::symbolic_op<new_interpolate, "NewInterpolate"> {
  static rx::value symbolic(rx::graph& g, const rx::value& input, const rx::value& scales) {
    return g.op("Resize", input, g.op("Constant", "value"_t = rx::empty_f32), scales,
                "coordinate_transformation_mode"_s = "pytorch_half_pixel",
                "cubic_coeff_a"_f = -0.75f, "mode"_s = "cubic", "nearest_mode"_s = "floor");
  }
};

// 3. The plugin node. graph_view<Schemas> lets g.op know the declared ops, so the name and the
// number of inputs are checked at compile time as for standard ops; the model records the
// domain in its opset imports.
rx::value dynamic_trt_resize(rx::graph& g, const rx::value& input, const rx::value& scales) {
  return rx::graph_view<plugin_schemas>(g).op("Just_A_Scope_Name::DynamicTRTResize", input, scales);
}

// For tensorrt, which has the plugin, and for opencv_dnn, which gets a kernel for it below.
template <>
struct retarget::symbolic_rewrite<new_interpolate, bk::tensorrt> {
  static rx::value call(const auto&, rx::graph& g, const rx::value& input,
                        const rx::value& scales) {
    return dynamic_trt_resize(g, input, scales);
  }
};
template <>
struct retarget::symbolic_rewrite<new_interpolate, bk::opencv_dnn> {
  static rx::value call(const auto&, rx::graph& g, const rx::value& input,
                        const rx::value& scales) {
    return dynamic_trt_resize(g, input, scales);
  }
};

// 4. The kernel on OpenCV DNN: an OpenCV layer registered for the op. OpenCV sizes every blob
// before running, from shapes alone, so the scales must be a constant: OpenCV hands a constant
// input to the layer as a blob.
class dynamic_resize_kernel : public bk::opencv_layer<dynamic_resize_kernel> {
 public:
  explicit dynamic_resize_kernel(const cv::dnn::LayerParams& params) : opencv_layer(params) {
    if (blobs.size() != 1 || blobs[0].total() != 4 || blobs[0].type() != CV_32F)
      CV_Error(cv::Error::StsBadArg,
               "DynamicTRTResize on OpenCV DNN needs its scales as a constant of 4 floats");
    scales_.assign(blobs[0].ptr<float>(), blobs[0].ptr<float>() + 4);
  }

  std::vector<int> output_shape(const std::vector<std::vector<int>>& inputs) const {
    auto shape = inputs.at(0);
    for (std::size_t i = 0; i < shape.size(); ++i)
      shape[i] = static_cast<int>(std::floor(static_cast<float>(shape[i]) * scales_[i]));
    return shape;
  }

  // PyTorch's bicubic with align_corners=False (ONNX's cubic Resize with pytorch_half_pixel and
  // cubic_coeff_a = -0.75): each output pixel mixes a 4x4 neighbourhood, edges repeated.
  void compute(const std::vector<cv::Mat>& inputs, cv::Mat& output) const {
    const cv::Mat& in = inputs.at(0);
    const int planes = in.size[0] * in.size[1], h = in.size[2], w = in.size[3];
    const int oh = output.size[2], ow = output.size[3];
    const float* src = in.ptr<float>();
    float* dst = output.ptr<float>();
    for (int p = 0; p < planes; ++p, src += h * w)
      for (int oy = 0; oy < oh; ++oy) {
        const auto [y0, wy] = taps(oy, scales_[2]);
        for (int ox = 0; ox < ow; ++ox, ++dst) {
          const auto [x0, wx] = taps(ox, scales_[3]);
          float sum = 0;
          for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
              sum += wy[i] * wx[j] * src[clamp(y0 + i, h) * w + clamp(x0 + j, w)];
          *dst = sum;
        }
      }
  }

 private:
  static int clamp(int i, int n) { return std::min(std::max(i, 0), n - 1); }
  // The first of the 4 input positions an output position reads, and their weights.
  static std::pair<int, std::array<float, 4>> taps(int out, float scale) {
    constexpr float a = -0.75f;
    const float x = (static_cast<float>(out) + 0.5f) / scale - 0.5f;
    const float x0 = std::floor(x), t = x - x0;
    const auto near = [](float d) { return ((a + 2) * d - (a + 3)) * d * d + 1; };  // |d| <= 1
    const auto far = [](float d) {
      return ((a * d - 5 * a) * d + 8 * a) * d - 4 * a;
    };  // 1 < |d| < 2
    return {static_cast<int>(x0) - 1, {far(t + 1), near(t), near(1 - t), far(2 - t)}};
  }
  std::vector<float> scales_;
};

// 5. The seeds' StrangeSuperResolutionNet, as in tutorial 02.
struct strange_super_resolution_net
    : retarget::rewritable_module<strange_super_resolution_net, "StrangeSuperResolutionNet"> {
  nn::Conv2d conv1{"conv1", 3, 64, {9, 9}, {.padding = {4}}};
  nn::Conv2d conv2{"conv2", 64, 32, {1, 1}};
  nn::Conv2d conv3{"conv3", 32, 3, {5, 5}, {.padding = {2}}};
  nn::ReLU relu;

  template <class B>
  tensor<B> forward(const tensor<B>& x, const tensor<B>& upscale_factor) const {
    const auto upsampled = retarget::trace::apply<new_interpolate>(x, upscale_factor);
    return conv3(relu(conv2(relu(conv1(upsampled)))));
  }
};

void show(const retarget::export_result& r) {
  std::printf("%s: %s\n  %s\n  rewrites: %s\n", r.model.metadata("retarget:backend")->c_str(),
              tutorial::op_types(r.model).c_str(), tutorial::signature(r.model).c_str(),
              tutorial::rewrites(r).c_str());
}

int main() {
  cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
  strange_super_resolution_net model;
  for (auto* conv : {&model.conv1, &model.conv2, &model.conv3}) {
    conv->weight.load(tutorial::data("srcnn/" + conv->weight.name() + ".pb"));
    conv->bias->load(tutorial::data("srcnn/" + conv->bias->name() + ".pb"));
  }
  const tutorial::work_dir dir("tutorial-07");
  bool ok = true;

  // 6. For tensorrt: the factor stays a graph input, as in the seed. The declared schema lets
  // ONNX's checker accept the model; the domain is in its opset imports.
  auto trt = retarget::export_onnx<bk::tensorrt>(
      model, {{"input", rx::dtype::f32, {1, 3, 16, 16}}, {"factor", rx::dtype::f32, {4}}},
      retarget::no_config{}, {.output_names = {"output"}});
  trt.model.check();
  show(trt);
  std::printf("  opset imports:");
  for (const auto& o : trt.model.proto_without_shared_bytes().opset_import())
    std::printf(" %s %lld", o.domain().empty() ? "ai.onnx" : o.domain().c_str(),
                static_cast<long long>(o.version()));
  std::printf("\n  tensorrt engine: %s; the plugin's implementation is TensorRT's side\n",
              bk::tensorrt_manager::version().c_str());
  ok = ok && trt.model.opset("Just_A_Scope_Name") == 1;

  // 7. For opencv_dnn, the factor is a constant of the model (OpenCV sizes blobs from shapes).
  const auto fixed_factor = [&](const tensor<bk::opencv_dnn>& x) {
    const tensor<bk::opencv_dnn> factor(
        x.owner(), x.owner().graph().constant(rx::tensor::of<float>({1, 1, 3, 3}, {4})));
    return model(x, factor);
  };
  auto cv = retarget::export_onnx<bk::opencv_dnn>(
      fixed_factor, {{"input", rx::dtype::f32, {1, 3, 16, 16}}}, retarget::no_config{},
      {.output_names = {"output"}});
  cv.model.check();
  show(cv);
  rx::save(cv.model, dir / "srcnn_plugin.onnx");

  // Without the kernel, OpenCV cannot run the node; with it registered, it can.
  try {
    bk::opencv_dnn_manager::build_wrapper({dir / "srcnn_plugin.onnx"}, {});
    ok = false;
  } catch (const retarget::error& e) {
    const auto line = tutorial::line_with(e.what(), "Can't create layer");
    const auto from = line.find("Can't create layer");
    std::printf("OpenCV DNN without the kernel: %s\n",
                line.substr(from, line.find(" in function") - from).c_str());
  }
  dynamic_resize_kernel::register_as("Just_A_Scope_Name::DynamicTRTResize");
  auto opencv = bk::opencv_dnn_manager::build_wrapper({dir / "srcnn_plugin.onnx"}, {});
  ok = tutorial::compare("OpenCV DNN with the kernel",
                         opencv.run({{"input", tutorial::load("srcnn/input.pb")}}).at("output"),
                         tutorial::load("srcnn/output_bicubic.pb")) &&
       ok;
  return tutorial::finish(ok);
}
