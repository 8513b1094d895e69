// Selection of function rewrites: exact backend, fallback chain, default, origin, next(),
// the context's contents, explicit retarget::call, and the rewrite log.
#include <gtest/gtest.h>

#include <retarget/core.hpp>
#include <string>

#include "support/engine_tags.hpp"
#include "support/toy.hpp"

namespace bk = engines;

namespace {

// A function whose every layer says who it is, so a call spells out the path it took.
inline constexpr struct describe_fn : retarget::rewritable<describe_fn, "describe"> {
  std::string origin(const auto&) const { return "origin"; }
} describe;

inline constexpr struct untouched_fn : retarget::rewritable<untouched_fn, "untouched"> {
  int origin(int x) const { return x + 1; }
} untouched;

inline constexpr struct versioned_fn : retarget::rewritable<versioned_fn, "versioned"> {
  std::string origin(const auto&) const { return "origin"; }
} versioned;

// A backend with two fallbacks, one of them itself versioned: mine → tensorrt10 → tensorrt,
// then onnxruntime, then the default.
struct mine : retarget::backend_tag<"mine", bk::tensorrt10, bk::onnxruntime> {};

inline constexpr struct ort_only_fn : retarget::rewritable<ort_only_fn, "ort_only"> {
  std::string origin(const auto&, int) const { return "origin"; }
} ort_only;

}  // namespace

template <>
struct retarget::function_rewrite<describe_fn, bk::tensorrt> {
  static std::string call(const auto& ctx, const auto& x) { return "tensorrt>" + ctx.next(x); }
};
template <>
struct retarget::function_rewrite<describe_fn> {
  static std::string call(const auto& ctx, const auto& x) { return "default>" + ctx.next(x); }
};
template <>
struct retarget::function_rewrite<versioned_fn, bk::tensorrt10> {
  static std::string call(const auto&, const auto&) { return "tensorrt10"; }
};
template <>
struct retarget::function_rewrite<ort_only_fn, bk::onnxruntime> {
  static std::string call(const auto& ctx, const auto&, int) {
    return std::string(ctx.rewrite_name());
  }
};

namespace {

template <class B>
toy::tensor<B> make(toy::session& s, std::vector<std::int64_t> shape = {1}) {
  return {std::move(shape), &s, "x"};
}

TEST(FunctionRewrite, ExactBackendRewriteRunsFirst) {
  toy::session s;
  EXPECT_EQ(describe(make<bk::tensorrt>(s)), "tensorrt>default>origin");
}

TEST(FunctionRewrite, FallbackChainIsFollowed) {
  toy::session s;
  EXPECT_EQ(describe(make<bk::tensorrt10>(s)), "tensorrt>default>origin");
}

TEST(FunctionRewrite, FallbacksAreSearchedDepthFirstInDeclarationOrder) {
  toy::session s;
  EXPECT_EQ(ort_only(make<mine>(s), 0), "onnxruntime");
  EXPECT_EQ(describe(make<mine>(s)), "tensorrt>default>origin");
}

TEST(FunctionRewrite, DefaultRewriteServesBackendsWithoutTheirOwn) {
  toy::session s;
  EXPECT_EQ(describe(make<bk::onnxruntime>(s)), "default>origin");
  EXPECT_EQ(describe(make<bk::opencv_dnn>(s)), "default>origin");
}

TEST(FunctionRewrite, OriginRunsWhenNothingIsDeclared) {
  EXPECT_EQ(untouched(41), 42);
  toy::session s;
  EXPECT_EQ(versioned(make<bk::tensorrt>(s)), "origin");  // tensorrt10's rewrite is not tensorrt's
  EXPECT_EQ(versioned(make<bk::tensorrt10>(s)), "tensorrt10");
  EXPECT_EQ(ort_only(make<bk::tensorrt>(s), 0), "origin");
}

TEST(FunctionRewrite, ArgumentsWithoutBackendUseTheDefaultBackend) {
  EXPECT_EQ(describe(7), "default>origin");
}

TEST(FunctionRewrite, ExplicitBackendOverridesTheCarriedOne) {
  toy::session s;
  const auto x = make<bk::onnxruntime>(s);
  EXPECT_EQ(retarget::call<bk::tensorrt10>(describe, x), "tensorrt>default>origin");
  EXPECT_EQ(retarget::call<bk::opencv_dnn>(describe, 3), "default>origin");
}

// A rewrite that reports what its context holds.
inline constexpr struct probe_fn : retarget::rewritable<probe_fn, "probe"> {
  std::string origin(const auto& ctx, const auto&) const {
    return "origin sees " + std::string(ctx.rewrite_name());
  }
} probe;

}  // namespace

template <>
struct retarget::function_rewrite<probe_fn, bk::tensorrt> {
  static std::string call(const auto& ctx, const auto& x) {
    return std::string(ctx.function_name()) + "|" + std::string(ctx.backend_name()) + "|" +
           std::string(ctx.rewrite_name()) + "|" + std::to_string(ctx.cfg().upscale) + "|" +
           ctx.cfg().resize_mode + "|" + ctx.origin(x);
  }
};

namespace {

TEST(RewriteContext, HoldsConfigNamesAndOrigin) {
  toy::session s;
  s.config.upscale = 3;
  s.config.resize_mode = "bilinear";
  EXPECT_EQ(probe(make<bk::tensorrt10>(s)),
            "probe|tensorrt10|tensorrt|3|bilinear|origin sees origin");
}

TEST(RewriteContext, ExplicitEnvironmentSuppliesConfigAndLog) {
  toy::deploy_config cfg;
  cfg.upscale = 9;
  retarget::rewrite_log log;
  const retarget::rewrite_env env(cfg, &log);
  EXPECT_EQ(retarget::call<bk::tensorrt>(env, probe, 0),
            "probe|tensorrt|tensorrt|9|bicubic|origin sees origin");
  ASSERT_EQ(log.records().size(), 1u);
  EXPECT_EQ(log.records()[0].target, "probe");
}

TEST(RewriteLog, RecordsEachRewriteThatRanWithCounts) {
  toy::session s;
  describe(make<bk::tensorrt10>(s));
  describe(make<bk::tensorrt10>(s));
  describe(make<bk::onnxruntime>(s));
  untouched(1);
  using retarget::rewrite_kind;
  const std::vector<retarget::rewrite_record> expected{
      {rewrite_kind::function, "describe", "tensorrt10", "tensorrt", 2},
      {rewrite_kind::function, "describe", "tensorrt10", "default", 2},
      {rewrite_kind::function, "describe", "onnxruntime", "default", 1},
  };
  EXPECT_EQ(s.log.records(), expected);
}

TEST(RewriteLog, OriginAloneRecordsNothing) {
  toy::session s;
  versioned(make<bk::onnxruntime>(s));
  EXPECT_TRUE(s.log.empty());
}

// Seed 000's repeat_static: a 1-D repeat is rewritten for tensorrt through a 2-D one.
struct shape_ops {
  template <class B>
  static toy::tensor<B> unsqueeze(toy::tensor<B> x, std::size_t axis) {
    x.shape.insert(x.shape.begin() + static_cast<std::ptrdiff_t>(axis), 1);
    return x;
  }
  template <class B>
  static toy::tensor<B> squeeze(toy::tensor<B> x, std::size_t axis) {
    x.shape.erase(x.shape.begin() + static_cast<std::ptrdiff_t>(axis));
    return x;
  }
};

inline constexpr struct repeat_fn : retarget::rewritable<repeat_fn, "repeat"> {
  // Like torch.Tensor.repeat: sizes may add leading dims; each dim is multiplied.
  template <class B>
  toy::tensor<B> origin(toy::tensor<B> x, std::vector<std::int64_t> sizes) const {
    if (sizes.size() < x.rank()) throw std::invalid_argument("repeat: fewer sizes than dims");
    x.shape.insert(x.shape.begin(), sizes.size() - x.rank(), 1);
    for (std::size_t i = 0; i < sizes.size(); ++i) x.shape[i] *= sizes[i];
    x.value = "repeat(" + x.value + ")";
    return x;
  }
} repeat;

}  // namespace

template <>
struct retarget::function_rewrite<repeat_fn, bk::tensorrt> {
  template <class B>
  static toy::tensor<B> call(const auto& ctx, toy::tensor<B> x, std::vector<std::int64_t> sizes) {
    if (x.rank() == 1 && sizes.size() == 1)
      return shape_ops::squeeze(ctx.origin(shape_ops::unsqueeze(x, 0), {1, sizes[0]}), 0);
    return ctx.origin(x, sizes);
  }
};

namespace {

TEST(FunctionRewrite, SeedRepeatStaticKeepsShapeSemantics) {
  toy::session s;
  const auto trt = repeat(make<bk::tensorrt>(s, {5}), {3});
  const auto ort = repeat(make<bk::onnxruntime>(s, {5}), std::vector<std::int64_t>{3});
  EXPECT_EQ(trt.shape, std::vector<std::int64_t>{15});
  EXPECT_EQ(ort.shape, trt.shape);
  const auto trt2 = repeat(make<bk::tensorrt>(s, {2, 5}), std::vector<std::int64_t>{2, 3});
  EXPECT_EQ(trt2.shape, (std::vector<std::int64_t>{4, 15}));
  ASSERT_EQ(s.log.records().size(), 1u);
  EXPECT_EQ(s.log.records()[0].count, 2u);
  EXPECT_EQ(s.log.records()[0].backend, "tensorrt");
}

}  // namespace
