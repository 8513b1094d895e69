// Rewrites during export: a function rewrite for one backend applied only there, a default
// rewrite, ctx.origin and ctx.next, a symbolic rewrite, and a report listing exactly what
// fired; the rewritten exports still compute the same on ONNX Runtime.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <retarget/retarget.hpp>
#include <vector>

#include "support/ort.hpp"

namespace {

namespace bk = retarget::backends;
namespace nn = retarget::nn;
namespace ops = retarget::ops;
namespace rx = retarget::ir;
using retarget::trace::tensor;
using T = tensor<bk::onnxruntime>;

std::vector<std::string> op_sequence(const rx::model& m) {
  std::vector<std::string> out;
  for (const auto& n : m.graph().node())
    if (n.op_type() != "Constant") out.push_back(n.op_type());
  return out;
}

// The int64 values of a tensor, stored as int64_data or as little-endian raw bytes.
std::vector<std::int64_t> int64_values(const onnx::TensorProto& t) {
  if (t.data_type() != onnx::TensorProto::INT64)
    throw retarget::error("not an int64 tensor: " + t.name());
  if (!t.has_raw_data()) return {t.int64_data().begin(), t.int64_data().end()};
  std::vector<std::int64_t> out(t.raw_data().size() / sizeof(std::int64_t));
  std::memcpy(out.data(), t.raw_data().data(), out.size() * sizeof(std::int64_t));
  return out;
}

// A Squeeze's axes: its attribute before opset 13, its second input after, which is an
// initializer or a Constant's output. Empty when it has none.
std::vector<std::int64_t> squeeze_axes(const rx::model& m, const onnx::NodeProto& squeeze) {
  for (const auto& a : squeeze.attribute())
    if (a.name() == "axes") return {a.ints().begin(), a.ints().end()};
  if (squeeze.input_size() < 2 || squeeze.input(1).empty()) return {};
  const auto& name = squeeze.input(1);
  for (const auto& init : m.graph().initializer())
    if (init.name() == name) return int64_values(init);
  for (const auto& n : m.graph().node())
    if (n.op_type() == "Constant" && n.output_size() == 1 && n.output(0) == name)
      for (const auto& a : n.attribute())
        if (a.name() == "value") return int64_values(a.t());
  throw retarget::error("the Squeeze axes '" + name +
                        "' are neither an initializer nor a Constant");
}

// Seed 000's model: a 1-D repeat.
struct repeat_model : retarget::rewritable_module<repeat_model, "RepeatModel"> {
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::repeat(x, ops::ints{3});
  }
};

// A model that squeezes with no dims given, for the symbolic rewrites.
struct squeeze_model : retarget::rewritable_module<squeeze_model, "SqueezeModel"> {
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::squeeze(ops::relu(x));
  }
};

}  // namespace

// Seed 000's repeat_static (for tensorrt, a 1-D repeat goes through 2-D) comes with the
// tensorrt package.

// A default rewrite of relu, for every backend without its own: clamp at 0 from below; for
// opencv_dnn, a rewrite that defers to it with ctx.next.
template <>
struct retarget::function_rewrite<ops::relu_fn> {
  template <class B>
  static tensor<B> call(const auto&, const tensor<B>& x) {
    return ops::clamp(x, std::optional<double>(0.0));
  }
};
template <>
struct retarget::function_rewrite<ops::relu_fn, bk::opencv_dnn> {
  template <class B>
  static tensor<B> call(const auto& ctx, const tensor<B>& x) {
    return ctx.next(x);
  }
};
// tensorrt keeps the plain Relu: its rewrite calls the origin.
template <>
struct retarget::function_rewrite<ops::relu_fn, bk::tensorrt> {
  template <class B>
  static tensor<B> call(const auto& ctx, const tensor<B>& x) {
    return ctx.origin(x);
  }
};

// Seed 000's squeeze symbolic: with no dims, the axes of static size 1, explicitly.
template <>
struct retarget::symbolic_rewrite<retarget::symbolics::squeeze, bk::tensorrt> {
  static rx::value call(const auto& ctx, rx::graph& g, const rx::value& x,
                        const std::optional<ops::ints>& dims = std::nullopt) {
    if (dims) return ctx.origin(g, x, dims);
    ops::ints axes;
    const auto shape = x.shape();
    for (std::size_t i = 0; i < shape.size(); ++i)
      if (shape[i].is_static() && shape[i].size == 1) axes.push_back(static_cast<std::int64_t>(i));
    return ctx.origin(g, x, std::optional(axes));
  }
};

namespace {

TEST(ExportRewrites, FunctionRewriteAppliesToItsBackendOnly) {
  const repeat_model model;
  auto trt = retarget::export_onnx<bk::tensorrt>(model, {{"x", rx::dtype::f32, {5}}});
  auto ort = retarget::export_onnx<bk::onnxruntime>(model, {{"x", rx::dtype::f32, {5}}});
  EXPECT_EQ(op_sequence(trt.model), (std::vector<std::string>{"Unsqueeze", "Tile", "Squeeze"}));
  EXPECT_EQ(op_sequence(ort.model), std::vector<std::string>{"Tile"});
  // The repeat rewrite squeezes, and tensorrt's squeeze symbolic rewrite fires for it.
  EXPECT_EQ(
      trt.model.metadata("retarget:rewrites"),
      "function repeat: tensorrt rewrite, 1 call; symbolic squeeze: tensorrt rewrite, 1 call");
  EXPECT_EQ(ort.model.metadata("retarget:rewrites"), "");
  EXPECT_NO_THROW(trt.model.check());

  // tensorrt10 reaches tensorrt's rewrite through its fallback chain.
  auto trt10 = retarget::export_onnx<bk::tensorrt10>(model, {{"x", rx::dtype::f32, {5}}});
  EXPECT_EQ(trt10.report.records().at(0).backend, "tensorrt10");
  EXPECT_EQ(trt10.report.records().at(0).rewrite, "tensorrt");
}

TEST(ExportRewrites, RewrittenAndPlainExportsComputeTheSame) {
  const repeat_model model;
  auto trt = retarget::export_onnx<bk::tensorrt>(model, {{"x", rx::dtype::f32, {5}}});
  auto ort = retarget::export_onnx<bk::onnxruntime>(model, {{"x", rx::dtype::f32, {5}}});
  const auto dir =
      std::filesystem::temp_directory_path() / ("retarget-rewrite-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  rx::tensor x = rx::tensor::of<float>({1, 2, 3, 4, 5}, {5});
  {
    std::ofstream f(dir / "x.pb", std::ios::binary);
    x.proto().SerializeToOstream(&f);
  }
  const auto a = ort::run(trt.model, dir / "trt", {{"x", dir / "x.pb"}}).at("output");
  const auto b = ort::run(ort.model, dir / "ort", {{"x", dir / "x.pb"}}).at("output");
  std::filesystem::remove_all(dir);
  EXPECT_EQ(a.dims(), rx::dims_t{15});
  EXPECT_EQ(ort::max_abs_error(a, b), 0.0);
}

TEST(ExportRewrites, DefaultRewriteNextAndOriginAreReportedExactly) {
  const squeeze_model model;
  const auto ops_of = [&]<class B>(B) {
    return retarget::export_onnx<B>(model, {{"x", rx::dtype::f32, {1, 3, 1, 4}}});
  };
  auto ort = ops_of(bk::onnxruntime{});
  auto cv = ops_of(bk::opencv_dnn{});
  auto trt = ops_of(bk::tensorrt{});
  EXPECT_EQ(op_sequence(ort.model), (std::vector<std::string>{"Clip", "Squeeze"}));  // the default
  EXPECT_EQ(op_sequence(cv.model),
            (std::vector<std::string>{"Clip", "Squeeze"}));  // next → default
  EXPECT_EQ(op_sequence(trt.model), (std::vector<std::string>{"Relu", "Squeeze"}));  // origin
  EXPECT_EQ(ort.model.metadata("retarget:rewrites"), "function relu: default rewrite, 1 call");
  EXPECT_EQ(cv.model.metadata("retarget:rewrites"),
            "function relu: opencv_dnn rewrite, 1 call; function relu: default rewrite, 1 call");
  EXPECT_EQ(trt.model.metadata("retarget:rewrites"),
            "function relu: tensorrt rewrite, 1 call; symbolic squeeze: tensorrt rewrite, 1 call");
  // The symbolic rewrite gave Squeeze its axes explicitly: [0, 2].
  const auto& squeeze = trt.model.graph().node(trt.model.graph().node_size() - 1);
  ASSERT_EQ(squeeze.op_type(), "Squeeze");
  EXPECT_EQ(squeeze.input_size(), 2);
  EXPECT_EQ(squeeze_axes(trt.model, squeeze), (std::vector<std::int64_t>{0, 2}));
  // Without the rewrite, the Squeeze has none.
  const auto& plain = ort.model.graph().node(ort.model.graph().node_size() - 1);
  ASSERT_EQ(plain.op_type(), "Squeeze");
  EXPECT_TRUE(squeeze_axes(ort.model, plain).empty());
  for (const auto* m : {&ort.model, &cv.model, &trt.model}) EXPECT_NO_THROW(m->check());
  EXPECT_EQ(trt.model.graph().output(0).type().tensor_type().shape().dim_size(), 2);
}

}  // namespace

namespace {

// Modules of the library in a Sequential, and size queries: static when known, a Shape
// node when not.
TEST(ExportModules, SequentialOfLibraryModulesExportsAndChecks) {
  const nn::Sequential model(
      nn::Conv2d("conv", 3, 8, {3, 3}, {.padding = {1}}), nn::BatchNorm2d("bn", 8), nn::SiLU{},
      nn::MaxPool2d({.kernel_size = {2}}), nn::Dropout{},
      nn::ConvTranspose2d("up", 8, 4, {2, 2}, {.stride = {2}}), nn::LeakyReLU(0.1),
      nn::AvgPool2d({.kernel_size = {2}}), nn::Hardswish{});
  auto result =
      retarget::export_onnx<bk::onnxruntime>(model, {{"x", rx::dtype::f32, {"batch", 3, 16, 16}}});
  EXPECT_NO_THROW(result.model.check());
  EXPECT_EQ(op_sequence(result.model),
            (std::vector<std::string>{"Conv", "BatchNormalization", "Sigmoid", "Mul", "MaxPool",
                                      "ConvTranspose", "LeakyRelu", "AveragePool", "HardSwish"}));
  const auto& out = result.model.graph().output(0).type().tensor_type().shape();
  EXPECT_EQ(out.dim(0).dim_param(), "batch");
  EXPECT_EQ(out.dim(1).dim_value(), 4);
  EXPECT_EQ(out.dim(3).dim_value(), 8);
  EXPECT_EQ(result.model.graph().initializer_size(), 8);  // conv w, b; bn w, b, mean, var; up w, b
}

TEST(ExportModules, SizeIsStaticWhenKnownAndAShapeNodeWhenNot) {
  const auto model = [](const T& x) {
    const auto channels = ops::size(x, 1);
    const auto batch = ops::size(x, 0);
    EXPECT_EQ(std::get<std::int64_t>(channels), 3);
    EXPECT_TRUE(std::holds_alternative<T>(batch));
    return std::get<T>(batch);
  };
  auto result = retarget::export_onnx<bk::onnxruntime>(model, {{"x", rx::dtype::f32, {"n", 3}}});
  EXPECT_NO_THROW(result.model.check());
  EXPECT_EQ(op_sequence(result.model), (std::vector<std::string>{"Shape", "Gather"}));
  EXPECT_EQ(result.model.graph().output(0).type().tensor_type().elem_type(),
            onnx::TensorProto::INT64);
}

TEST(ExportModules, BadInputsAreRefused) {
  const auto model = [](const T& a, const T& b) { return a + b; };
  EXPECT_THROW(retarget::export_onnx<bk::onnxruntime>(
                   model, {{"x", rx::dtype::f32, {2}}, {"x", rx::dtype::f32, {2}}}),
               retarget::error);
  EXPECT_THROW(retarget::export_onnx<bk::onnxruntime>(
                   model, {{"", rx::dtype::f32, {2}}, {"y", rx::dtype::f32, {2}}}),
               retarget::error);
  EXPECT_THROW(retarget::export_onnx<bk::onnxruntime>(
                   model, {{"x", rx::dtype::f32, {2}}, {"y", rx::dtype::f32, {3}}}),
               retarget::error);  // shapes that do not broadcast
  EXPECT_THROW(retarget::export_onnx<bk::onnxruntime>(
                   model, {{"x", rx::dtype::f32, {2}}, {"y", rx::dtype::f32, {2}}},
                   retarget::no_config{}, {.opset = 6}),
               retarget::error);
}

}  // namespace
