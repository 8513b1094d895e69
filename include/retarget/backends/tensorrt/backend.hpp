// The tensorrt backend tags and every rewrite retarget ships for them, active wherever the
// tags are visible: exports for tensorrt (or tensorrt10, which falls back to it) come out in
// the ONNX dialect TensorRT's parser takes. TensorRT itself is not needed to export.
#ifndef RETARGET_BACKENDS_TENSORRT_BACKEND_HPP
#define RETARGET_BACKENDS_TENSORRT_BACKEND_HPP

#include <cstdint>
#include <retarget/core/backend.hpp>
#include <retarget/core/rewritable.hpp>
#include <retarget/ops/function_types.hpp>

namespace retarget::backends {

struct tensorrt : backend_tag<"tensorrt"> {};
// TensorRT 10: what holds for tensorrt holds here unless a rewrite says otherwise.
struct tensorrt10 : backend_tag<"tensorrt10", tensorrt> {};

}  // namespace retarget::backends

// Seed 000's repeat_static: TensorRT's parser handles a 1-D Tile poorly, so a 1-D repeat goes
// through 2-D (unsqueeze, repeat, squeeze). The ops are named through their light header; the
// body, a template, is compiled where a traced repeat calls it, with the op library there.
template <>
struct retarget::function_rewrite<retarget::ops::repeat_fn, retarget::backends::tensorrt> {
  template <class B>
  static trace::tensor<B> call(const auto& ctx, const trace::tensor<B>& x, const ops::ints& sizes) {
    if (x.rank() == 1 && sizes.size() == 1)
      return ops::squeeze(ctx.origin(ops::unsqueeze(x, std::int64_t{0}), ops::ints{1, sizes[0]}),
                          ops::ints{0});
    return ctx.origin(x, sizes);
  }
};

#endif  // RETARGET_BACKENDS_TENSORRT_BACKEND_HPP
