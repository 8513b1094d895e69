// Module rewrites: every instance of a module type called under a backend goes through the
// wrapper, however deep it sits; the wrapper gets the module, the config and extra arguments.
#include <gtest/gtest.h>

#include <retarget/core.hpp>

#include "support/engine_tags.hpp"
#include "support/toy.hpp"

namespace bk = engines;

namespace {

// The model tree: srcnn { upsampler, conv } and a two-stage model holding two srcnn's.
struct upsampler : retarget::rewritable_module<upsampler, "upsampler"> {
  int factor = 2;
  template <class B>
  toy::tensor<B> forward(toy::tensor<B> x) const {
    x.value = "bicubic" + std::to_string(factor) + "(" + x.value + ")";
    return x;
  }
};

struct conv : retarget::rewritable_module<conv> {
  template <class B>
  toy::tensor<B> forward(toy::tensor<B> x) const {
    x.value = "conv(" + x.value + ")";
    return x;
  }
};

struct srcnn : retarget::rewritable_module<srcnn, "srcnn"> {
  upsampler up;
  conv body;
  template <class B>
  toy::tensor<B> forward(toy::tensor<B> x) const {
    return body(up(x));
  }
};

struct two_stage : retarget::rewritable_module<two_stage> {
  srcnn first, second;
  template <class B>
  toy::tensor<B> forward(toy::tensor<B> x) const {
    return second(first(x));
  }
};

// The seeds' idea: for opencv_dnn, resize bilinearly with the factor from the config, plus a
// constant offset given as the rewrite's extra constructor argument.
struct bilinear_upsampler {
  const upsampler& original;
  int factor;
  bilinear_upsampler(const upsampler& m, const toy::deploy_config& cfg, int extra)
      : original(m), factor(cfg.upscale + extra) {}
  template <class B>
  toy::tensor<B> forward(toy::tensor<B> x) {
    x.value = "bilinear" + std::to_string(factor) + "(" + x.value + ")";
    return x;
  }
};

// A default module rewrite: every backend without its own gets it.
struct traced_conv {
  const conv& original;
  traced_conv(const conv& m, const auto&) : original(m) {}
  template <class B>
  toy::tensor<B> forward(toy::tensor<B> x) {
    auto y = original.forward(x);  // the module's own forward, not a second dispatch
    y.value = "traced-" + y.value;
    return y;
  }
};

}  // namespace

template <>
struct retarget::module_rewrite<upsampler, bk::opencv_dnn>
    : retarget::wrap_with<bilinear_upsampler, 10> {};
template <>
struct retarget::module_rewrite<conv> : retarget::wrap_with<traced_conv> {};
template <>
struct retarget::module_rewrite<conv, bk::tensorrt> {
  using wrapper = traced_conv;
};

namespace {

template <class B>
toy::tensor<B> input(toy::session& s) {
  return {{1, 3, 8, 8}, &s, "x"};
}

TEST(ModuleRewrite, ReplacesEveryNestedInstanceForItsBackend) {
  toy::session s;
  s.config.upscale = 3;
  const two_stage model;
  EXPECT_EQ(model(input<bk::opencv_dnn>(s)).value,
            "traced-conv(bilinear13(traced-conv(bilinear13(x))))");
  using retarget::rewrite_kind;
  const std::vector<retarget::rewrite_record> expected{
      {rewrite_kind::module, "upsampler", "opencv_dnn", "opencv_dnn", 2},
      {rewrite_kind::module, "conv", "opencv_dnn", "default", 2},
  };
  EXPECT_EQ(s.log.records(), expected);
}

TEST(ModuleRewrite, OtherBackendsKeepTheOriginalModule) {
  toy::session s;
  const two_stage model;
  EXPECT_EQ(model(input<bk::onnxruntime>(s)).value,
            "traced-conv(bicubic2(traced-conv(bicubic2(x))))");
}

TEST(ModuleRewrite, BackendRewriteFollowsTheFallbackChain) {
  toy::session s;
  const srcnn model;
  EXPECT_EQ(model(input<bk::tensorrt10>(s)).value, "traced-conv(bicubic2(x))");
  ASSERT_EQ(s.log.records().size(), 1u);
  EXPECT_EQ(s.log.records()[0].rewrite, "tensorrt");
}

TEST(ModuleRewrite, ConfigReachesTheWrapperAtEachCall) {
  toy::session s;
  upsampler up;
  up.factor = 5;
  s.config.upscale = 1;
  EXPECT_EQ(up(input<bk::opencv_dnn>(s)).value, "bilinear11(x)");
  s.config.upscale = 2;
  EXPECT_EQ(up(input<bk::opencv_dnn>(s)).value, "bilinear12(x)");
  EXPECT_EQ(up(input<bk::tensorrt>(s)).value, "bicubic5(x)");
}

}  // namespace
