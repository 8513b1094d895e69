// The rewrites that put exports into the ONNX dialect TensorRT's parser takes. Opt in by
// including this header where the model is exported for tensorrt (or a backend falling back
// to it, such as tensorrt10).
#ifndef RETARGET_BACKEND_TENSORRT_REWRITES_HPP
#define RETARGET_BACKEND_TENSORRT_REWRITES_HPP

#include <cstdint>
#include <retarget/core/backend.hpp>
#include <retarget/core/rewritable.hpp>
#include <retarget/trace/ops.hpp>

// Seed 000's repeat_static: TensorRT's parser handles a 1-D Tile poorly, so a 1-D repeat goes
// through 2-D (unsqueeze, repeat, squeeze).
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

#endif  // RETARGET_BACKEND_TENSORRT_REWRITES_HPP
