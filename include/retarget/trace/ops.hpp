// The op library. Each op is a rewritable function (retarget::ops::relu, ...): rewrite it for
// a backend with function_rewrite<ops::relu_fn, B>. Its origin runs the op's symbolic (an
// op type in retarget::symbolics, rewritable with symbolic_rewrite), which emits the nodes.
//
//   auto y = ops::interpolate(ops::relu(ops::conv2d(x, w, b, {.padding = {4, 4}})),
//                             {.scale_factor = {3, 3}, .mode = "bicubic"});
#ifndef RETARGET_TRACE_OPS_HPP
#define RETARGET_TRACE_OPS_HPP

#include <retarget/core/call.hpp>
#include <retarget/core/rewritable.hpp>
#include <retarget/core/symbolic.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/trace/tensor.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace retarget::trace {

using ints = std::vector<std::int64_t>;

namespace detail {

template <class First, class... Rest>
session& session_of(const First& first, const Rest&... rest) {
  if constexpr (is_tensor_v<First>) return first.owner();
  else if constexpr (requires { first.front().owner(); }) return first.front().owner();
  else return session_of(rest...);
}

template <class T>
inline constexpr bool is_optional_tensor = false;
template <class B>
inline constexpr bool is_optional_tensor<std::optional<tensor<B>>> = true;

// Tensors go down to graph values; everything else passes as it is.
template <class T>
decltype(auto) lower(const T& arg) {
  if constexpr (is_tensor_v<T>) {
    return arg.value();
  } else if constexpr (is_optional_tensor<T>) {
    return arg ? std::optional<ir::value>(arg->value()) : std::nullopt;
  } else if constexpr (requires { arg.front().value(); }) {
    std::vector<ir::value> out;
    for (const auto& t : arg) out.push_back(t.value());
    return out;
  } else {
    return (arg);
  }
}

template <class B, class R>
auto raise(session& s, R&& result) {
  using T = std::remove_cvref_t<R>;
  if constexpr (std::is_same_v<T, ir::value>) {
    return tensor<B>(s, result);
  } else if constexpr (requires { std::tuple_size<T>::value; typename T::value_type; }) {
    std::array<tensor<B>, std::tuple_size<T>::value> out;
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = tensor<B>(s, result[i]);
    return out;
  } else {
    std::vector<tensor<B>> out;
    for (const auto& v : result) out.emplace_back(s, v);
    return out;
  }
}

}  // namespace detail

// Runs the symbolic op Op on the arguments, through symbolic rewrites for their backend.
template <class Op, class... A>
auto apply(const A&... args) {
  using B = backend_of_t<A...>;
  session& s = detail::session_of(args...);
  return detail::raise<B>(s, retarget::call<B>(s.environment(), Op{}, s.graph(), detail::lower(args)...));
}

// An op of the library: a rewritable function whose origin applies the symbolic op Op.
template <class Op, fixed_string Name>
struct op_function : rewritable<op_function<Op, Name>, Name> {
  template <class First, class... A>
    requires(!is_rewrite_context_v<First>)
  auto origin(const First& first, const A&... args) const {
    return apply<Op>(first, args...);
  }
};

// ---- Helpers for symbolics ----
namespace symbolic_helpers {

inline ir::value ints_constant(ir::graph& g, const ints& values) {
  return g.constant(ir::tensor::of(values, {static_cast<std::int64_t>(values.size())}));
}
inline ir::value int_scalar(ir::graph& g, std::int64_t v) { return g.constant(ir::tensor::scalar(v)); }

// A scalar constant of x's element type.
inline ir::value scalar_like(ir::graph& g, const ir::value& x, double v) {
  switch (x.dtype()) {
    case ir::dtype::f64: return g.constant(ir::tensor::scalar(v));
    case ir::dtype::i64: return g.constant(ir::tensor::scalar(static_cast<std::int64_t>(v)));
    case ir::dtype::i32: return g.constant(ir::tensor::scalar(static_cast<std::int32_t>(v)));
    case ir::dtype::boolean: return g.constant(ir::tensor::scalar(v != 0));
    default: return g.constant(ir::tensor::scalar(static_cast<float>(v)));
  }
}

inline std::int64_t normalized_axis(std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r)
    throw error("retarget: axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(r));
  return axis < 0 ? axis + r : axis;
}

inline void require_opset(const ir::graph& g, int at_least, const char* what) {
  if (g.opset() < at_least)
    throw error(std::string("retarget: ") + what + " needs opset " + std::to_string(at_least) +
                " or later; the export targets opset " + std::to_string(g.opset()));
}

}  // namespace symbolic_helpers

}  // namespace retarget::trace

// ---- The symbolics: how each op becomes ONNX nodes ----
namespace retarget::symbolics {

using namespace retarget::literals;
using ir::value;
using trace::ints;
namespace h = trace::symbolic_helpers;
using graph = ir::graph;

#define RETARGET_UNARY_SYMBOLIC(type, name, onnx_op)                  \
  struct type : symbolic_op<type, name> {                             \
    static value symbolic(graph& g, const value& x) { return g.op(onnx_op, x); } \
  };
RETARGET_UNARY_SYMBOLIC(neg, "neg", "Neg")
RETARGET_UNARY_SYMBOLIC(relu, "relu", "Relu")
RETARGET_UNARY_SYMBOLIC(sigmoid, "sigmoid", "Sigmoid")
RETARGET_UNARY_SYMBOLIC(tanh, "tanh", "Tanh")
#undef RETARGET_UNARY_SYMBOLIC

#define RETARGET_BINARY_SYMBOLIC(type, name, onnx_op)                                        \
  struct type : symbolic_op<type, name> {                                                    \
    static value symbolic(graph& g, const value& a, const value& b) { return g.op(onnx_op, a, b); } \
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
    const auto e = g.op("Erf", g.op("Div", x, h::scalar_like(g, x, std::sqrt(2.0))));
    return g.op("Mul", g.op("Mul", x, g.op("Add", e, h::scalar_like(g, x, 1.0))), h::scalar_like(g, x, 0.5));
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
struct softmax : symbolic_op<softmax, "softmax"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim) {
    h::require_opset(g, 13, "softmax over any axis");
    return g.op("Softmax", x, "axis"_i = dim);
  }
};
struct log_softmax : symbolic_op<log_softmax, "log_softmax"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim) {
    h::require_opset(g, 13, "log_softmax over any axis");
    return g.op("LogSoftmax", x, "axis"_i = dim);
  }
};

namespace detail {
// ONNX's shape inference lets weights that do not fit the input pass (Conv of 4 channels with
// 3-channel weights, Gemm with a mismatched K): the model would fail only when run. Where the
// sizes are static, the op refuses them here and names both.
inline std::string shape_text(const value& v) { return "'" + v.name() + "' " + ir::to_string(v.shape()); }
inline std::optional<std::int64_t> static_dim(const value& v, std::int64_t axis) {
  if (!v.has_shape()) return std::nullopt;
  const auto shape = v.shape();
  const auto n = static_cast<std::int64_t>(shape.size());
  if (axis < 0) axis += n;
  if (axis < 0 || axis >= n || !shape[static_cast<std::size_t>(axis)].is_static()) return std::nullopt;
  return shape[static_cast<std::size_t>(axis)].size;
}
inline void check_bias(const char* op, const std::optional<value>& b, const value& w, std::optional<std::int64_t> out) {
  if (!b || !out) return;
  const auto size = static_dim(*b, 0);
  if (b->has_shape() && (b->rank() != 1 || (size && *size != *out)))
    throw error(std::string("retarget: ") + op + ": the bias " + shape_text(*b) + " does not fit the weight " +
                shape_text(w) + ": it needs " + std::to_string(*out) + " values");
}
inline void check_conv_weight(const char* op, const value& x, const value& w, const std::optional<value>& b,
                              std::int64_t groups, bool transposed) {
  if (!x.has_shape() || !w.has_shape()) return;
  if (x.rank() != w.rank() || x.rank() < 3)
    throw error(std::string("retarget: ") + op + ": the input " + shape_text(x) + " and the weight " + shape_text(w) +
                " must have the same rank, at least 3");
  const auto channels = static_dim(x, 1), in = static_dim(w, transposed ? 0 : 1);
  if (channels && in && *channels != (transposed ? *in : *in * groups))
    throw error(std::string("retarget: ") + op + ": the input " + shape_text(x) + " has " + std::to_string(*channels) +
                " channels, the weight " + shape_text(w) + " takes " + std::to_string(transposed ? *in : *in * groups) +
                " (groups " + std::to_string(groups) + ")");
  const auto out = static_dim(w, transposed ? 1 : 0);
  check_bias(op, b, w, out && transposed ? std::optional(*out * groups) : out);
}
}  // namespace detail

struct linear : symbolic_op<linear, "linear"> {
  static value symbolic(graph& g, const value& x, const value& w, const std::optional<value>& b = std::nullopt) {
    if (w.has_shape() && w.rank() != 2)
      throw error("retarget: linear: the weight " + detail::shape_text(w) + " must be (out_features, in_features)");
    const auto features = detail::static_dim(x, -1), in = detail::static_dim(w, 1);
    if (features && in && *features != *in)
      throw error("retarget: linear: the input " + detail::shape_text(x) + " has " + std::to_string(*features) +
                  " features, the weight " + detail::shape_text(w) + " takes " + std::to_string(*in));
    detail::check_bias("linear", b, w, detail::static_dim(w, 0));
    if (x.rank() == 2 && b) return g.op("Gemm", x, w, *b, "transB"_i = 1);
    const auto y = g.op("MatMul", x, g.op("Transpose", w, "perm"_i = {1, 0}));
    return b ? g.op("Add", y, *b) : y;
  }
};

struct conv_options {
  ints stride = {};
  ints padding = {};
  ints dilation = {};
  std::int64_t groups = 1;
  ints output_padding = {};  // transposed convolution only
};

namespace detail {
inline ints repeated(const ints& v, std::size_t n, std::int64_t fill) {
  if (v.empty()) return ints(n, fill);
  if (v.size() == 1) return ints(n, v[0]);
  return v;
}
// The spatial dims of a weight of shape (out, in, k...).
inline ints kernel_of(const value& w) {
  const auto shape = w.static_shape();
  if (!shape || shape->size() < 3) throw error("retarget: a convolution weight needs a static shape (out, in, k...)");
  return ints(shape->begin() + 2, shape->end());
}
inline ints symmetric_pads(const ints& padding, std::size_t n) {
  const ints p = repeated(padding, n, 0);
  ints pads(p.begin(), p.end());
  pads.insert(pads.end(), p.begin(), p.end());
  return pads;
}
}  // namespace detail

struct conv : symbolic_op<conv, "conv"> {
  static value symbolic(graph& g, const value& x, const value& w, const std::optional<value>& b = std::nullopt,
                        const conv_options& o = {}) {
    detail::check_conv_weight("conv", x, w, b, o.groups, false);
    const std::size_t n = x.rank() - 2;
    const auto attrs = [&](auto&&... in) {
      return g.op("Conv", in..., "dilations"_i = detail::repeated(o.dilation, n, 1), "group"_i = o.groups,
                  "kernel_shape"_i = detail::kernel_of(w),
                  "pads"_i = detail::symmetric_pads(o.padding, n), "strides"_i = detail::repeated(o.stride, n, 1));
    };
    return b ? attrs(x, w, *b) : attrs(x, w);
  }
};

struct conv_transpose : symbolic_op<conv_transpose, "conv_transpose"> {
  static value symbolic(graph& g, const value& x, const value& w, const std::optional<value>& b = std::nullopt,
                        const conv_options& o = {}) {
    detail::check_conv_weight("conv_transpose", x, w, b, o.groups, true);
    const std::size_t n = x.rank() - 2;
    const auto emit = [&](auto&&... in) {
      return g.op("ConvTranspose", in..., "dilations"_i = detail::repeated(o.dilation, n, 1), "group"_i = o.groups,
                  "kernel_shape"_i = detail::kernel_of(w),
                  "output_padding"_i = detail::repeated(o.output_padding, n, 0),
                  "pads"_i = detail::symmetric_pads(o.padding, n), "strides"_i = detail::repeated(o.stride, n, 1));
    };
    return b ? emit(x, w, *b) : emit(x, w);
  }
};

struct batch_norm : symbolic_op<batch_norm, "batch_norm"> {
  static value symbolic(graph& g, const value& x, const value& weight, const value& bias, const value& mean,
                        const value& var, double eps = 1e-5, double momentum = 0.1) {
    return g.op("BatchNormalization", x, weight, bias, mean, var, "epsilon"_f = eps, "momentum"_f = 1 - momentum);
  }
};

struct layer_norm : symbolic_op<layer_norm, "layer_norm"> {
  static value symbolic(graph& g, const value& x, const ints& normalized_shape,
                        const std::optional<value>& w = std::nullopt,
                        const std::optional<value>& b = std::nullopt, double eps = 1e-5) {
    const auto axis = -static_cast<std::int64_t>(normalized_shape.size());
    if (g.opset() >= 17 && w && b) return g.op("LayerNormalization", x, *w, *b, "axis"_i = axis, "epsilon"_f = eps);
    // Before opset 17: (x - mean) / sqrt(var + eps) * w + b.
    ints axes;
    for (std::int64_t a = axis; a < 0; ++a) axes.push_back(a);
    const auto mean = [&](const value& v) { return g.op("ReduceMean", v, "axes"_i = axes); };
    const auto centered = g.op("Sub", x, mean(x));
    const auto var = mean(g.op("Mul", centered, centered));
    auto y = g.op("Div", centered, g.op("Sqrt", g.op("Add", var, h::scalar_like(g, x, eps))));
    if (w) y = g.op("Mul", y, *w);
    if (b) y = g.op("Add", y, *b);
    return y;
  }
};

struct pool_options {
  ints kernel_size;
  ints stride = {};  // empty: the kernel size, as torch
  ints padding = {};
  ints dilation = {};
  bool ceil_mode = false;
  bool count_include_pad = true;  // avg_pool2d only
};

struct max_pool : symbolic_op<max_pool, "max_pool"> {
  static value symbolic(graph& g, const value& x, const pool_options& o) {
    const std::size_t n = x.rank() - 2;
    const ints kernel = detail::repeated(o.kernel_size, n, 1);
    return g.op("MaxPool", x, "ceil_mode"_i = o.ceil_mode, "dilations"_i = detail::repeated(o.dilation, n, 1),
                "kernel_shape"_i = kernel, "pads"_i = detail::symmetric_pads(o.padding, n),
                "strides"_i = o.stride.empty() ? kernel : detail::repeated(o.stride, n, 1));
  }
};

struct avg_pool : symbolic_op<avg_pool, "avg_pool"> {
  static value symbolic(graph& g, const value& x, const pool_options& o) {
    const std::size_t n = x.rank() - 2;
    const ints kernel = detail::repeated(o.kernel_size, n, 1);
    return g.op("AveragePool", x, "ceil_mode"_i = o.ceil_mode, "count_include_pad"_i = o.count_include_pad,
                "kernel_shape"_i = kernel, "pads"_i = detail::symmetric_pads(o.padding, n),
                "strides"_i = o.stride.empty() ? kernel : detail::repeated(o.stride, n, 1));
  }
};

struct adaptive_avg_pool : symbolic_op<adaptive_avg_pool, "adaptive_avg_pool"> {
  static value symbolic(graph& g, const value& x, const ints& output_size) {
    if (std::all_of(output_size.begin(), output_size.end(), [](auto s) { return s == 1; }))
      return g.op("GlobalAveragePool", x);
    const auto shape = x.static_shape();
    if (!shape) throw error("retarget: adaptive_avg_pool2d to a size other than 1 needs static spatial dims");
    ints kernel;
    for (std::size_t i = 0; i < output_size.size(); ++i) {
      const auto in = (*shape)[shape->size() - output_size.size() + i];
      if (in % output_size[i] != 0)
        throw error("retarget: adaptive_avg_pool2d from " + std::to_string(in) + " to " +
                    std::to_string(output_size[i]) + " is not a plain average pool");
      kernel.push_back(in / output_size[i]);
    }
    return g.op("AveragePool", x, "kernel_shape"_i = kernel, "strides"_i = kernel);
  }
};

struct reshape : symbolic_op<reshape, "reshape"> {
  static value symbolic(graph& g, const value& x, const ints& shape) {
    return g.op("Reshape", x, h::ints_constant(g, shape));
  }
};

struct flatten : symbolic_op<flatten, "flatten"> {
  static value symbolic(graph& g, const value& x, std::int64_t start = 0, std::int64_t end = -1) {
    const auto r = x.rank();
    start = h::normalized_axis(start, r);
    end = h::normalized_axis(end, r);
    if (end == static_cast<std::int64_t>(r) - 1 && start == 1) return g.op("Flatten", x, "axis"_i = 1);
    ints shape;
    for (std::int64_t i = 0; i < start; ++i) shape.push_back(0);
    shape.push_back(-1);
    const auto dims = x.shape();
    for (auto i = static_cast<std::size_t>(end) + 1; i < r; ++i) {
      if (!dims[i].is_static()) throw error("retarget: flatten with dynamic trailing dims");
      shape.push_back(dims[i].size);
    }
    return g.op("Reshape", x, h::ints_constant(g, shape));
  }
};

struct permute : symbolic_op<permute, "permute"> {
  static value symbolic(graph& g, const value& x, const ints& dims) { return g.op("Transpose", x, "perm"_i = dims); }
};

struct transpose : symbolic_op<transpose, "transpose"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim0, std::int64_t dim1) {
    ints perm;
    for (std::size_t i = 0; i < x.rank(); ++i) perm.push_back(static_cast<std::int64_t>(i));
    std::swap(perm[static_cast<std::size_t>(h::normalized_axis(dim0, x.rank()))],
              perm[static_cast<std::size_t>(h::normalized_axis(dim1, x.rank()))]);
    return g.op("Transpose", x, "perm"_i = perm);
  }
};

struct squeeze : symbolic_op<squeeze, "squeeze"> {
  // No dims: every dim of size 1 by ONNX's own rule (an unknown size 1 is not squeezed by torch).
  static value symbolic(graph& g, const value& x, const std::optional<ints>& dims = std::nullopt) {
    if (!dims) return g.op("Squeeze", x);
    if (g.opset() >= 13) return g.op("Squeeze", x, h::ints_constant(g, *dims));
    return g.op(runtime_op("Squeeze"), x, "axes"_i = *dims);
  }
};

struct unsqueeze : symbolic_op<unsqueeze, "unsqueeze"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim) { return symbolic(g, x, ints{dim}); }
  static value symbolic(graph& g, const value& x, const ints& dims) {
    if (g.opset() >= 13) return g.op("Unsqueeze", x, h::ints_constant(g, dims));
    return g.op(runtime_op("Unsqueeze"), x, "axes"_i = dims);
  }
};

struct cat : symbolic_op<cat, "cat"> {
  static value symbolic(graph& g, const std::vector<value>& xs, std::int64_t dim = 0) {
    return g.op("Concat", xs, "axis"_i = dim);
  }
};

struct split : symbolic_op<split, "split"> {
  static std::vector<value> symbolic(graph& g, const value& x, const ints& sizes, std::int64_t dim = 0) {
    ir::node_spec spec;
    spec.op_type = "Split";
    spec.inputs = {x};
    spec.output_count = sizes.size();
    onnx::AttributeProto axis;
    ("axis"_i = dim).write(axis);
    spec.attributes.push_back(axis);
    if (g.opset() >= 13) {
      spec.inputs.push_back(h::ints_constant(g, sizes));
    } else {
      onnx::AttributeProto split;
      ("split"_i = sizes).write(split);
      spec.attributes.push_back(split);
    }
    return g.emit(std::move(spec));
  }
};

struct slice : symbolic_op<slice, "slice"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim, std::int64_t start, std::int64_t end,
                        std::int64_t step = 1) {
    h::require_opset(g, 10, "slice");
    return g.op("Slice", x, h::ints_constant(g, {start}), h::ints_constant(g, {end}), h::ints_constant(g, {dim}),
                h::ints_constant(g, {step}));
  }
};

struct gather : symbolic_op<gather, "gather"> {  // torch.gather
  static value symbolic(graph& g, const value& x, std::int64_t dim, const value& index) {
    return g.op("GatherElements", x, index, "axis"_i = dim);
  }
};

struct index_select : symbolic_op<index_select, "index_select"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim, const value& index) {
    return g.op("Gather", x, index, "axis"_i = dim);
  }
};

struct expand : symbolic_op<expand, "expand"> {
  // torch's -1 keeps a dim; Expand's broadcasting keeps it for a 1.
  static value symbolic(graph& g, const value& x, ints sizes) {
    for (auto& s : sizes)
      if (s == -1) s = 1;
    return g.op("Expand", x, h::ints_constant(g, sizes));
  }
};

struct repeat : symbolic_op<repeat, "repeat"> {
  // torch.Tensor.repeat: extra sizes add leading dims, then each dim is tiled.
  static value symbolic(graph& g, const value& x, const ints& sizes) {
    value input = x;
    const auto rank = x.rank();
    if (sizes.size() < rank) throw error("retarget: repeat needs at least as many sizes as dims");
    if (sizes.size() > rank) {
      ints axes;
      for (std::size_t i = 0; i < sizes.size() - rank; ++i) axes.push_back(static_cast<std::int64_t>(i));
      input = unsqueeze::symbolic(g, x, axes);
    }
    return g.op("Tile", input, h::ints_constant(g, sizes));
  }
};

struct pad : symbolic_op<pad, "pad"> {
  // torch's pads run from the last dim: (left, right, top, bottom, ...); ONNX's are all the
  // begins, then all the ends, from the first dim.
  static value symbolic(graph& g, const value& x, const ints& pads, const std::string& mode = "constant",
                        double fill = 0) {
    h::require_opset(g, 11, "pad");
    const auto rank = x.rank();
    ints onnx_pads(2 * rank, 0);
    for (std::size_t i = 0; i < pads.size() / 2; ++i) {
      const auto d = rank - 1 - i;
      onnx_pads[d] = pads[2 * i];
      onnx_pads[d + rank] = pads[2 * i + 1];
    }
    const std::string onnx_mode = mode == "replicate" ? "edge" : mode;
    return g.op("Pad", x, h::ints_constant(g, onnx_pads), h::scalar_like(g, x, fill), "mode"_s = onnx_mode);
  }
};

struct interpolate_options {
  std::vector<double> scale_factor = {};  // per spatial dim, or one for all
  ints size = {};                         // the output's spatial size, instead
  std::string mode = "nearest";           // nearest, bilinear, bicubic
};

namespace detail {
// The attributes torch 1.13 gives Resize for each mode (align_corners=False). Before opset
// 13, roi and scales are required inputs: unused ones are empty tensors, as torch gives them.
inline value resize(graph& g, const value& x, const value& scales, const std::optional<value>& sizes,
                    const std::string& mode) {
  if (mode != "nearest" && mode != "bilinear" && mode != "bicubic")
    throw error("retarget: interpolate mode '" + mode + "' (expected nearest, bilinear or bicubic)");
  const std::string onnx_mode = mode == "nearest" ? "nearest" : mode == "bilinear" ? "linear" : "cubic";
  const std::string transform = mode == "nearest" ? "asymmetric" : "pytorch_half_pixel";
  const auto emit = [&](const auto& roi, const auto& scales_input, const auto&... size) {
    return g.op("Resize", x, roi, scales_input, size..., "coordinate_transformation_mode"_s = transform,
                "cubic_coeff_a"_f = -0.75f, "mode"_s = onnx_mode, "nearest_mode"_s = "floor");
  };
  if (g.opset() >= 13) return sizes ? emit(ir::no_input, ir::no_input, *sizes) : emit(ir::no_input, scales);
  const auto empty = [&] { return g.constant(ir::tensor::empty(ir::dtype::f32)); };
  return sizes ? emit(empty(), empty(), *sizes) : emit(empty(), scales);
}
}  // namespace detail

struct interpolate : symbolic_op<interpolate, "interpolate"> {
  static value symbolic(graph& g, const value& x, const interpolate_options& o) {
    h::require_opset(g, 11, "interpolate");
    const auto spatial = x.rank() - 2;
    if (!o.size.empty()) {
      const auto shape = x.static_shape();
      if (!shape) throw error("retarget: interpolate to a size needs the batch and channel dims static");
      ints sizes{(*shape)[0], (*shape)[1]};
      for (std::size_t i = 0; i < spatial; ++i) sizes.push_back(o.size.size() == 1 ? o.size[0] : o.size[i]);
      return detail::resize(g, x, value{}, h::ints_constant(g, sizes), o.mode);
    }
    std::vector<float> scales{1, 1};
    for (std::size_t i = 0; i < spatial; ++i)
      scales.push_back(static_cast<float>(o.scale_factor.size() == 1 ? o.scale_factor[0] : o.scale_factor.at(i)));
    const auto scale_values = g.constant(ir::tensor::of(scales, {static_cast<std::int64_t>(scales.size())}));
    return detail::resize(g, x, scale_values, std::nullopt, o.mode);
  }
  // Scales known only at run time: a float tensor of one scale per dim, as the seeds' factor.
  static value symbolic(graph& g, const value& x, const value& scales, const std::string& mode = "bicubic") {
    h::require_opset(g, 11, "interpolate");
    return detail::resize(g, x, scales, std::nullopt, mode);
  }
};

struct reduce_options {
  ints dims = {};  // empty: every dim
  bool keepdim = false;
};

namespace detail {
inline value reduce(graph& g, const char* op, const value& x, const reduce_options& o, bool axes_as_input) {
  ir::node_spec spec;
  spec.op_type = op;
  spec.inputs = {x};
  onnx::AttributeProto keep;
  ("keepdims"_i = o.keepdim).write(keep);
  spec.attributes.push_back(keep);
  if (!o.dims.empty()) {
    if (axes_as_input) {
      spec.inputs.push_back(h::ints_constant(g, o.dims));
    } else {
      onnx::AttributeProto axes;
      ("axes"_i = o.dims).write(axes);
      spec.attributes.push_back(axes);
    }
  }
  return g.emit(std::move(spec)).front();
}
}  // namespace detail

struct sum : symbolic_op<sum, "sum"> {
  static value symbolic(graph& g, const value& x, const reduce_options& o = {}) {
    return detail::reduce(g, "ReduceSum", x, o, g.opset() >= 13);
  }
};
struct mean : symbolic_op<mean, "mean"> {
  static value symbolic(graph& g, const value& x, const reduce_options& o = {}) {
    return detail::reduce(g, "ReduceMean", x, o, false);
  }
};
struct amax : symbolic_op<amax, "amax"> {
  static value symbolic(graph& g, const value& x, const reduce_options& o = {}) {
    return detail::reduce(g, "ReduceMax", x, o, false);
  }
};

struct where : symbolic_op<where, "where"> {
  static value symbolic(graph& g, const value& c, const value& a, const value& b) { return g.op("Where", c, a, b); }
};

struct clamp : symbolic_op<clamp, "clamp"> {
  static value symbolic(graph& g, const value& x, std::optional<double> lo, std::optional<double> hi = std::nullopt) {
    h::require_opset(g, 11, "clamp");
    const auto bound = [&](std::optional<double> v) {
      return v ? std::optional<value>(h::scalar_like(g, x, *v)) : std::nullopt;
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

struct shape : symbolic_op<shape, "shape"> {
  static value symbolic(graph& g, const value& x) { return g.op("Shape", x); }
};

}  // namespace retarget::symbolics

namespace retarget::ops {

using namespace retarget::literals;
using trace::ints;
using symbolics::conv_options;
using symbolics::interpolate_options;
using symbolics::pool_options;
using symbolics::reduce_options;

template <class Op, fixed_string Name>
using op_function = trace::op_function<Op, Name>;

// An arithmetic op: two tensors, or a tensor and a number (which takes the tensor's type).
template <class Op, fixed_string Name>
struct binary_function : rewritable<binary_function<Op, Name>, Name> {
  template <class B>
  trace::tensor<B> origin(const trace::tensor<B>& a, const trace::tensor<B>& b) const {
    return trace::apply<Op>(a, b);
  }
  template <class B, class S>
    requires std::is_arithmetic_v<S>
  trace::tensor<B> origin(const trace::tensor<B>& a, S b) const {
    return trace::apply<Op>(a, like(a, b));
  }
  template <class B, class S>
    requires std::is_arithmetic_v<S>
  trace::tensor<B> origin(S a, const trace::tensor<B>& b) const {
    return trace::apply<Op>(like(b, a), b);
  }

 private:
  template <class B>
  static trace::tensor<B> like(const trace::tensor<B>& t, double v) {
    return {t.owner(), trace::symbolic_helpers::scalar_like(t.owner().graph(), t.value(), v)};
  }
};

#define RETARGET_BINARY_OP(name) \
  using name##_fn = binary_function<symbolics::name, #name>; \
  inline constexpr name##_fn name{};
RETARGET_BINARY_OP(add)
RETARGET_BINARY_OP(sub)
RETARGET_BINARY_OP(mul)
RETARGET_BINARY_OP(div)
RETARGET_BINARY_OP(pow)
#undef RETARGET_BINARY_OP

// Each op: `using relu_fn = ...; inline constexpr relu_fn relu;`, named as in torch.
#define RETARGET_OP(name, symbolic) \
  using name##_fn = op_function<symbolics::symbolic, #name>; \
  inline constexpr name##_fn name{};
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

// A dim of x: its size when static, else a 0-d int64 tensor computed from a Shape node.
template <class B>
std::variant<std::int64_t, trace::tensor<B>> size(const trace::tensor<B>& x, std::int64_t dim) {
  const auto d = x.dim(dim);
  if (d.is_static()) return d.size;
  auto& g = x.owner().graph();
  const auto axis = trace::symbolic_helpers::normalized_axis(dim, x.rank());
  return trace::tensor<B>(
      x.owner(), g.op("Gather", shape(x).value(), trace::symbolic_helpers::int_scalar(g, axis), "axis"_i = 0));
}

}  // namespace retarget::ops

namespace retarget::trace {

// The arithmetic operators, through the ops, so their rewrites apply.
template <class B, class R>
auto operator+(const tensor<B>& a, const R& b) -> decltype(ops::add(a, b)) { return ops::add(a, b); }
template <class B, class L>
  requires std::is_arithmetic_v<L>
tensor<B> operator+(L a, const tensor<B>& b) { return ops::add(a, b); }
template <class B, class R>
auto operator-(const tensor<B>& a, const R& b) -> decltype(ops::sub(a, b)) { return ops::sub(a, b); }
template <class B, class L>
  requires std::is_arithmetic_v<L>
tensor<B> operator-(L a, const tensor<B>& b) { return ops::sub(a, b); }
template <class B, class R>
auto operator*(const tensor<B>& a, const R& b) -> decltype(ops::mul(a, b)) { return ops::mul(a, b); }
template <class B, class L>
  requires std::is_arithmetic_v<L>
tensor<B> operator*(L a, const tensor<B>& b) { return ops::mul(a, b); }
template <class B, class R>
auto operator/(const tensor<B>& a, const R& b) -> decltype(ops::div(a, b)) { return ops::div(a, b); }
template <class B, class L>
  requires std::is_arithmetic_v<L>
tensor<B> operator/(L a, const tensor<B>& b) { return ops::div(a, b); }
template <class B>
tensor<B> operator-(const tensor<B>& a) { return ops::neg(a); }

}  // namespace retarget::trace

#endif  // RETARGET_TRACE_OPS_HPP
