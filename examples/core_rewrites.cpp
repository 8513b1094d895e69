// A tour of retarget's core, with a tensor that knows only its shape.
//
// The three kinds of rewrites of "How to support new models", declared as types:
//   1. a function rewrite: `repeat` on a 1-D tensor, rewritten for tensorrt through 2-D;
//   2. a module rewrite: SRCNN's bicubic upsampler replaced for opencv_dnn by a bilinear one
//      whose factor comes from the deploy config;
//   3. a symbolic rewrite: `squeeze` with no axes emits the static size-1 axes explicitly.
// The same model is run for three backends and each run prints what fired.
#include <cstdint>
#include <cstdio>
#include <retarget/core.hpp>
#include <stdexcept>
#include <string>
#include <vector>

// Core knows no engine: a program names the ones it targets with tags of its own (the
// engines retarget ships declare theirs in retarget/backends/NAME.hpp, with their rewrites).
namespace bk {
struct onnxruntime : retarget::backend_tag<"onnxruntime"> {};
struct opencv_dnn : retarget::backend_tag<"opencv_dnn"> {};
struct tensorrt : retarget::backend_tag<"tensorrt"> {};
struct tensorrt10 : retarget::backend_tag<"tensorrt10", tensorrt> {};
}  // namespace bk
using shape_t = std::vector<std::int64_t>;

// --- The stand-in for a traced tensor: a shape, the backend in the type, and a session ---

struct deploy_config {
  int upscale = 3;
};

struct session {
  deploy_config config;
  retarget::rewrite_log log;
  std::vector<std::string> nodes;  // what the symbolics emitted
};

template <class Backend>
struct tensor {
  shape_t shape;
  session* owner;
};

// Telling retarget which backend a tensor is traced for makes every call with it dispatch
// statically, and hands rewrites the session's config and log.
template <class B>
struct retarget::dispatch_traits<tensor<B>> {
  using backend = B;
  static auto env(const tensor<B>& t) {
    return retarget::rewrite_env(t.owner->config, &t.owner->log);
  }
};

std::string to_string(const shape_t& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// --- 1. A rewritable function and its tensorrt rewrite ---

template <class B>
tensor<B> unsqueeze(tensor<B> x, std::size_t axis) {
  x.shape.insert(x.shape.begin() + static_cast<std::ptrdiff_t>(axis), 1);
  return x;
}

inline constexpr struct repeat_fn : retarget::rewritable<repeat_fn, "repeat"> {
  // The origin: torch.Tensor.repeat's shape rule.
  template <class B>
  tensor<B> origin(tensor<B> x, const shape_t& sizes) const {
    if (sizes.size() < x.shape.size()) throw std::invalid_argument("repeat: fewer sizes than dims");
    x.shape.insert(x.shape.begin(), sizes.size() - x.shape.size(), 1);
    for (std::size_t i = 0; i < sizes.size(); ++i) x.shape[i] *= sizes[i];
    return x;
  }
} repeat;

inline constexpr struct squeeze_fn : retarget::rewritable<squeeze_fn, "squeeze"> {
  template <class B>
  tensor<B> origin(tensor<B> x, std::size_t axis) const {
    x.shape.erase(x.shape.begin() + static_cast<std::ptrdiff_t>(axis));
    return x;
  }
} squeeze;

template <>
struct retarget::function_rewrite<repeat_fn, bk::tensorrt> {
  template <class B>
  static tensor<B> call(const auto& ctx, tensor<B> x, const shape_t& sizes) {
    if (x.shape.size() == 1 && sizes.size() == 1)
      return squeeze(ctx.origin(unsqueeze(x, 0), {1, sizes[0]}), 0);
    return ctx.origin(x, sizes);
  }
};

// --- 2. Modules, and a module rewrite ---

struct upsample : retarget::rewritable_module<upsample, "Upsample"> {
  int factor = 4;
  template <class B>
  tensor<B> forward(tensor<B> x) const {
    x.owner->nodes.push_back("Resize(cubic, x" + std::to_string(factor) + ")");
    x.shape[2] *= factor;
    x.shape[3] *= factor;
    return x;
  }
};

struct srcnn : retarget::rewritable_module<srcnn, "SRCNN"> {
  upsample img_upsampler;
  template <class B>
  tensor<B> forward(tensor<B> x) const {
    x = img_upsampler(x);
    x.owner->nodes.push_back("Conv x3");
    return x;
  }
};

// For opencv_dnn: bilinear, with the factor taken from the deploy config.
struct bilinear_upsample {
  int factor;
  bilinear_upsample(const upsample&, const deploy_config& cfg) : factor(cfg.upscale) {}
  template <class B>
  tensor<B> forward(tensor<B> x) const {
    x.owner->nodes.push_back("Resize(linear, x" + std::to_string(factor) + ")");
    x.shape[2] *= factor;
    x.shape[3] *= factor;
    return x;
  }
};

template <>
struct retarget::module_rewrite<upsample, bk::opencv_dnn> : retarget::wrap_with<bilinear_upsample> {
};

// --- 3. A symbolic op and its default symbolic rewrite ---

struct squeeze_op : retarget::symbolic_op<squeeze_op, "squeeze"> {
  template <class B>
  static void symbolic(session& g, const tensor<B>&) {
    g.nodes.push_back("Squeeze");
  }
};

template <>
struct retarget::symbolic_rewrite<squeeze_op> {
  template <class B>
  static void call(const auto&, session& g, const tensor<B>& x) {
    std::string axes;
    for (std::size_t i = 0; i < x.shape.size(); ++i)
      if (x.shape[i] == 1) axes += (axes.empty() ? "" : ",") + std::to_string(i);
    g.nodes.push_back("Squeeze(axes=[" + axes + "])");
  }
};

// --- The same model for three backends ---

template <class B>
bool run(const char* expected_output, const char* expected_upsampler) {
  session s;
  const srcnn model;
  const tensor<B> image{{1, 3, 8, 8}, &s};
  const auto y = model(image);
  squeeze_op{}(s, y);
  const auto r = repeat(tensor<B>{{5}, &s}, {3});

  std::printf("%s:\n  SRCNN %s -> %s; repeat([5], [3]) -> %s\n  nodes:", B::name.data(),
              to_string(image.shape).c_str(), to_string(y.shape).c_str(),
              to_string(r.shape).c_str());
  for (const auto& n : s.nodes) std::printf(" %s;", n.c_str());
  std::printf("\n  rewrites:");
  for (const auto& rec : s.log.records())
    std::printf(" %s %s by the %s rewrite, x%zu;", std::string(to_string(rec.kind)).c_str(),
                std::string(rec.target).c_str(), std::string(rec.rewrite).c_str(), rec.count);
  std::printf("\n");
  return to_string(y.shape) == expected_output && s.nodes.front().find(expected_upsampler) == 0 &&
         r.shape == shape_t{15};
}

// What the compiler decided, checked at compile time.
static_assert(retarget::selected_rewrite_name<repeat_fn, bk::tensorrt10> == "tensorrt");
static_assert(!retarget::is_rewritten_v<repeat_fn, bk::onnxruntime>);
static_assert(retarget::is_module_rewritten_v<upsample, bk::opencv_dnn>);

int main() {
  const bool ok = run<bk::onnxruntime>("[1, 3, 32, 32]", "Resize(cubic") &&
                  run<bk::opencv_dnn>("[1, 3, 24, 24]", "Resize(linear") &&
                  run<bk::tensorrt10>("[1, 3, 32, 32]", "Resize(cubic");
  std::printf(ok ? "all checks passed\n" : "CHECK FAILED\n");
  return ok ? 0 : 1;
}
