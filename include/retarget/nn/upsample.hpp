// nn::Upsample apart from the other modules: a backend's tag rewrites it (opencv_dnn does)
// without the op library, the tracer or ONNX. Its forward, a template, is compiled where the
// module is called, with the op library there (retarget/nn.hpp includes this).
#ifndef RETARGET_NN_UPSAMPLE_HPP
#define RETARGET_NN_UPSAMPLE_HPP

#include <retarget/core/module.hpp>
#include <retarget/ops/function_types.hpp>
#include <utility>

namespace retarget::nn {

using retarget::rewritable_module;
using trace::tensor;

struct Upsample : rewritable_module<Upsample, "Upsample"> {
  ops::interpolate_options options;
  explicit Upsample(ops::interpolate_options o) : options(std::move(o)) {}
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::interpolate(x, options);
  }
};

}  // namespace retarget::nn

#endif  // RETARGET_NN_UPSAMPLE_HPP
