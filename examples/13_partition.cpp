// Tutorial 13: a model in two parts.
//
// Some models hold work an engine cannot do at all. A detector's post-processing (score
// thresholds, NonZero, TopK with a computed k, non-maximum suppression) is such work for
// OpenCV 4.6. The model is then cut: the engine runs the part it can, ONNX Runtime (or the
// user's own code) the rest, on the values the first part gives.
//
// 1. An existing ONNX file, a small SSDlite detector as torch writes it: converted for
//    opencv_dnn, cut ahead of every node OpenCV refuses, and run as a pipeline.
// 2. A model exported from C++: a mark names the boundary, and a deploy config's
//    partition_config says to cut there.
//
//   example_13_partition
#include <cstdio>
#include <fstream>
#include <opencv2/core/utils/logger.hpp>
#include <retarget/backend/compare.hpp>
#include <retarget/backend/pipeline.hpp>
#include <retarget/backends.hpp>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/config.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/partition.hpp>
#include <retarget/ir.hpp>
#include <retarget/ir/model_parts.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/trace/mark.hpp>
#include <string>
#include <vector>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace rb = retarget::backend;
namespace rc = retarget::convert;
namespace rx = retarget::ir;

// SRCNN as in tutorial 01, its features marked before the last convolution: a boundary a
// deploy config can cut at. Without a partition_config, the mark leaves no trace.
struct srcnn : retarget::rewritable_module<srcnn, "SRCNN"> {
  retarget::nn::Upsample img_upsampler{{.scale_factor = {3}, .mode = "bicubic"}};
  retarget::nn::Conv2d conv1{"conv1", 3, 64, {9, 9}, {.padding = {4}}};
  retarget::nn::Conv2d conv2{"conv2", 64, 32, {1, 1}};
  retarget::nn::Conv2d conv3{"conv3", 32, 3, {5, 5}, {.padding = {2}}};
  retarget::nn::ReLU relu;

  template <class B>
  retarget::trace::tensor<B> forward(const retarget::trace::tensor<B>& x) const {
    const auto features = relu(conv2(relu(conv1(img_upsampler(x)))));
    return conv3(retarget::trace::mark(features, "features"));
  }
};

// The pipeline file for two parts: `head` on the engine, `tail` on ONNX Runtime.
rb::pipeline two_parts(const std::string& head, const std::string& engine, const std::string& tail,
                       const rx::model& original) {
  return {{{head, engine}, {tail, "onnxruntime"}}, original.output_names()};
}

int main() {
  cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
  const tutorial::work_dir dir("tutorial-13");
  if (!tutorial::onnxruntime_available(tutorial::onnxruntime_param(dir.path())))
    return tutorial::skipped;
  bool ok = true;

  // 1. An existing detector. Converted, OpenCV still refuses its post-processing; the model
  // is cut ahead of every node it refuses, with all they lead to.
  const auto detector = rx::load(tutorial::data("convert/ssdlite_op13_perturbed.onnx"));
  auto [converted, report] = rc::convert<bk::opencv_dnn>(detector);
  std::printf("%s", rc::summary(report).c_str());
  std::printf("\n");
  auto cut = rc::partition_for<bk::opencv_dnn>(converted);
  std::printf("OpenCV refuses %zu nodes; the cut is ahead of %zu:\n",
              cut.cut_at.size() + cut.behind.size(), cut.cut_at.size());
  for (const auto& r : cut.cut_at) std::printf("  %s: %s\n", r.node.c_str(), r.why.c_str());
  std::printf("head: %zu nodes on OpenCV, giving %zu values; tail: %zu nodes on ONNX Runtime\n",
              cut.parts.head.node_count(), cut.parts.boundary.size(), cut.parts.tail.node_count());
  ok = ok && cut.needed() && rc::refused_nodes<bk::opencv_dnn>(cut.parts.head)->empty();

  // The parts and the pipeline file that runs them (what `retarget convert --partition`
  // writes), run on the test image; ONNX Runtime runs the original for the reference.
  rx::save(cut.parts.head, dir / "ssd.onnx");
  rx::save(cut.parts.tail, dir / "ssd.rest.onnx");
  rb::write_pipeline(two_parts("ssd.onnx", "opencv_dnn", "ssd.rest.onnx", detector),
                     dir / "ssd.pipeline.json");
  const rb::tensor_map image = {{"input", tutorial::load("convert/ssdlite_input.pb")}};
  const auto got = rb::run_model<bk::shipped>({"opencv_dnn+onnxruntime", dir / "ssd.pipeline.json"},
                                              image, dir / "engines");
  rx::save(rx::model(detector), dir / "original.onnx");
  const auto expected =
      rb::run_model<bk::shipped>({"onnxruntime", dir / "original.onnx"}, image, dir / "engines");
  for (const auto& o : rb::compare_outputs(got, expected, {.atol = 1e-5, .rtol = 1e-5})) {
    std::printf("  %s: %s, max abs error %.1e\n", o.name.c_str(),
                rx::format_dims(got.at(o.name).dims()).c_str(), o.difference.max_abs);
    ok = ok && o.difference.passes();
  }

  // 2. A model of our own. The deploy config asks for the marks and names where the
  // backend's part ends (MMDeploy's partition_config, as a retarget deploy config spells it).
  std::ofstream(dir / "srcnn_partition.json") << R"({
    "onnx_config": {"opset_version": 11, "output_names": ["output"]},
    "codebase_config": {"type": "tutorial", "task": "SuperResolution"},
    "backend_config": {"type": "opencv_dnn"},
    "partition_config": {"apply_marks": true,
                         "partition_cfg": [{"save_file": "features.onnx", "end": ["features"]}]}
  })";
  const auto cfg = retarget::config::load_deploy_config(dir / "srcnn_partition.json");
  srcnn model;
  for (auto* conv : {&model.conv1, &model.conv2, &model.conv3}) {
    conv->weight.load(tutorial::data("srcnn/" + conv->weight.name() + ".pb"));
    conv->bias->load(tutorial::data("srcnn/" + conv->bias->name() + ".pb"));
  }
  const retarget::input_spec input[] = {{"input", rx::dtype::f32, {1, 3, 16, 16}}};
  auto exported = retarget::export_onnx<bk::opencv_dnn>(model, input, cfg,
                                                        retarget::config::export_options_for(cfg));
  std::printf("srcnn for opencv_dnn, marks applied: %s\n",
              tutorial::op_types(exported.model).c_str());

  const auto& part = cfg.partition->partition_cfg->front();
  const rx::model_view view(exported.model);
  auto parts = rx::split(exported.model, view, rx::nodes_computing(view, *part.end));
  std::printf("%s: %s\nrest: %s\n", part.save_file->c_str(), tutorial::op_types(parts.head).c_str(),
              tutorial::op_types(parts.tail).c_str());
  rx::save(parts.head, dir / *part.save_file);
  rx::save(parts.tail, dir / "features.rest.onnx");
  rb::write_pipeline(two_parts(*part.save_file, "opencv_dnn", "features.rest.onnx", exported.model),
                     dir / "srcnn.pipeline.json");
  const auto sr =
      rb::run_model<bk::shipped>({"opencv_dnn+onnxruntime", dir / "srcnn.pipeline.json"},
                                 {{"input", tutorial::load("srcnn/input.pb")}}, dir / "engines");
  // OpenCV's rewrite made the upsampler bilinear (tutorial 04): PyTorch's bilinear model is
  // the reference.
  ok = tutorial::compare("pipeline (OpenCV, then ONNX Runtime)", sr.at("output"),
                         tutorial::load("srcnn/output_bilinear.pb")) &&
       ok;
  return tutorial::finish(ok);
}
