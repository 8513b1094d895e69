// Symbolics of the layers of a network: linear, convolutions, normalizations, pooling.
// Where sizes are static they check that weights fit the input, which ONNX's inference lets
// pass.
#ifndef RETARGET_SYMBOLICS_NN_HPP
#define RETARGET_SYMBOLICS_NN_HPP

#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/symbolic.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <string>

namespace retarget::symbolics {

namespace detail {
// ONNX's shape inference lets weights that do not fit the input pass (Conv of 4 channels with
// 3-channel weights, Gemm with a mismatched K): the model would fail only when run. Where the
// sizes are static, the op refuses them here and names both.
RETARGET_LAZY_DECL std::string shape_text(const value& v);
RETARGET_LAZY_DECL std::optional<std::int64_t> static_dim(const value& v, std::int64_t axis);
RETARGET_LAZY_DECL void check_bias(const char* op, const std::optional<value>& b, const value& w,
                                   std::optional<std::int64_t> out);
RETARGET_LAZY_DECL void check_conv_weight(const char* op, const value& x, const value& w,
                                          const std::optional<value>& b, std::int64_t groups,
                                          bool transposed);
// A name no value of g has yet: `base`, or `base_1`, `base_2`, ...
RETARGET_LAZY_DECL std::string fresh_name(const ir::graph_base& g, const std::string& base);

// A 2-D tensor stored in raw form in memory, transposed; nullopt for another.
RETARGET_LAZY_DECL std::optional<ir::tensor> transposed(const ir::tensor_view& t);

}  // namespace detail

struct linear : symbolic_op<linear, "linear"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const value& w,
                                           const std::optional<value>& b = std::nullopt);
};

struct conv_options {
  ints stride = {};
  ints padding = {};
  ints dilation = {};
  std::int64_t groups = 1;
  ints output_padding = {};  // transposed convolution only
};

namespace detail {
RETARGET_LAZY_DECL ints repeated(const ints& v, std::size_t n, std::int64_t fill);
// The spatial dims of a weight of shape (out, in, k...).
RETARGET_LAZY_DECL ints kernel_of(const value& w);
RETARGET_LAZY_DECL ints symmetric_pads(const ints& padding, std::size_t n);
}  // namespace detail

struct conv : symbolic_op<conv, "conv"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const value& w,
                                           const std::optional<value>& b = std::nullopt,
                                           const conv_options& o = {});
};

struct conv_transpose : symbolic_op<conv_transpose, "conv_transpose"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const value& w,
                                           const std::optional<value>& b = std::nullopt,
                                           const conv_options& o = {});
};

struct batch_norm : symbolic_op<batch_norm, "batch_norm"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const value& weight,
                                           const value& bias, const value& mean, const value& var,
                                           double eps = 1e-5, double momentum = 0.1);
};

struct layer_norm : symbolic_op<layer_norm, "layer_norm"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const ints& normalized_shape,
                                           const std::optional<value>& w = std::nullopt,
                                           const std::optional<value>& b = std::nullopt,
                                           double eps = 1e-5);
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
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const pool_options& o);
};

struct avg_pool : symbolic_op<avg_pool, "avg_pool"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const pool_options& o);
};

struct adaptive_avg_pool : symbolic_op<adaptive_avg_pool, "adaptive_avg_pool"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const ints& output_size);
};

}  // namespace retarget::symbolics

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/symbolics/detail/nn_impl.hpp>
#endif

#endif  // RETARGET_SYMBOLICS_NN_HPP
