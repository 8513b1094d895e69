// Symbolics of element-wise ops: activations, arithmetic, softmax, where, clamp, cast.
#ifndef RETARGET_SYMBOLICS_ELEMENTWISE_HPP
#define RETARGET_SYMBOLICS_ELEMENTWISE_HPP

#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/symbolic.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <utility>
#include <vector>

namespace retarget::symbolics {

// One ONNX node each, of the op's name (their bodies: detail/elementwise_impl.hpp).
#define RETARGET_UNARY_SYMBOLIC(type, name)                             \
  struct type : symbolic_op<type, name> {                               \
    RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x); \
  };
RETARGET_UNARY_SYMBOLIC(neg, "neg")
RETARGET_UNARY_SYMBOLIC(relu, "relu")
RETARGET_UNARY_SYMBOLIC(sigmoid, "sigmoid")
RETARGET_UNARY_SYMBOLIC(tanh, "tanh")
#undef RETARGET_UNARY_SYMBOLIC

#define RETARGET_BINARY_SYMBOLIC(type, name)                                            \
  struct type : symbolic_op<type, name> {                                               \
    RETARGET_LAZY_DECL static value symbolic(graph& g, const value& a, const value& b); \
  };
RETARGET_BINARY_SYMBOLIC(add, "add")
RETARGET_BINARY_SYMBOLIC(sub, "sub")
RETARGET_BINARY_SYMBOLIC(mul, "mul")
RETARGET_BINARY_SYMBOLIC(div, "div")
RETARGET_BINARY_SYMBOLIC(pow, "pow")
RETARGET_BINARY_SYMBOLIC(matmul, "matmul")
#undef RETARGET_BINARY_SYMBOLIC

struct gelu : symbolic_op<gelu, "gelu"> {
  // x * 0.5 * (1 + erf(x / sqrt(2))), the form torch exports before opset 20.
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x);
};
struct silu : symbolic_op<silu, "silu"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x);
};
struct leaky_relu : symbolic_op<leaky_relu, "leaky_relu"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, double slope = 0.01);
};
struct hardswish : symbolic_op<hardswish, "hardswish"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x);
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
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, std::int64_t dim);
};
struct log_softmax : symbolic_op<log_softmax, "log_softmax"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, std::int64_t dim);
};

struct where : symbolic_op<where, "where"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& c, const value& a,
                                           const value& b);
};

struct clamp : symbolic_op<clamp, "clamp"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, std::optional<double> lo,
                                           std::optional<double> hi = std::nullopt);
};

struct cast : symbolic_op<cast, "cast"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, ir::dtype to);
};

}  // namespace retarget::symbolics

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/symbolics/detail/elementwise_impl.hpp>
#endif

#endif  // RETARGET_SYMBOLICS_ELEMENTWISE_HPP
