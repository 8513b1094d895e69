// The ops of the library that run one symbolic op (relu, squeeze, repeat, ...): their types
// (ops::relu_fn) and function objects (ops::relu), with the symbolic ops only declared. A
// backend's tag rewrites an op here without the op library, the tracer or ONNX; a call of an
// op needs retarget/ops.hpp, which includes this. The arithmetic ops (add, sub, mul, div, pow)
// are in ops/functions.hpp.
#ifndef RETARGET_OPS_FUNCTION_TYPES_HPP
#define RETARGET_OPS_FUNCTION_TYPES_HPP

#include <retarget/core/fixed_string.hpp>
#include <retarget/symbolics/interpolate_options.hpp>
#include <retarget/trace/op_function_type.hpp>

namespace retarget::ops {

using trace::ints;
// What interpolate takes, light like the ops' types: nn::Upsample holds one.
using symbolics::interpolate_options;

template <class Op, fixed_string Name>
using op_function = trace::op_function<Op, Name>;

}  // namespace retarget::ops

// Each op: `using relu_fn = ...; inline constexpr relu_fn relu;`, named as in torch.
#define RETARGET_OP(name, symbolic)                          \
  namespace retarget::symbolics {                            \
  struct symbolic;                                           \
  }                                                          \
  namespace retarget::ops {                                  \
  using name##_fn = op_function<symbolics::symbolic, #name>; \
  inline constexpr name##_fn name{};                         \
  }
RETARGET_OP(neg, neg)
RETARGET_OP(matmul, matmul)
RETARGET_OP(linear, linear)
RETARGET_OP(conv1d, conv)
RETARGET_OP(conv2d, conv)
RETARGET_OP(conv_transpose2d, conv_transpose)
RETARGET_OP(relu, relu)
RETARGET_OP(sigmoid, sigmoid)
RETARGET_OP(tanh, tanh)
RETARGET_OP(gelu, gelu)
RETARGET_OP(silu, silu)
RETARGET_OP(leaky_relu, leaky_relu)
RETARGET_OP(hardswish, hardswish)
RETARGET_OP(softmax, softmax)
RETARGET_OP(log_softmax, log_softmax)
RETARGET_OP(batch_norm, batch_norm)
RETARGET_OP(layer_norm, layer_norm)
RETARGET_OP(max_pool2d, max_pool)
RETARGET_OP(avg_pool2d, avg_pool)
RETARGET_OP(adaptive_avg_pool2d, adaptive_avg_pool)
RETARGET_OP(flatten, flatten)
RETARGET_OP(reshape, reshape)
RETARGET_OP(view, reshape)
RETARGET_OP(permute, permute)
RETARGET_OP(transpose, transpose)
RETARGET_OP(squeeze, squeeze)
RETARGET_OP(unsqueeze, unsqueeze)
RETARGET_OP(cat, cat)
RETARGET_OP(split, split)
RETARGET_OP(slice, slice)
RETARGET_OP(gather, gather)
RETARGET_OP(index_select, index_select)
RETARGET_OP(expand, expand)
RETARGET_OP(repeat, repeat)
RETARGET_OP(pad, pad)
RETARGET_OP(interpolate, interpolate)
RETARGET_OP(sum, sum)
RETARGET_OP(mean, mean)
RETARGET_OP(amax, amax)
RETARGET_OP(where, where)
RETARGET_OP(clamp, clamp)
RETARGET_OP(cast, cast)
RETARGET_OP(shape, shape)
#undef RETARGET_OP

#endif  // RETARGET_OPS_FUNCTION_TYPES_HPP
