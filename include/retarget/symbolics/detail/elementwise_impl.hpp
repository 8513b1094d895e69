// The definitions of symbolics/elementwise.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_SYMBOLICS_DETAIL_ELEMENTWISE_IMPL_HPP
#define RETARGET_SYMBOLICS_DETAIL_ELEMENTWISE_IMPL_HPP

#include <cmath>
#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/symbolics/elementwise.hpp>
#include <retarget/symbolics/helpers.hpp>

namespace retarget::symbolics {

#define RETARGET_UNARY_SYMBOLIC(type, onnx_op) \
  RETARGET_LAZY_DEF value type::symbolic(graph& g, const value& x) { return g.op(onnx_op, x); }
RETARGET_UNARY_SYMBOLIC(neg, "Neg")
RETARGET_UNARY_SYMBOLIC(relu, "Relu")
RETARGET_UNARY_SYMBOLIC(sigmoid, "Sigmoid")
RETARGET_UNARY_SYMBOLIC(tanh, "Tanh")
#undef RETARGET_UNARY_SYMBOLIC

#define RETARGET_BINARY_SYMBOLIC(type, onnx_op)                                      \
  RETARGET_LAZY_DEF value type::symbolic(graph& g, const value& a, const value& b) { \
    return g.op(onnx_op, a, b);                                                      \
  }
RETARGET_BINARY_SYMBOLIC(add, "Add")
RETARGET_BINARY_SYMBOLIC(sub, "Sub")
RETARGET_BINARY_SYMBOLIC(mul, "Mul")
RETARGET_BINARY_SYMBOLIC(div, "Div")
RETARGET_BINARY_SYMBOLIC(pow, "Pow")
RETARGET_BINARY_SYMBOLIC(matmul, "MatMul")
#undef RETARGET_BINARY_SYMBOLIC

RETARGET_LAZY_DEF value gelu::symbolic(graph& g, const value& x) {
  const auto e = g.op("Erf", g.op("Div", x, scalar_like(g, x, std::sqrt(2.0))));
  return g.op("Mul", g.op("Mul", x, g.op("Add", e, scalar_like(g, x, 1.0))),
              scalar_like(g, x, 0.5));
}

RETARGET_LAZY_DEF value silu::symbolic(graph& g, const value& x) {
  return g.op("Mul", x, g.op("Sigmoid", x));
}

RETARGET_LAZY_DEF value leaky_relu::symbolic(graph& g, const value& x, double slope) {
  return g.op("LeakyRelu", x, "alpha"_f = slope);
}

RETARGET_LAZY_DEF value hardswish::symbolic(graph& g, const value& x) {
  if (g.opset() >= 14) return g.op("HardSwish", x);
  return g.op("Mul", x, g.op("HardSigmoid", x, "alpha"_f = 1.0 / 6, "beta"_f = 0.5));
}

RETARGET_LAZY_DEF value softmax::symbolic(graph& g, const value& x, std::int64_t dim) {
  return detail::softmax_over(
      g, x, dim, [&](const value& v, std::int64_t a) { return g.op("Softmax", v, "axis"_i = a); },
      "softmax over an axis other than the last of a value of unknown rank");
}

RETARGET_LAZY_DEF value log_softmax::symbolic(graph& g, const value& x, std::int64_t dim) {
  return detail::softmax_over(
      g, x, dim,
      [&](const value& v, std::int64_t a) { return g.op("LogSoftmax", v, "axis"_i = a); },
      "log_softmax over an axis other than the last of a value of unknown rank");
}

RETARGET_LAZY_DEF value where::symbolic(graph& g, const value& c, const value& a, const value& b) {
  return g.op("Where", c, a, b);
}

RETARGET_LAZY_DEF value clamp::symbolic(graph& g, const value& x, std::optional<double> lo,
                                        std::optional<double> hi) {
  require_opset(g, 11, "clamp");
  const auto bound = [&](std::optional<double> v) {
    return v ? std::optional<value>(scalar_like(g, x, *v)) : std::nullopt;
  };
  const auto l = bound(lo), u = bound(hi);
  if (l && u) return g.op("Clip", x, *l, *u);
  if (l) return g.op("Clip", x, *l);
  if (u) return g.op("Clip", x, ir::no_input, *u);
  return g.op("Identity", x);
}

RETARGET_LAZY_DEF value cast::symbolic(graph& g, const value& x, ir::dtype to) {
  return g.op("Cast", x, "to"_i = static_cast<std::int64_t>(to));
}

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_DETAIL_ELEMENTWISE_IMPL_HPP
