// Tutorial 03: a function rewrite.
//
// Seed 000's first example: TensorRT handles a repeat of a 1-D tensor poorly, so for tensorrt
// `torch.Tensor.repeat` is rewritten to go through 2-D (unsqueeze, repeat, squeeze). That
// rewrite ships in retarget's tensorrt package, active wherever the tensorrt tag is visible.
// Here the same rewrite is declared, as a type, for an engine of our own with the same
// trouble, next to a default rewrite that every other backend gets; one model is exported for
// four backends, each export says which rewrites fired, and ONNX Runtime checks that every
// variant still computes what PyTorch's repeat computes.
#include <algorithm>
#include <array>
#include <cstdio>
#include <retarget/retarget.hpp>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace ops = retarget::ops;
namespace rb = retarget::backend;
namespace rx = retarget::ir;
using retarget::trace::tensor;

// An engine of our own: a backend is a tag with a name and the backends it falls back to
// (none here). Like TensorRT's parser, this one handles a 1-D Tile poorly.
struct tinyrt : retarget::backend_tag<"tinyrt"> {};

// 1. The rewrite for tinyrt, declared as the tensorrt package declares its own. Every op of the
// library is a rewritable function (ops::repeat's type is ops::repeat_fn); a rewrite is a
// specialization of function_rewrite for the function and a backend, with a static call that takes
// the context first, then the function's arguments. ctx.origin(...) is the function with no rewrite
// (the seed's ctx.origin_func).
template <>
struct retarget::function_rewrite<ops::repeat_fn, tinyrt> {
  template <class B>
  static tensor<B> call(const auto& ctx, const tensor<B>& x, const ops::ints& sizes) {
    if (x.rank() == 1 && sizes.size() == 1)
      return ops::squeeze(ctx.origin(ops::unsqueeze(x, std::int64_t{0}), {1, sizes[0]}),
                          ops::ints{0});
    return ctx.origin(x, sizes);
  }
};

// 2. The default rewrite: function_rewrite<F> with no backend. It runs for every backend that
// has no rewrite of its own (nor one in its fallback chain). This one drops a repeat that
// copies nothing (every size 1, no new dims) and hands everything else to ctx.next(...), the
// next candidate down the list: here the origin.
template <>
struct retarget::function_rewrite<ops::repeat_fn> {
  template <class B>
  static tensor<B> call(const auto& ctx, const tensor<B>& x, const ops::ints& sizes) {
    const bool copies_nothing =
        sizes.size() == x.rank() &&
        std::all_of(sizes.begin(), sizes.end(), [](auto s) { return s == 1; });
    return copies_nothing ? x : ctx.next(x, sizes);
  }
};

// 3. Which rewrite runs is decided by the compiler, and can be checked by it.
static_assert(retarget::selected_rewrite_name<ops::repeat_fn, tinyrt> == "tinyrt");
static_assert(retarget::selected_rewrite_name<ops::repeat_fn, bk::tensorrt> == "tensorrt");
static_assert(retarget::selected_rewrite_name<ops::repeat_fn, bk::tensorrt10> == "tensorrt");
static_assert(retarget::selected_rewrite_name<ops::repeat_fn, bk::onnxruntime> == "default");

// The model: seed 000's 1-D case, and a 2-D repeat that the 1-D rewrites pass on.
struct tile_model {
  template <class B>
  auto operator()(const tensor<B>& vector, const tensor<B>& matrix) const {
    return std::array{ops::repeat(vector, {3}), ops::repeat(matrix, {2, 2})};
  }
};

template <class B>
retarget::export_result export_for() {
  auto exported = retarget::export_onnx<B>(
      tile_model{}, {{"vector", rx::dtype::f32, {4}}, {"matrix", rx::dtype::f32, {2, 3}}},
      retarget::no_config{}, {.output_names = {"vector_repeat", "matrix_repeat"}});
  exported.model.check();
  std::printf("%s: %s\n  rewrites: %s\n", B::name.data(),
              tutorial::op_types(exported.model).c_str(), tutorial::rewrites(exported).c_str());
  return exported;
}

int main() {
  // 4. One model, four backends. tinyrt gets ours, tensorrt the package's; tensorrt10 has no
  // rewrite of its own: it falls back to tensorrt's. onnxruntime gets the default.
  auto tiny = export_for<tinyrt>();
  auto trt = export_for<bk::tensorrt>();
  auto trt10 = export_for<bk::tensorrt10>();
  auto ort = export_for<bk::onnxruntime>();

  // Each export owns its report: which rewrite of what ran, for which backend, how often.
  for (const auto& r : trt10.report.records())
    std::printf("tensorrt10 report: %s %s, %s rewrite for %s, %zu calls\n",
                std::string(to_string(r.kind)).c_str(), std::string(r.target).c_str(),
                std::string(r.rewrite).c_str(), std::string(r.backend).c_str(), r.count);

  // 5. TensorRT is not installed here, and its manager says so. The rewritten exports are
  // plain ONNX, though, so ONNX Runtime can check that the rewrites kept the values: every
  // export must compute what PyTorch's repeat computes.
  std::printf("tensorrt engine: %s\n", bk::tensorrt_manager::version().c_str());
  const tutorial::work_dir dir("tutorial-03");
  const auto param = tutorial::onnxruntime_param(dir.path());
  if (!tutorial::onnxruntime_available(param)) return tutorial::skipped;
  const rb::tensor_map inputs = {{"vector", tutorial::load("tutorials/03_vector.pb")},
                                 {"matrix", tutorial::load("tutorials/03_matrix.pb")}};
  bool ok = true;
  for (auto* exported : {&tiny, &trt, &ort}) {
    const auto backend = *exported->model.metadata("retarget:backend");
    const auto file = dir / (backend + ".onnx");
    rx::save(exported->model, file);
    auto session = bk::onnxruntime_manager::build_wrapper({file}, param);
    const auto out = session.run(inputs);
    ok = tutorial::compare((backend + " export, vector.repeat(3)").c_str(), out.at("vector_repeat"),
                           tutorial::load("tutorials/03_vector_repeat.pb"), 0) &&
         ok;
    ok = tutorial::compare((backend + " export, matrix.repeat(2, 2)").c_str(),
                           out.at("matrix_repeat"), tutorial::load("tutorials/03_matrix_repeat.pb"),
                           0) &&
         ok;
  }

  // The reports are part of the check: each backend got the rewrite it should.
  ok = ok && retarget::to_string(tiny.report) == "function repeat: tinyrt rewrite, 2 calls" &&
       retarget::to_string(trt.report) == "function repeat: tensorrt rewrite, 2 calls" &&
       retarget::to_string(trt10.report) == retarget::to_string(trt.report) &&
       retarget::to_string(ort.report) == "function repeat: default rewrite, 2 calls";
  return tutorial::finish(ok);
}
