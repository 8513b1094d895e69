// Symbolics of element-wise ops: activations, arithmetic, softmax, where, clamp, cast.
#ifndef RETARGET_SYMBOLICS_ELEMENTWISE_HPP
#define RETARGET_SYMBOLICS_ELEMENTWISE_HPP

#include <cmath>
#include <cstdint>
#include <retarget/core/symbolic.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <utility>
#include <vector>

namespace retarget::symbolics {

#define RETARGET_UNARY_SYMBOLIC(type, name, onnx_op)                             \
  struct type : symbolic_op<type, name> {                                        \
    static value symbolic(graph& g, const value& x) { return g.op(onnx_op, x); } \
  };
RETARGET_UNARY_SYMBOLIC(neg, "neg", "Neg")
RETARGET_UNARY_SYMBOLIC(relu, "relu", "Relu")
RETARGET_UNARY_SYMBOLIC(sigmoid, "sigmoid", "Sigmoid")
RETARGET_UNARY_SYMBOLIC(tanh, "tanh", "Tanh")
#undef RETARGET_UNARY_SYMBOLIC

#define RETARGET_BINARY_SYMBOLIC(type, name, onnx_op)                 \
  struct type : symbolic_op<type, name> {                             \
    static value symbolic(graph& g, const value& a, const value& b) { \
      return g.op(onnx_op, a, b);                                     \
    }                                                                 \
  };
RETARGET_BINARY_SYMBOLIC(add, "add", "Add")
RETARGET_BINARY_SYMBOLIC(sub, "sub", "Sub")
RETARGET_BINARY_SYMBOLIC(mul, "mul", "Mul")
RETARGET_BINARY_SYMBOLIC(div, "div", "Div")
RETARGET_BINARY_SYMBOLIC(pow, "pow", "Pow")
RETARGET_BINARY_SYMBOLIC(matmul, "matmul", "MatMul")
#undef RETARGET_BINARY_SYMBOLIC

struct gelu : symbolic_op<gelu, "gelu"> {
  // x * 0.5 * (1 + erf(x / sqrt(2))), the form torch exports before opset 20.
  static value symbolic(graph& g, const value& x) {
    const auto e = g.op("Erf", g.op("Div", x, scalar_like(g, x, std::sqrt(2.0))));
    return g.op("Mul", g.op("Mul", x, g.op("Add", e, scalar_like(g, x, 1.0))),
                scalar_like(g, x, 0.5));
  }
};
struct silu : symbolic_op<silu, "silu"> {
  static value symbolic(graph& g, const value& x) { return g.op("Mul", x, g.op("Sigmoid", x)); }
};
struct leaky_relu : symbolic_op<leaky_relu, "leaky_relu"> {
  static value symbolic(graph& g, const value& x, double slope = 0.01) {
    return g.op("LeakyRelu", x, "alpha"_f = slope);
  }
};
struct hardswish : symbolic_op<hardswish, "hardswish"> {
  static value symbolic(graph& g, const value& x) {
    if (g.opset() >= 14) return g.op("HardSwish", x);
    return g.op("Mul", x, g.op("HardSigmoid", x, "alpha"_f = 1.0 / 6, "beta"_f = 0.5));
  }
};
namespace detail {
// Softmax or LogSoftmax over `dim`. Before opset 13 the op coerces its input to 2-D at the
// axis, which equals softmax over the last axis only (what torch exports there): another axis
// is moved last by a Transpose and back, when the rank is known.
template <class Emit>
value softmax_over(graph& g, const value& x, std::int64_t dim, Emit emit, const char* what) {
  if (g.opset() >= 13) return emit(x, dim);
  if (!x.has_shape()) {
    if (dim == -1) return emit(x, -1);
    require_opset(g, 13, what);
  }
  const auto rank = static_cast<std::int64_t>(x.rank());
  const auto axis = normalized_axis(dim, x.rank());
  if (axis == rank - 1) return emit(x, axis);
  std::vector<std::int64_t> perm(static_cast<std::size_t>(rank));
  for (std::int64_t i = 0; i < rank; ++i) perm[static_cast<std::size_t>(i)] = i;
  std::swap(perm[static_cast<std::size_t>(axis)], perm.back());
  const auto moved = g.op("Transpose", x, "perm"_i = perm);
  return g.op("Transpose", emit(moved, rank - 1), "perm"_i = perm);
}
}  // namespace detail

struct softmax : symbolic_op<softmax, "softmax"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim) {
    return detail::softmax_over(
        g, x, dim, [&](const value& v, std::int64_t a) { return g.op("Softmax", v, "axis"_i = a); },
        "softmax over an axis other than the last of a value of unknown rank");
  }
};
struct log_softmax : symbolic_op<log_softmax, "log_softmax"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim) {
    return detail::softmax_over(
        g, x, dim,
        [&](const value& v, std::int64_t a) { return g.op("LogSoftmax", v, "axis"_i = a); },
        "log_softmax over an axis other than the last of a value of unknown rank");
  }
};

struct where : symbolic_op<where, "where"> {
  static value symbolic(graph& g, const value& c, const value& a, const value& b) {
    return g.op("Where", c, a, b);
  }
};

struct clamp : symbolic_op<clamp, "clamp"> {
  static value symbolic(graph& g, const value& x, std::optional<double> lo,
                        std::optional<double> hi = std::nullopt) {
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
};

struct cast : symbolic_op<cast, "cast"> {
  static value symbolic(graph& g, const value& x, ir::dtype to) {
    return g.op("Cast", x, "to"_i = static_cast<std::int64_t>(to));
  }
};

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_ELEMENTWISE_HPP
