// Symbolics of ops that move data without computing: reshape, permute, squeeze, cat, split,
// slice, gather, expand, repeat, pad, shape.
#ifndef RETARGET_SYMBOLICS_SHAPE_HPP
#define RETARGET_SYMBOLICS_SHAPE_HPP

#include <algorithm>
#include <cstdint>
#include <optional>
#include <retarget/core/symbolic.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <vector>

namespace retarget::symbolics {

struct reshape : symbolic_op<reshape, "reshape"> {
  static value symbolic(graph& g, const value& x, const ints& shape) {
    return g.op("Reshape", x, ints_constant(g, shape));
  }
};

struct flatten : symbolic_op<flatten, "flatten"> {
  static value symbolic(graph& g, const value& x, std::int64_t start = 0, std::int64_t end = -1) {
    const auto r = x.rank();
    start = normalized_axis(start, r);
    end = normalized_axis(end, r);
    if (end == static_cast<std::int64_t>(r) - 1 && start == 1)
      return g.op("Flatten", x, "axis"_i = 1);
    ints shape;
    for (std::int64_t i = 0; i < start; ++i) shape.push_back(0);
    shape.push_back(-1);
    const auto dims = x.shape();
    for (auto i = static_cast<std::size_t>(end) + 1; i < r; ++i) {
      if (!dims[i].is_static()) throw error("retarget: flatten with dynamic trailing dims");
      shape.push_back(dims[i].size);
    }
    return g.op("Reshape", x, ints_constant(g, shape));
  }
};

struct permute : symbolic_op<permute, "permute"> {
  static value symbolic(graph& g, const value& x, const ints& dims) {
    return g.op("Transpose", x, "perm"_i = dims);
  }
};

struct transpose : symbolic_op<transpose, "transpose"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim0, std::int64_t dim1) {
    ints perm;
    for (std::size_t i = 0; i < x.rank(); ++i) perm.push_back(static_cast<std::int64_t>(i));
    std::swap(perm[static_cast<std::size_t>(normalized_axis(dim0, x.rank()))],
              perm[static_cast<std::size_t>(normalized_axis(dim1, x.rank()))]);
    return g.op("Transpose", x, "perm"_i = perm);
  }
};

struct squeeze : symbolic_op<squeeze, "squeeze"> {
  // No dims: every dim of size 1 by ONNX's own rule (an unknown size 1 is not squeezed by torch).
  static value symbolic(graph& g, const value& x, const std::optional<ints>& dims = std::nullopt) {
    if (!dims) return g.op("Squeeze", x);
    if (g.opset() >= 13) return g.op("Squeeze", x, ints_constant(g, *dims));
    return g.op(runtime_op("Squeeze"), x, "axes"_i = *dims);
  }
};

struct unsqueeze : symbolic_op<unsqueeze, "unsqueeze"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim) {
    return symbolic(g, x, ints{dim});
  }
  static value symbolic(graph& g, const value& x, const ints& dims) {
    if (g.opset() >= 13) return g.op("Unsqueeze", x, ints_constant(g, dims));
    return g.op(runtime_op("Unsqueeze"), x, "axes"_i = dims);
  }
};

struct cat : symbolic_op<cat, "cat"> {
  static value symbolic(graph& g, const std::vector<value>& xs, std::int64_t dim = 0) {
    return g.op("Concat", xs, "axis"_i = dim);
  }
};

struct split : symbolic_op<split, "split"> {
  static std::vector<value> symbolic(graph& g, const value& x, const ints& sizes,
                                     std::int64_t dim = 0) {
    ir::node_spec spec;
    spec.op_type = "Split";
    spec.inputs = {x};
    spec.output_count = sizes.size();
    spec.attributes.push_back(ir::attribute_entry("axis"_i = dim));
    if (g.opset() >= 13) {
      spec.inputs.push_back(ints_constant(g, sizes));
    } else {
      spec.attributes.push_back(ir::attribute_entry("split"_i = sizes));
    }
    return g.emit(std::move(spec));
  }
};

struct slice : symbolic_op<slice, "slice"> {
  static value symbolic(graph& g, const value& x, std::int64_t dim, std::int64_t start,
                        std::int64_t end, std::int64_t step = 1) {
    require_opset(g, 10, "slice");
    return g.op("Slice", x, ints_constant(g, {start}), ints_constant(g, {end}),
                ints_constant(g, {dim}), ints_constant(g, {step}));
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
    return g.op("Expand", x, ints_constant(g, sizes));
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
      for (std::size_t i = 0; i < sizes.size() - rank; ++i)
        axes.push_back(static_cast<std::int64_t>(i));
      input = unsqueeze::symbolic(g, x, axes);
    }
    return g.op("Tile", input, ints_constant(g, sizes));
  }
};

struct pad : symbolic_op<pad, "pad"> {
  // torch's pads run from the last dim: (left, right, top, bottom, ...); ONNX's are all the
  // begins, then all the ends, from the first dim.
  static value symbolic(graph& g, const value& x, const ints& pads,
                        const std::string& mode = "constant", double fill = 0) {
    require_opset(g, 11, "pad");
    const auto rank = x.rank();
    ints onnx_pads(2 * rank, 0);
    for (std::size_t i = 0; i < pads.size() / 2; ++i) {
      const auto d = rank - 1 - i;
      onnx_pads[d] = pads[2 * i];
      onnx_pads[d + rank] = pads[2 * i + 1];
    }
    const std::string onnx_mode = mode == "replicate" ? "edge" : mode;
    return g.op("Pad", x, ints_constant(g, onnx_pads), scalar_like(g, x, fill),
                "mode"_s = onnx_mode);
  }
};

struct shape : symbolic_op<shape, "shape"> {
  static value symbolic(graph& g, const value& x) { return g.op("Shape", x); }
};

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_SHAPE_HPP
