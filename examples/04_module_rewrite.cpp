// Tutorial 04: a module rewrite.
//
// OpenCV 4.6's DNN module has no cubic Resize: it refuses the SRCNN of tutorial 01. The seeds'
// SRCNNWrapper is the fix, as a module rewrite: for one backend, every SRCNN is wrapped, and
// the wrapper swaps the bicubic upsampler for a bilinear one. Here the wrapper is built from
// the original module and the deploy config; the model runs on OpenCV DNN and matches
// PyTorch's bilinear model, while the export for ONNX Runtime keeps bicubic and matches
// PyTorch's bicubic model.
#include <cstdio>
#include <opencv2/core/utils/logger.hpp>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/retarget.hpp>
#include <string>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace nn = retarget::nn;
namespace rb = retarget::backend;
namespace rx = retarget::ir;
using retarget::trace::tensor;

// 1. The model. forward is the upsampler, then `refine` (the convolutions), which a wrapper
// can reuse as it is.
struct srcnn : retarget::rewritable_module<srcnn, "SRCNN"> {
  double upscale_factor = 3;
  nn::Upsample img_upsampler{{.scale_factor = {upscale_factor}, .mode = "bicubic"}};
  nn::Conv2d conv1{"conv1", 3, 64, {9, 9}, {.padding = {4}}};
  nn::Conv2d conv2{"conv2", 64, 32, {1, 1}};
  nn::Conv2d conv3{"conv3", 32, 3, {5, 5}, {.padding = {2}}};
  nn::ReLU relu;

  template <class B>
  tensor<B> refine(const tensor<B>& x) const {
    return conv3(relu(conv2(relu(conv1(x)))));
  }
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return refine(img_upsampler(x));
  }
};

// 2. The deploy config: whatever type the caller uses. Rewrites ask for it by type.
struct deploy_config {
  std::string upsample_mode = "bilinear";
};

// 3. The seeds' SRCNNWrapper. A wrapper is constructed from the original module and the deploy
// config (a trace::config_ref: cfg.as<T>() gives it back typed, or throws naming both types),
// and its forward runs instead of the module's. The model itself is never modified: the
// wrapper keeps a reference to it and builds the upsampler it wants.
struct srcnn_wrapper {
  const srcnn& module;
  nn::Upsample img_upsampler;

  srcnn_wrapper(const srcnn& original, const retarget::trace::config_ref& cfg)
      : module(original),
        img_upsampler({.scale_factor = {original.upscale_factor},
                       .mode = cfg.as<deploy_config>().upsample_mode}) {}

  // Calls the upsampler's forward directly: calling it as a module, img_upsampler(x), would
  // select the module rewrites of nn::Upsample for this backend too.
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return module.refine(img_upsampler.forward(x));
  }
};

// 4. The registration: for opencv_dnn, every srcnn is wrapped by srcnn_wrapper. (The seed
// registers it for tensorrt; any backend tag works the same way.)
template <>
struct retarget::module_rewrite<srcnn, bk::opencv_dnn> : retarget::wrap_with<srcnn_wrapper> {};

static_assert(retarget::is_module_rewritten_v<srcnn, bk::opencv_dnn>);
static_assert(!retarget::is_module_rewritten_v<srcnn, bk::onnxruntime>);

int main() {
  cv::utils::logging::setLogLevel(
      cv::utils::logging::LOG_LEVEL_SILENT);  // errors come as exceptions
  srcnn model;
  for (auto* conv : {&model.conv1, &model.conv2, &model.conv3}) {
    conv->weight.load(tutorial::data("srcnn/" + conv->weight.name() + ".pb"));
    conv->bias->load(tutorial::data("srcnn/" + conv->bias->name() + ".pb"));
  }
  const deploy_config cfg;
  const retarget::input_spec input[] = {{"input", rx::dtype::f32, {1, 3, 16, 16}}};

  // 5. The same model and config, exported for two backends.
  auto ort =
      retarget::export_onnx<bk::onnxruntime>(model, input, cfg, {.output_names = {"output"}});
  auto cv = retarget::export_onnx<bk::opencv_dnn>(model, input, cfg, {.output_names = {"output"}});
  bool ok = true;
  for (auto* exported : {&ort, &cv}) {
    exported->model.check();
    std::string resize_mode;
    for (std::size_t i = 0; i < exported->model.node_count(); ++i)
      if (const auto node = exported->model.node(i); node.op_type() == "Resize")
        if (const auto mode = node.attribute("mode")) resize_mode = mode->s();
    std::printf("%s: %s (Resize mode %s)\n  rewrites: %s\n",
                exported->model.metadata("retarget:backend")->c_str(),
                tutorial::op_types(exported->model).c_str(), resize_mode.c_str(),
                tutorial::rewrites(*exported).c_str());
  }
  ok = ok && tutorial::rewrites(cv) == "module SRCNN: opencv_dnn rewrite, 1 call" &&
       ort.report.empty();

  const tutorial::work_dir dir("tutorial-04");
  rx::save(ort.model, dir / "srcnn_onnxruntime.onnx");
  rx::save(cv.model, dir / "srcnn_opencv_dnn.onnx");
  const auto image = tutorial::load("srcnn/input.pb");

  // 6. Why the rewrite: OpenCV refuses the bicubic model.
  try {
    bk::opencv_dnn_manager::build_wrapper({dir / "srcnn_onnxruntime.onnx"}, {});
    std::printf("OpenCV DNN took the bicubic model\n");
    ok = false;  // the reason for this tutorial would be gone
  } catch (const retarget::error& e) {
    std::printf("OpenCV DNN refuses the bicubic model: %s\n",
                tutorial::line_with(e.what(), "'interpolation' is").c_str());
  }

  // 7. The rewritten model runs on OpenCV DNN, and matches PyTorch's model with a bilinear
  // upsampler; the other export runs on ONNX Runtime and matches the bicubic one.
  auto opencv = bk::opencv_dnn_manager::build_wrapper({dir / "srcnn_opencv_dnn.onnx"}, {});
  ok = tutorial::compare("opencv_dnn export on OpenCV DNN",
                         opencv.run({{"input", image}}).at("output"),
                         tutorial::load("srcnn/output_bilinear.pb")) &&
       ok;

  const auto param = tutorial::onnxruntime_param(dir.path());
  if (!tutorial::onnxruntime_available(param)) return tutorial::skipped;
  auto session = bk::onnxruntime_manager::build_wrapper({dir / "srcnn_onnxruntime.onnx"}, param);
  ok = tutorial::compare("onnxruntime export on ONNX Runtime",
                         session.run({{"input", image}}).at("output"),
                         tutorial::load("srcnn/output_bicubic.pb")) &&
       ok;
  return tutorial::finish(ok);
}
