// The op library: each op a rewritable function named as in torch (retarget::ops::relu, ...),
// whose origin runs the op's symbolic (retarget/symbolics/); rewrite one for a backend with
// function_rewrite<ops::relu_fn, B>. The arithmetic operators of traced tensors go through
// ops::add, sub, mul, div and neg, so their rewrites apply to `a + b` too.
//
//   auto y = ops::interpolate(ops::relu(ops::conv2d(x, w, b, {.padding = {4, 4}})),
//                             {.scale_factor = {3, 3}, .mode = "bicubic"});
#ifndef RETARGET_OPS_FUNCTIONS_HPP
#define RETARGET_OPS_FUNCTIONS_HPP

#include <cstdint>
#include <retarget/core/fixed_string.hpp>
#include <retarget/core/rewritable.hpp>
#include <retarget/ops/function_types.hpp>
#include <retarget/symbolics.hpp>
#include <retarget/trace/op_function.hpp>
#include <retarget/trace/operators.hpp>
#include <retarget/trace/tensor.hpp>
#include <type_traits>
#include <variant>

namespace retarget::ops {

using symbolics::conv_options;
using symbolics::pool_options;
using symbolics::reduce_options;

// An arithmetic op: two tensors, or a tensor and a number (which takes the tensor's type).
template <class Op, fixed_string Name>
struct binary_function : rewritable<binary_function<Op, Name>, Name> {
  template <class B>
  trace::tensor<B> origin(const trace::tensor<B>& a, const trace::tensor<B>& b) const {
    return trace::apply<Op>(a, b);
  }
  template <class B, class S>
  requires std::is_arithmetic_v<S> trace::tensor<B> origin(const trace::tensor<B>& a, S b)
  const { return trace::apply<Op>(a, like(a, b)); }
  template <class B, class S>
  requires std::is_arithmetic_v<S> trace::tensor<B> origin(S a, const trace::tensor<B>& b)
  const { return trace::apply<Op>(like(b, a), b); }

 private:
  template <class B>
  static trace::tensor<B> like(const trace::tensor<B>& t, double v) {
    return {t.owner(), symbolics::scalar_like(t.owner().graph(), t.value(), v)};
  }
};

#define RETARGET_BINARY_OP(name)                             \
  using name##_fn = binary_function<symbolics::name, #name>; \
  inline constexpr name##_fn name{};
RETARGET_BINARY_OP(add)
RETARGET_BINARY_OP(sub)
RETARGET_BINARY_OP(mul)
RETARGET_BINARY_OP(div)
RETARGET_BINARY_OP(pow)
#undef RETARGET_BINARY_OP

// The ops that run one symbolic op (relu, squeeze, ...) are in ops/function_types.hpp.

// A dim of x: its size when static, else a 0-d int64 tensor computed from a Shape node.
template <class B>
std::variant<std::int64_t, trace::tensor<B>> size(const trace::tensor<B>& x, std::int64_t dim) {
  const auto d = x.dim(dim);
  if (d.is_static()) return d.size;
  auto& g = x.owner().graph();
  const auto axis = symbolics::normalized_axis(dim, x.rank());
  return trace::tensor<B>(
      x.owner(), g.op("Gather", shape(x).value(), symbolics::int_scalar(g, axis), "axis"_i = 0));
}

}  // namespace retarget::ops

// What the arithmetic operators of traced tensors (trace/operators.hpp) call.
template <>
struct retarget::trace::arithmetic<retarget::trace::plus> {
  static constexpr const auto& function = retarget::ops::add;
};
template <>
struct retarget::trace::arithmetic<retarget::trace::minus> {
  static constexpr const auto& function = retarget::ops::sub;
};
template <>
struct retarget::trace::arithmetic<retarget::trace::multiplies> {
  static constexpr const auto& function = retarget::ops::mul;
};
template <>
struct retarget::trace::arithmetic<retarget::trace::divides> {
  static constexpr const auto& function = retarget::ops::div;
};
template <>
struct retarget::trace::arithmetic<retarget::trace::negate> {
  static constexpr const auto& function = retarget::ops::neg;
};

#endif  // RETARGET_OPS_FUNCTIONS_HPP
