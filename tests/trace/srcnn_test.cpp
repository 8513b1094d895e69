// The tutorial model end to end: SRCNN exported per backend, checked, compared with the op
// sequence torch.onnx.export produces, and run on ONNX Runtime against PyTorch's outputs
// (zoo/srcnn, made by tools/make_srcnn_reference.py).
#include "support/srcnn.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <retarget/retarget.hpp>
#include <thread>

namespace {

namespace bk = retarget::backends;
namespace nn = retarget::nn;
namespace ops = retarget::ops;
namespace rx = retarget::ir;
using retarget::trace::tensor;

using tutorial::data;

// SRCNN as in the seeds: an upsampler, then conv 9x9 64, relu, conv 1x1 32, relu, conv 5x5 3.
using tutorial::srcnn;

// The seeds' NewInterpolate: its scales are a graph input; it defines only its symbolic.
struct new_interpolate : retarget::symbolic_op<new_interpolate, "NewInterpolate"> {
  static rx::value symbolic(rx::graph& g, const rx::value& input, const rx::value& scales) {
    using namespace retarget::literals;
    return g.op("Resize", input, g.op("Constant", "value"_t = rx::empty_f32), scales,
                "coordinate_transformation_mode"_s = "pytorch_half_pixel",
                "cubic_coeff_a"_f = -0.75f, "mode"_s = "cubic", "nearest_mode"_s = "floor");
  }
};

struct strange_srcnn : retarget::rewritable_module<strange_srcnn, "StrangeSuperResolutionNet"> {
  srcnn base;
  template <class B>
  tensor<B> forward(const tensor<B>& x, const tensor<B>& factor) const {
    const auto up = retarget::trace::apply<new_interpolate>(x, factor);
    return base.conv3(base.relu(base.conv2(base.relu(base.conv1(up)))));
  }
};

// A deploy config for the exports; the opencv_dnn package's Upsample rewrite (bilinear, with the
// module's constant scales) needs nothing from it.
struct deploy_config {
  double upscale = 3;
};

}  // namespace

namespace {

std::vector<std::string> op_sequence(const rx::model& m) {
  std::vector<std::string> ops;
  for (const auto& n : m.graph().node()) ops.push_back(n.op_type());
  return ops;
}
std::vector<std::string> torch_ops(const std::string& file) {
  std::ifstream in(data / file);
  std::vector<std::string> ops;
  for (std::string op; in >> op;) ops.push_back(op);
  return ops;
}

std::filesystem::path work_dir(const std::string& name) {
  return std::filesystem::temp_directory_path() /
         ("retarget-srcnn-" + name + "-" + std::to_string(::getpid()));
}

double max_error_on_ort(rx::model& m, const std::string& name, const std::string& reference,
                        std::map<std::string, std::filesystem::path> inputs = {
                            {"input", data / "input.pb"}}) {
  const auto dir = work_dir(name);
  const auto outputs = ort::run(m, dir, inputs);
  std::filesystem::remove_all(dir);
  const double e =
      ort::max_abs_error(outputs.at("output"), retarget::ir::read_tensor_file(data / reference));
  std::cout << name << ": max abs error vs PyTorch on ONNX Runtime: " << e << "\n";
  return e;
}

TEST(Srcnn, DefaultBackendMatchesTorchOpsAndPytorchOnOnnxRuntime) {
  const srcnn model;
  auto result =
      retarget::export_onnx<bk::onnxruntime>(model, {{"input", rx::dtype::f32, {1, 3, 16, 16}}});
  EXPECT_NO_THROW(result.model.check());
  EXPECT_EQ(op_sequence(result.model), torch_ops("torch_ops_bicubic.txt"));
  EXPECT_TRUE(result.report.empty());
  EXPECT_EQ(result.model.metadata("retarget:backend"), "onnxruntime");
  EXPECT_LE(max_error_on_ort(result.model, "static", "output_bicubic.pb"), 1e-4);
}

TEST(Srcnn, TheDefaultBackendItselfExportsTheSame) {
  const srcnn model;
  auto result = retarget::export_onnx<retarget::default_backend>(
      model, {{"input", rx::dtype::f32, {1, 3, 16, 16}}});
  EXPECT_NO_THROW(result.model.check());
  EXPECT_EQ(result.model.metadata("retarget:backend"), "default");
  EXPECT_EQ(op_sequence(result.model), torch_ops("torch_ops_bicubic.txt"));
  EXPECT_LE(max_error_on_ort(result.model, "default", "output_bicubic.pb"), 1e-4);
}

TEST(Srcnn, NamedDynamicHeightAndWidth) {
  const srcnn model;
  auto result = retarget::export_onnx<bk::onnxruntime>(
      model, {{"input", rx::dtype::f32, {1, 3, "height", "width"}}}, retarget::no_config{},
      {.output_names = {"output"}});
  EXPECT_NO_THROW(result.model.check());
  const auto& in = result.model.graph().input(0).type().tensor_type().shape();
  EXPECT_EQ(in.dim(2).dim_param(), "height");
  EXPECT_EQ(op_sequence(result.model), torch_ops("torch_ops_bicubic_dynamic.txt"));
  EXPECT_LE(max_error_on_ort(result.model, "dynamic", "output_bicubic.pb"), 1e-4);
}

TEST(Srcnn, CustomOpWithScalesFromAGraphInput) {
  const strange_srcnn model;
  auto result = retarget::export_onnx<bk::onnxruntime>(
      model, {{"input", rx::dtype::f32, {1, 3, 16, 16}}, {"factor", rx::dtype::f32, {4}}});
  EXPECT_NO_THROW(result.model.check());
  EXPECT_EQ(op_sequence(result.model), torch_ops("torch_ops_factor.txt"));
  EXPECT_LE(max_error_on_ort(result.model, "factor", "output_bicubic.pb",
                             {{"input", data / "input.pb"}, {"factor", data / "factor.pb"}}),
            1e-4);
}

TEST(Srcnn, ModuleRewriteForOpencvDnnUsesTheConfigAndIsReported) {
  const srcnn model;
  const deploy_config cfg{.upscale = 3};
  auto result = retarget::export_onnx<bk::opencv_dnn>(
      model, {{"input", rx::dtype::f32, {1, 3, 16, 16}}}, cfg);
  EXPECT_NO_THROW(result.model.check());
  EXPECT_EQ(op_sequence(result.model), torch_ops("torch_ops_bilinear.txt"));
  const std::vector<retarget::rewrite_record> expected{
      {retarget::rewrite_kind::module, "Upsample", "opencv_dnn", "opencv_dnn", 1}};
  EXPECT_EQ(result.report.records(), expected);
  EXPECT_EQ(result.model.metadata("retarget:rewrites"),
            "module Upsample: opencv_dnn rewrite, 1 call");
  EXPECT_LE(max_error_on_ort(result.model, "bilinear", "output_bilinear.pb"), 1e-4);
}

TEST(Srcnn, RuntimeBackendNameSelectsAmongACompileTimeList) {
  using supported = boost::mp11::mp_list<bk::onnxruntime, bk::opencv_dnn, bk::tensorrt>;
  const srcnn model;
  const deploy_config cfg;
  auto result = retarget::export_onnx<supported>("opencv_dnn", model,
                                                 {{"input", rx::dtype::f32, {1, 3, 16, 16}}}, cfg);
  EXPECT_EQ(result.model.metadata("retarget:backend"), "opencv_dnn");
  try {
    retarget::export_onnx<supported>("opencv", model, {{"input", rx::dtype::f32, {1, 3, 16, 16}}},
                                     cfg);
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_EQ(std::string(e.what()),
              "retarget: unknown backend 'opencv' (closest: opencv_dnn, tensorrt, onnxruntime)");
  }
}

TEST(Srcnn, ConcurrentExportsEqualSequentialOnes) {
  const srcnn model;
  const strange_srcnn strange;
  const deploy_config cfg;
  const auto bytes = [&](int which) {
    auto r = which == 0 ? retarget::export_onnx<bk::opencv_dnn>(
                              model, {{"input", rx::dtype::f32, {1, 3, 16, 16}}}, cfg)
                        : retarget::export_onnx<bk::tensorrt>(
                              strange, {{"input", rx::dtype::f32, {1, 3, "h", "w"}},
                                        {"factor", rx::dtype::f32, {4}}});
    std::string out;
    r.model.materialize().proto().SerializeToString(&out);
    return out;
  };
  const std::string first = bytes(0), second = bytes(1);
  std::vector<std::string> results(8);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) results[static_cast<std::size_t>(t)] = bytes(t % 2);
    });
  for (auto& t : threads) t.join();
  for (int t = 0; t < 8; ++t)
    EXPECT_EQ(results[static_cast<std::size_t>(t)], t % 2 ? second : first) << "thread " << t;
}

TEST(Srcnn, WeightsOfTheWrongShapeAreRefused) {
  nn::Conv2d conv{"conv", 3, 8, {3, 3}};
  try {
    conv.weight.load(data / "conv1.weight.pb");
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "parameter 'conv.weight' is [8, 3, 3, 3], the weights given are [64, 3, 9, 9]"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
