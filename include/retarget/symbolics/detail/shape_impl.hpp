// The definitions of symbolics/shape.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_SYMBOLICS_DETAIL_SHAPE_IMPL_HPP
#define RETARGET_SYMBOLICS_DETAIL_SHAPE_IMPL_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <retarget/symbolics/shape.hpp>
#include <string>
#include <utility>
#include <vector>

namespace retarget::symbolics {

RETARGET_LAZY_DEF value reshape::symbolic(graph& g, const value& x, const ints& shape) {
  return g.op("Reshape", x, ints_constant(g, shape));
}

RETARGET_LAZY_DEF value flatten::symbolic(graph& g, const value& x, std::int64_t start,
                                          std::int64_t end) {
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

RETARGET_LAZY_DEF value permute::symbolic(graph& g, const value& x, const ints& dims) {
  return g.op("Transpose", x, "perm"_i = dims);
}

RETARGET_LAZY_DEF value transpose::symbolic(graph& g, const value& x, std::int64_t dim0,
                                            std::int64_t dim1) {
  ints perm;
  for (std::size_t i = 0; i < x.rank(); ++i) perm.push_back(static_cast<std::int64_t>(i));
  std::swap(perm[static_cast<std::size_t>(normalized_axis(dim0, x.rank()))],
            perm[static_cast<std::size_t>(normalized_axis(dim1, x.rank()))]);
  return g.op("Transpose", x, "perm"_i = perm);
}

RETARGET_LAZY_DEF value squeeze::symbolic(graph& g, const value& x,
                                          const std::optional<ints>& dims) {
  if (!dims) return g.op("Squeeze", x);
  if (g.opset() >= 13) return g.op("Squeeze", x, ints_constant(g, *dims));
  return g.op(runtime_op("Squeeze"), x, "axes"_i = *dims);
}

RETARGET_LAZY_DEF value unsqueeze::symbolic(graph& g, const value& x, std::int64_t dim) {
  return symbolic(g, x, ints{dim});
}

RETARGET_LAZY_DEF value unsqueeze::symbolic(graph& g, const value& x, const ints& dims) {
  if (g.opset() >= 13) return g.op("Unsqueeze", x, ints_constant(g, dims));
  return g.op(runtime_op("Unsqueeze"), x, "axes"_i = dims);
}

RETARGET_LAZY_DEF value cat::symbolic(graph& g, const std::vector<value>& xs, std::int64_t dim) {
  return g.op("Concat", xs, "axis"_i = dim);
}

RETARGET_LAZY_DEF std::vector<value> split::symbolic(graph& g, const value& x, const ints& sizes,
                                                     std::int64_t dim) {
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

RETARGET_LAZY_DEF value slice::symbolic(graph& g, const value& x, std::int64_t dim,
                                        std::int64_t start, std::int64_t end, std::int64_t step) {
  require_opset(g, 10, "slice");
  return g.op("Slice", x, ints_constant(g, {start}), ints_constant(g, {end}),
              ints_constant(g, {dim}), ints_constant(g, {step}));
}

RETARGET_LAZY_DEF value gather::symbolic(graph& g, const value& x, std::int64_t dim,
                                         const value& index) {
  return g.op("GatherElements", x, index, "axis"_i = dim);
}

RETARGET_LAZY_DEF value index_select::symbolic(graph& g, const value& x, std::int64_t dim,
                                               const value& index) {
  return g.op("Gather", x, index, "axis"_i = dim);
}

RETARGET_LAZY_DEF value expand::symbolic(graph& g, const value& x, ints sizes) {
  for (auto& s : sizes)
    if (s == -1) s = 1;
  return g.op("Expand", x, ints_constant(g, sizes));
}

RETARGET_LAZY_DEF value repeat::symbolic(graph& g, const value& x, const ints& sizes) {
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

RETARGET_LAZY_DEF value pad::symbolic(graph& g, const value& x, const ints& pads,
                                      const std::string& mode, double fill) {
  require_opset(g, 11, "pad");
  const auto rank = x.rank();
  ints onnx_pads(2 * rank, 0);
  for (std::size_t i = 0; i < pads.size() / 2; ++i) {
    const auto d = rank - 1 - i;
    onnx_pads[d] = pads[2 * i];
    onnx_pads[d + rank] = pads[2 * i + 1];
  }
  const std::string onnx_mode = mode == "replicate" ? "edge" : mode;
  return g.op("Pad", x, ints_constant(g, onnx_pads), scalar_like(g, x, fill), "mode"_s = onnx_mode);
}

RETARGET_LAZY_DEF value shape::symbolic(graph& g, const value& x) { return g.op("Shape", x); }

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_DETAIL_SHAPE_IMPL_HPP
