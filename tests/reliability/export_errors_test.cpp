// Bad input to export_onnx: input and output names, dynamic dims, a rewrite that throws (the
// error names the rewrite, what it rewrites and the backend), weights that do not fit the
// input, a deploy config of the wrong type.
#include <gtest/gtest.h>

#include <array>
#include <retarget/retarget.hpp>
#include <stdexcept>

#include "reliability/common.hpp"

// Named, so that both compilers print the same type names.
namespace reliability_test {
struct deploy_config {
  int upscale = 2;
};
struct other_config {};
}  // namespace reliability_test

namespace {

using reliability_test::deploy_config;
using reliability_test::other_config;
namespace bk = retarget::backends;
namespace nn = retarget::nn;
namespace ops = retarget::ops;
namespace rx = retarget::ir;
using reliability::error_of;
template <class B>
using tensor = retarget::trace::tensor<B>;
using T = tensor<bk::onnxruntime>;

const auto add = [](const T& a, const T& b) { return a + b; };

// A rewritable whose tensorrt rewrite emits a MatMul that cannot be: the emitter refuses it.
inline constexpr struct square_fn : retarget::rewritable<square_fn, "square"> {
  template <class B>
  tensor<B> origin(const tensor<B>& x) const {
    return x * x;
  }
} square;

// One whose default rewrite throws an exception of its own.
inline constexpr struct fragile_fn : retarget::rewritable<fragile_fn, "fragile"> {
  template <class B>
  tensor<B> origin(const tensor<B>& x) const {
    return x;
  }
} fragile;

struct plugin_missing : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A module whose opencv_dnn rewrite calls `square`, rewritten for tensorrt only, and `fragile`.
struct block : retarget::rewritable_module<block, "Block"> {
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return square(x);
  }
};
struct fragile_block {
  fragile_block(const block&, const retarget::trace::config_ref&) {}
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return fragile(x);
  }
};

// A module with a rewrite for opencv_dnn that reads the deploy config.
struct upscale : retarget::rewritable_module<upscale, "Upscale"> {
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::interpolate(x, ops::interpolate_options{.scale_factor = {2}, .mode = "bicubic"});
  }
};
struct scaled {
  double factor;
  scaled(const upscale&, const retarget::trace::config_ref& cfg)
      : factor(cfg.as<deploy_config>().upscale) {}
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::interpolate(x,
                            ops::interpolate_options{.scale_factor = {factor}, .mode = "bilinear"});
  }
};

}  // namespace

template <>
struct retarget::function_rewrite<square_fn, bk::tensorrt> {
  template <class B>
  static tensor<B> call(const auto&, const tensor<B>& x) {
    return ops::matmul(x, x);
  }
};
template <>
struct retarget::function_rewrite<fragile_fn> {
  template <class B>
  static tensor<B> call(const auto&, const tensor<B>&) {
    throw plugin_missing("the plugin library is not loaded");
  }
};
template <>
struct retarget::module_rewrite<block, bk::opencv_dnn> : retarget::wrap_with<fragile_block> {};
template <>
struct retarget::module_rewrite<upscale, bk::opencv_dnn> : retarget::wrap_with<scaled> {};

namespace {

TEST(ExportErrors, InputNamesMissingOrDuplicated) {
  EXPECT_EQ(error_of([] {
              retarget::export_onnx<bk::onnxruntime>(
                  add, {{"x", rx::dtype::f32, {2}}, {"", rx::dtype::f32, {2}}});
            }),
            "retarget: input 1 has no name");
  EXPECT_EQ(error_of([] {
              retarget::export_onnx<bk::onnxruntime>(
                  add, {{"", rx::dtype::f32, {2}}, {"", rx::dtype::f32, {2}}});
            }),
            "retarget: input 0 has no name");
  EXPECT_EQ(error_of([] {
              retarget::export_onnx<bk::onnxruntime>(
                  add, {{"x", rx::dtype::f32, {2}}, {"x", rx::dtype::f32, {2}}});
            }),
            "retarget: input name 'x' is used twice");
}

TEST(ExportErrors, OutputNamesDuplicatedOrTaken) {
  const auto both = [](const T& a, const T& b) { return std::array{a + b, a * b}; };
  const retarget::input_spec inputs[] = {{"x", rx::dtype::f32, {2}}, {"y", rx::dtype::f32, {2}}};
  EXPECT_EQ(error_of([&] {
              retarget::export_onnx<bk::onnxruntime>(both, inputs, retarget::no_config{},
                                                     {.output_names = {"z", "z"}});
            }),
            "retarget: output name 'z' is used twice");
  EXPECT_EQ(error_of([&] {
              retarget::export_onnx<bk::onnxruntime>(both, inputs, retarget::no_config{},
                                                     {.output_names = {"x"}});
            }),
            "retarget: output name 'x' is also an input's name");
  EXPECT_EQ(error_of([&] {
              retarget::export_onnx<bk::onnxruntime>(add, inputs, retarget::no_config{},
                                                     {.output_names = {"p", "q"}});
            }),
            "retarget: 2 output names given for 1 output");
  // The default name "output" taken by an input.
  EXPECT_EQ(error_of([] {
              retarget::export_onnx<bk::onnxruntime>(
                  add, {{"output", rx::dtype::f32, {2}}, {"y", rx::dtype::f32, {2}}});
            }),
            "retarget: graph output name 'output' is already the name of another value");
  // An input returned as it is may keep its own name.
  const auto same = [](const T& a) { return a; };
  auto r = retarget::export_onnx<bk::onnxruntime>(same, {{"a", rx::dtype::f32, {2}}},
                                                  retarget::no_config{}, {.output_names = {"a"}});
  EXPECT_NO_THROW(r.model.check());
}

TEST(ExportErrors, OutputDynamicAxesNameOutputsAndTheirAxes) {
  const retarget::input_spec inputs[] = {{"x", rx::dtype::f32, {2, 3}},
                                         {"y", rx::dtype::f32, {2, 3}}};
  EXPECT_EQ(error_of([&] {
              retarget::export_onnx<bk::onnxruntime>(
                  add, inputs, retarget::no_config{},
                  {.output_dynamic_axes = {{"output", {{2, "depth"}}}}});
            }),
            "retarget: export option output_dynamic_axes.output.2 is not an axis of output "
            "'output', which has rank 2");
  EXPECT_EQ(error_of([&] {
              retarget::export_onnx<bk::onnxruntime>(
                  add, inputs, retarget::no_config{},
                  {.output_dynamic_axes = {{"outptu", {{0, "batch"}}}}});
            }),
            "retarget: export option output_dynamic_axes.outptu names no output (closest: "
            "output)");
  auto r = retarget::export_onnx<bk::onnxruntime>(
      add, inputs, retarget::no_config{}, {.output_dynamic_axes = {{"output", {{0, "batch"}}}}});
  EXPECT_EQ(r.model.graph().output(0).type().tensor_type().shape().dim(0).dim_param(), "batch");
  EXPECT_EQ(r.model.graph().output(0).type().tensor_type().shape().dim(1).dim_value(), 3);
}

TEST(ExportErrors, InputNamedLikeAParameterLeavesTheParameterAnotherName) {
  const nn::Linear fc("fc", 4, 2);
  const auto model = [&](const T& x) { return fc(x); };
  auto r = retarget::export_onnx<bk::onnxruntime>(model, {{"fc.weight", rx::dtype::f32, {1, 4}}});
  EXPECT_NO_THROW(r.model.check());
  std::vector<std::string> names;
  for (const auto& init : r.model.graph().initializer()) names.push_back(init.name());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"fc.bias", "fc.weight_1"}));
}

TEST(ExportErrors, DynamicDims) {
  // The same name means the same size; where static sizes contradict each other, the error
  // shows the shapes the op was given.
  EXPECT_EQ(error_of([] {
              retarget::export_onnx<bk::onnxruntime>(
                  add, {{"x", rx::dtype::f32, {"n", 3}}, {"y", rx::dtype::f32, {"n", 4}}});
            }),
            "retarget: Add (opset 17): shape inference failed: [ShapeInferenceError] Incompatible "
            "dimensions "
            "(inputs: x float32 [n, 3], y float32 [n, 4])");
  EXPECT_EQ(error_of([] {
              retarget::export_onnx<bk::onnxruntime>(
                  add, {{"x", rx::dtype::f32, {-3}}, {"y", rx::dtype::f32, {2}}});
            }),
            "retarget: input 'x' dim 0 is -3: a size is at least 0; name a dynamic dim instead");
  // Dim names live apart from value names: a dim may be named like an input.
  auto r = retarget::export_onnx<bk::onnxruntime>(
      add, {{"x", rx::dtype::f32, {"y", 3}}, {"y", rx::dtype::f32, {"y", 3}}});
  EXPECT_NO_THROW(r.model.check());
  EXPECT_EQ(r.model.graph().output(0).type().tensor_type().shape().dim(0).dim_param(), "y");
}

TEST(ExportErrors, ARewriteThatThrowsIsNamedWithItsBackend) {
  const auto model = [](const auto& x) { return square(x); };
  EXPECT_EQ(error_of([&] {
              retarget::export_onnx<bk::tensorrt10>(model, {{"x", rx::dtype::f32, {2, 3}}});
            }),
            "retarget: function 'square', tensorrt rewrite (backend tensorrt10): MatMul (opset "
            "17): shape inference "
            "failed: [ShapeInferenceError] Incompatible dimensions for matrix multiplication "
            "(inputs: x float32 [2, 3], x float32 [2, 3])");
  // The other backends run the origin, which is fine.
  EXPECT_NO_THROW(retarget::export_onnx<bk::onnxruntime>(model, {{"x", rx::dtype::f32, {2, 3}}}));
}

TEST(ExportErrors, AnExceptionOfItsOwnStaysReachableInside) {
  const block b;
  const auto model = [&](const auto& x) { return b(x); };
  try {
    retarget::export_onnx<bk::opencv_dnn>(model, {{"x", rx::dtype::f32, {2}}});
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    // Nested rewrites each add their name: the module's, then the function's.
    EXPECT_STREQ(e.what(),
                 "retarget: module 'Block', opencv_dnn rewrite (backend opencv_dnn): function "
                 "'fragile', default "
                 "rewrite (backend opencv_dnn): the plugin library is not loaded");
    // The rewrite's own exception is the innermost nested one.
    try {
      std::rethrow_if_nested(e);
      FAIL() << "nothing nested";
    } catch (const retarget::error& inner) {
      EXPECT_STREQ(inner.what(),
                   "retarget: function 'fragile', default rewrite (backend opencv_dnn): the plugin "
                   "library is not loaded");
      EXPECT_THROW(std::rethrow_if_nested(inner), plugin_missing);
    }
  }
}

TEST(ExportErrors, WeightsThatDoNotFitTheInput) {
  const nn::Conv2d conv("conv", 3, 8, {3, 3});
  const auto conv_model = [&](const T& x) { return conv(x); };
  EXPECT_EQ(
      error_of([&] {
        retarget::export_onnx<bk::onnxruntime>(conv_model, {{"x", rx::dtype::f32, {1, 4, 8, 8}}});
      }),
      "retarget: conv: the input 'x' [1, 4, 8, 8] has 4 channels, the weight 'conv.weight' [8, 3, "
      "3, 3] takes 3 "
      "(groups 1)");
  EXPECT_EQ(
      error_of([&] {
        retarget::export_onnx<bk::onnxruntime>(conv_model, {{"x", rx::dtype::f32, {3, 8, 8}}});
      }),
      "retarget: conv: the input 'x' [3, 8, 8] and the weight 'conv.weight' [8, 3, 3, 3] must have "
      "the same rank, "
      "at least 3");
  // Dynamic channels cannot be checked at export; the runtime will.
  EXPECT_NO_THROW(
      retarget::export_onnx<bk::onnxruntime>(conv_model, {{"x", rx::dtype::f32, {1, "c", 8, 8}}}));

  const nn::ConvTranspose2d up("up", 8, 4, {2, 2}, {.stride = {2}});
  const auto up_model = [&](const T& x) { return up(x); };
  EXPECT_EQ(
      error_of([&] {
        retarget::export_onnx<bk::onnxruntime>(up_model, {{"x", rx::dtype::f32, {1, 4, 8, 8}}});
      }),
      "retarget: conv_transpose: the input 'x' [1, 4, 8, 8] has 4 channels, the weight 'up.weight' "
      "[8, 4, 2, 2] "
      "takes 8 (groups 1)");

  const nn::Linear fc("fc", 4, 2);
  const auto fc_model = [&](const T& x) { return fc(x); };
  EXPECT_EQ(error_of([&] {
              retarget::export_onnx<bk::onnxruntime>(fc_model, {{"x", rx::dtype::f32, {1, 5}}});
            }),
            "retarget: linear: the input 'x' [1, 5] has 5 features, the weight 'fc.weight' [2, 4] "
            "takes 4");

  // A bias that does not match the weight (ops called directly, with tensors of the graph).
  const auto bad_bias = [](const T& x, const T& w, const T& b) { return ops::conv2d(x, w, b); };
  EXPECT_EQ(error_of([&] {
              retarget::export_onnx<bk::onnxruntime>(bad_bias, {{"x", rx::dtype::f32, {1, 3, 8, 8}},
                                                                {"w", rx::dtype::f32, {8, 3, 3, 3}},
                                                                {"b", rx::dtype::f32, {5}}});
            }),
            "retarget: conv: the bias 'b' [5] does not fit the weight 'w' [8, 3, 3, 3]: it needs 8 "
            "values");

  // Loading weights of another shape is refused before any export.
  nn::Conv2d loaded("conv", 3, 8, {3, 3});
  EXPECT_EQ(
      error_of([&] {
        loaded.weight.assign(rx::tensor::of(std::vector<float>(64 * 27), {64, 3, 3, 3}));
      }),
      "retarget: parameter 'conv.weight' is [8, 3, 3, 3], the weights given are [64, 3, 3, 3]");
}

TEST(ExportErrors, DeployConfigOfTheWrongTypeOrAbsent) {
  const upscale up;
  const auto model = [&](const tensor<bk::opencv_dnn>& x) { return up(x); };
  EXPECT_EQ(error_of([&] {
              retarget::export_onnx<bk::opencv_dnn>(model, {{"x", rx::dtype::f32, {1, 3, 4, 4}}});
            }),
            "retarget: module 'Upscale', opencv_dnn rewrite (backend opencv_dnn): the deploy "
            "config is absent, not "
            "the reliability_test::deploy_config a rewrite asked for");
  EXPECT_EQ(
      error_of([&] {
        retarget::export_onnx<bk::opencv_dnn>(model, {{"x", rx::dtype::f32, {1, 3, 4, 4}}},
                                              other_config{});
      }),
      "retarget: module 'Upscale', opencv_dnn rewrite (backend opencv_dnn): the deploy config is "
      "reliability_test::other_config, not the reliability_test::deploy_config a rewrite asked "
      "for");
  EXPECT_NO_THROW(retarget::export_onnx<bk::opencv_dnn>(
      model, {{"x", rx::dtype::f32, {1, 3, 4, 4}}}, deploy_config{}));
}

TEST(ExportErrors, OpsetAndBackendNames) {
  const retarget::input_spec inputs[] = {{"x", rx::dtype::f32, {2}}, {"y", rx::dtype::f32, {2}}};
  EXPECT_EQ(error_of([&] {
              retarget::export_onnx<bk::onnxruntime>(add, inputs, retarget::no_config{},
                                                     {.opset = 6});
            }),
            "retarget: export opset 6 is out of range: 7 to 17");
  using supported = boost::mp11::mp_list<bk::onnxruntime, bk::tensorrt>;
  const auto generic = [](const auto& a, const auto& b) { return a + b; };
  EXPECT_EQ(error_of([&] { retarget::export_onnx<supported>("tensorrt8", generic, inputs); }),
            "retarget: unknown backend 'tensorrt8' (closest: tensorrt, onnxruntime)");
}

}  // namespace
