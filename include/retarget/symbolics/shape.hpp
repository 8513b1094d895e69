// Symbolics of ops that move data without computing: reshape, permute, squeeze, cat, split,
// slice, gather, expand, repeat, pad, shape.
#ifndef RETARGET_SYMBOLICS_SHAPE_HPP
#define RETARGET_SYMBOLICS_SHAPE_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/symbolic.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <string>
#include <vector>

namespace retarget::symbolics {

struct reshape : symbolic_op<reshape, "reshape"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const ints& shape);
};

struct flatten : symbolic_op<flatten, "flatten"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, std::int64_t start = 0,
                                           std::int64_t end = -1);
};

struct permute : symbolic_op<permute, "permute"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const ints& dims);
};

struct transpose : symbolic_op<transpose, "transpose"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, std::int64_t dim0,
                                           std::int64_t dim1);
};

struct squeeze : symbolic_op<squeeze, "squeeze"> {
  // No dims: every dim of size 1 by ONNX's own rule (an unknown size 1 is not squeezed by torch).
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x,
                                           const std::optional<ints>& dims = std::nullopt);
};

struct unsqueeze : symbolic_op<unsqueeze, "unsqueeze"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, std::int64_t dim);
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const ints& dims);
};

struct cat : symbolic_op<cat, "cat"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const std::vector<value>& xs,
                                           std::int64_t dim = 0);
};

struct split : symbolic_op<split, "split"> {
  RETARGET_LAZY_DECL static std::vector<value> symbolic(graph& g, const value& x, const ints& sizes,
                                                        std::int64_t dim = 0);
};

struct slice : symbolic_op<slice, "slice"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, std::int64_t dim,
                                           std::int64_t start, std::int64_t end,
                                           std::int64_t step = 1);
};

struct gather : symbolic_op<gather, "gather"> {  // torch.gather
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, std::int64_t dim,
                                           const value& index);
};

struct index_select : symbolic_op<index_select, "index_select"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, std::int64_t dim,
                                           const value& index);
};

struct expand : symbolic_op<expand, "expand"> {
  // torch's -1 keeps a dim; Expand's broadcasting keeps it for a 1.
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, ints sizes);
};

struct repeat : symbolic_op<repeat, "repeat"> {
  // torch.Tensor.repeat: extra sizes add leading dims, then each dim is tiled.
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const ints& sizes);
};

struct pad : symbolic_op<pad, "pad"> {
  // torch's pads run from the last dim: (left, right, top, bottom, ...); ONNX's are all the
  // begins, then all the ends, from the first dim.
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const ints& pads,
                                           const std::string& mode = "constant", double fill = 0);
};

struct shape : symbolic_op<shape, "shape"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x);
};

}  // namespace retarget::symbolics

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/symbolics/detail/shape_impl.hpp>
#endif

#endif  // RETARGET_SYMBOLICS_SHAPE_HPP
