// The definitions of symbolics/nn.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_SYMBOLICS_DETAIL_NN_IMPL_HPP
#define RETARGET_SYMBOLICS_DETAIL_NN_IMPL_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <retarget/symbolics/nn.hpp>
#include <string>
#include <utility>
#include <vector>

namespace retarget::symbolics {

namespace detail {

RETARGET_LAZY_DEF std::string shape_text(const value& v) {
  return "'" + v.name() + "' " + ir::to_string(v.shape());
}

RETARGET_LAZY_DEF std::optional<std::int64_t> static_dim(const value& v, std::int64_t axis) {
  if (!v.has_shape()) return std::nullopt;
  const auto shape = v.shape();
  const auto n = static_cast<std::int64_t>(shape.size());
  if (axis < 0) axis += n;
  if (axis < 0 || axis >= n || !shape[static_cast<std::size_t>(axis)].is_static())
    return std::nullopt;
  return shape[static_cast<std::size_t>(axis)].size;
}

RETARGET_LAZY_DEF void check_bias(const char* op, const std::optional<value>& b, const value& w,
                                  std::optional<std::int64_t> out) {
  if (!b || !out) return;
  const auto size = static_dim(*b, 0);
  if (b->has_shape() && (b->rank() != 1 || (size && *size != *out)))
    throw error(std::string("retarget: ") + op + ": the bias " + shape_text(*b) +
                " does not fit the weight " + shape_text(w) + ": it needs " + std::to_string(*out) +
                " values");
}

RETARGET_LAZY_DEF void check_conv_weight(const char* op, const value& x, const value& w,
                                         const std::optional<value>& b, std::int64_t groups,
                                         bool transposed) {
  if (!x.has_shape() || !w.has_shape()) return;
  if (x.rank() != w.rank() || x.rank() < 3)
    throw error(std::string("retarget: ") + op + ": the input " + shape_text(x) +
                " and the weight " + shape_text(w) + " must have the same rank, at least 3");
  const auto channels = static_dim(x, 1), in = static_dim(w, transposed ? 0 : 1);
  if (channels && in && *channels != (transposed ? *in : *in * groups))
    throw error(std::string("retarget: ") + op + ": the input " + shape_text(x) + " has " +
                std::to_string(*channels) + " channels, the weight " + shape_text(w) + " takes " +
                std::to_string(transposed ? *in : *in * groups) + " (groups " +
                std::to_string(groups) + ")");
  const auto out = static_dim(w, transposed ? 1 : 0);
  check_bias(op, b, w, out && transposed ? std::optional(*out * groups) : out);
}

RETARGET_LAZY_DEF std::string fresh_name(const ir::graph_base& g, const std::string& base) {
  std::string name = base;
  for (int k = 1; g.has_name(name); ++k) name = base + "_" + std::to_string(k);
  return name;
}

RETARGET_LAZY_DEF std::optional<ir::tensor> transposed(const ir::tensor_view& t) {
  const auto from = t && !t.is_external() ? t.raw_bytes() : std::nullopt;
  const auto dims = from ? t.dims() : ir::dims_t{};
  if (dims.size() != 2) return std::nullopt;
  const auto rows = static_cast<std::size_t>(dims[0]), cols = static_cast<std::size_t>(dims[1]);
  const std::size_t size = ir::size_of(t.type());
  std::vector<std::byte> to(from->size());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      std::memcpy(&to[(c * rows + r) * size], &(*from)[(r * cols + c) * size], size);
  return ir::tensor::from_raw(
      t.type(), {static_cast<std::int64_t>(cols), static_cast<std::int64_t>(rows)}, to);
}

RETARGET_LAZY_DEF ints repeated(const ints& v, std::size_t n, std::int64_t fill) {
  if (v.empty()) return ints(n, fill);
  if (v.size() == 1) return ints(n, v[0]);
  return v;
}

RETARGET_LAZY_DEF ints kernel_of(const value& w) {
  const auto shape = w.static_shape();
  if (!shape || shape->size() < 3)
    throw error("retarget: a convolution weight needs a static shape (out, in, k...)");
  return ints(shape->begin() + 2, shape->end());
}

RETARGET_LAZY_DEF ints symmetric_pads(const ints& padding, std::size_t n) {
  const ints p = repeated(padding, n, 0);
  ints pads(p.begin(), p.end());
  pads.insert(pads.end(), p.begin(), p.end());
  return pads;
}

}  // namespace detail

RETARGET_LAZY_DEF value linear::symbolic(graph& g, const value& x, const value& w,
                                         const std::optional<value>& b) {
  if (w.has_shape() && w.rank() != 2)
    throw error("retarget: linear: the weight " + detail::shape_text(w) +
                " must be (out_features, in_features)");
  const auto features = detail::static_dim(x, -1), in = detail::static_dim(w, 1);
  if (features && in && *features != *in)
    throw error("retarget: linear: the input " + detail::shape_text(x) + " has " +
                std::to_string(*features) + " features, the weight " + detail::shape_text(w) +
                " takes " + std::to_string(*in));
  detail::check_bias("linear", b, w, detail::static_dim(w, 0));
  // 2-D: Gemm reads the weight transposed (its bias is optional from opset 11).
  if (x.rank() == 2 && b) return g.op("Gemm", x, w, *b, "transB"_i = 1);
  if (x.rank() == 2 && g.opset() >= 11) return g.op("Gemm", x, w, "transB"_i = 1);
  // A stored weight is stored transposed, as torch does, rather than transposed at run time.
  auto stored = detail::transposed(g.constant_data(w));  // a 2-D constant in memory
  const auto y = g.op(
      "MatMul", x,
      stored ? g.initializer(detail::fresh_name(g, w.name() + "_transposed"), std::move(*stored))
             : g.op("Transpose", w, "perm"_i = {1, 0}));
  return b ? g.op("Add", y, *b) : y;
}

RETARGET_LAZY_DEF value conv::symbolic(graph& g, const value& x, const value& w,
                                       const std::optional<value>& b, const conv_options& o) {
  detail::check_conv_weight("conv", x, w, b, o.groups, false);
  const std::size_t n = x.rank() - 2;
  const auto attrs = [&](auto&&... in) {
    return g.op("Conv", in..., "dilations"_i = detail::repeated(o.dilation, n, 1),
                "group"_i = o.groups, "kernel_shape"_i = detail::kernel_of(w),
                "pads"_i = detail::symmetric_pads(o.padding, n),
                "strides"_i = detail::repeated(o.stride, n, 1));
  };
  return b ? attrs(x, w, *b) : attrs(x, w);
}

RETARGET_LAZY_DEF value conv_transpose::symbolic(graph& g, const value& x, const value& w,
                                                 const std::optional<value>& b,
                                                 const conv_options& o) {
  detail::check_conv_weight("conv_transpose", x, w, b, o.groups, true);
  const std::size_t n = x.rank() - 2;
  const auto emit = [&](auto&&... in) {
    return g.op("ConvTranspose", in..., "dilations"_i = detail::repeated(o.dilation, n, 1),
                "group"_i = o.groups, "kernel_shape"_i = detail::kernel_of(w),
                "output_padding"_i = detail::repeated(o.output_padding, n, 0),
                "pads"_i = detail::symmetric_pads(o.padding, n),
                "strides"_i = detail::repeated(o.stride, n, 1));
  };
  return b ? emit(x, w, *b) : emit(x, w);
}

RETARGET_LAZY_DEF value batch_norm::symbolic(graph& g, const value& x, const value& weight,
                                             const value& bias, const value& mean, const value& var,
                                             double eps, double momentum) {
  return g.op("BatchNormalization", x, weight, bias, mean, var, "epsilon"_f = eps,
              "momentum"_f = 1 - momentum);
}

RETARGET_LAZY_DEF value layer_norm::symbolic(graph& g, const value& x, const ints& normalized_shape,
                                             const std::optional<value>& w,
                                             const std::optional<value>& b, double eps) {
  const auto axis = -static_cast<std::int64_t>(normalized_shape.size());
  if (g.opset() >= 17 && w && b)
    return g.op("LayerNormalization", x, *w, *b, "axis"_i = axis, "epsilon"_f = eps);
  // Before opset 17: (x - mean) / sqrt(var + eps) * w + b.
  ints axes;
  for (std::int64_t a = axis; a < 0; ++a) axes.push_back(a);
  const auto mean = [&](const value& v) { return g.op("ReduceMean", v, "axes"_i = axes); };
  const auto centered = g.op("Sub", x, mean(x));
  const auto var = mean(g.op("Mul", centered, centered));
  auto y = g.op("Div", centered, g.op("Sqrt", g.op("Add", var, scalar_like(g, x, eps))));
  if (w) y = g.op("Mul", y, *w);
  if (b) y = g.op("Add", y, *b);
  return y;
}

RETARGET_LAZY_DEF value max_pool::symbolic(graph& g, const value& x, const pool_options& o) {
  const std::size_t n = x.rank() - 2;
  const ints kernel = detail::repeated(o.kernel_size, n, 1);
  return g.op("MaxPool", x, "ceil_mode"_i = o.ceil_mode,
              "dilations"_i = detail::repeated(o.dilation, n, 1), "kernel_shape"_i = kernel,
              "pads"_i = detail::symmetric_pads(o.padding, n),
              "strides"_i = o.stride.empty() ? kernel : detail::repeated(o.stride, n, 1));
}

RETARGET_LAZY_DEF value avg_pool::symbolic(graph& g, const value& x, const pool_options& o) {
  const std::size_t n = x.rank() - 2;
  const ints kernel = detail::repeated(o.kernel_size, n, 1);
  return g.op("AveragePool", x, "ceil_mode"_i = o.ceil_mode,
              "count_include_pad"_i = o.count_include_pad, "kernel_shape"_i = kernel,
              "pads"_i = detail::symmetric_pads(o.padding, n),
              "strides"_i = o.stride.empty() ? kernel : detail::repeated(o.stride, n, 1));
}

RETARGET_LAZY_DEF value adaptive_avg_pool::symbolic(graph& g, const value& x,
                                                    const ints& output_size) {
  if (std::all_of(output_size.begin(), output_size.end(), [](auto s) { return s == 1; }))
    return g.op("GlobalAveragePool", x);
  const auto shape = x.static_shape();
  if (!shape)
    throw error("retarget: adaptive_avg_pool2d to a size other than 1 needs static spatial dims");
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

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_DETAIL_NN_IMPL_HPP
