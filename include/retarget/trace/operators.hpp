// The arithmetic operators of traced tensors. They call the op library's functions
// (ops::add, ...) through arithmetic<Op>, which retarget/ops/functions.hpp specializes, so
// that rewrites of those functions apply to `a + b` as well; without the op library the
// operators are not there (they do not compile rather than bypass a rewrite).
#ifndef RETARGET_TRACE_OPERATORS_HPP
#define RETARGET_TRACE_OPERATORS_HPP

#include <retarget/trace/tensor.hpp>
#include <type_traits>

namespace retarget::trace {

struct plus {};
struct minus {};
struct multiplies {};
struct divides {};
struct negate {};

// arithmetic<Op>::function is the rewritable function an operator calls.
template <class Op>
struct arithmetic;

namespace detail {
template <class Op, class... A>
auto arithmetic_call(const A&... args) -> decltype(arithmetic<Op>::function(args...)) {
  return arithmetic<Op>::function(args...);
}
}  // namespace detail

template <class B, class R>
auto operator+(const tensor<B>& a, const R& b) -> decltype(detail::arithmetic_call<plus>(a, b)) {
  return detail::arithmetic_call<plus>(a, b);
}
template <class B, class L>
requires std::is_arithmetic_v<L>
auto operator+(L a, const tensor<B>& b) -> decltype(detail::arithmetic_call<plus>(a, b)) {
  return detail::arithmetic_call<plus>(a, b);
}
template <class B, class R>
auto operator-(const tensor<B>& a, const R& b) -> decltype(detail::arithmetic_call<minus>(a, b)) {
  return detail::arithmetic_call<minus>(a, b);
}
template <class B, class L>
requires std::is_arithmetic_v<L>
auto operator-(L a, const tensor<B>& b) -> decltype(detail::arithmetic_call<minus>(a, b)) {
  return detail::arithmetic_call<minus>(a, b);
}
template <class B, class R>
auto operator*(const tensor<B>& a, const R& b)
    -> decltype(detail::arithmetic_call<multiplies>(a, b)) {
  return detail::arithmetic_call<multiplies>(a, b);
}
template <class B, class L>
requires std::is_arithmetic_v<L>
auto operator*(L a, const tensor<B>& b) -> decltype(detail::arithmetic_call<multiplies>(a, b)) {
  return detail::arithmetic_call<multiplies>(a, b);
}
template <class B, class R>
auto operator/(const tensor<B>& a, const R& b) -> decltype(detail::arithmetic_call<divides>(a, b)) {
  return detail::arithmetic_call<divides>(a, b);
}
template <class B, class L>
requires std::is_arithmetic_v<L>
auto operator/(L a, const tensor<B>& b) -> decltype(detail::arithmetic_call<divides>(a, b)) {
  return detail::arithmetic_call<divides>(a, b);
}
template <class B>
auto operator-(const tensor<B>& a) -> decltype(detail::arithmetic_call<negate>(a)) {
  return detail::arithmetic_call<negate>(a);
}

}  // namespace retarget::trace

#endif  // RETARGET_TRACE_OPERATORS_HPP
