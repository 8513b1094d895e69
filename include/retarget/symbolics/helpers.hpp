// The symbolics of the op library: how each op becomes ONNX nodes, each a symbolic_op that a
// symbolic_rewrite can replace for a backend. These are what they share: small constants,
// axes, opset checks.
#ifndef RETARGET_SYMBOLICS_HELPERS_HPP
#define RETARGET_SYMBOLICS_HELPERS_HPP

#include <cstdint>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/value.hpp>
#include <string>
#include <vector>

namespace retarget::symbolics {

using ir::value;
using graph = ir::graph;
using ints = std::vector<std::int64_t>;

inline ir::value ints_constant(ir::graph& g, const ints& values) {
  return g.constant(ir::tensor::of(values, {static_cast<std::int64_t>(values.size())}));
}
inline ir::value int_scalar(ir::graph& g, std::int64_t v) {
  return g.constant(ir::tensor::scalar(v));
}

// A scalar constant of x's element type.
inline ir::value scalar_like(ir::graph& g, const ir::value& x, double v) {
  switch (x.dtype()) {
    case ir::dtype::f64:
      return g.constant(ir::tensor::scalar(v));
    case ir::dtype::i64:
      return g.constant(ir::tensor::scalar(static_cast<std::int64_t>(v)));
    case ir::dtype::i32:
      return g.constant(ir::tensor::scalar(static_cast<std::int32_t>(v)));
    case ir::dtype::boolean:
      return g.constant(ir::tensor::scalar(v != 0));
    default:
      return g.constant(ir::tensor::scalar(static_cast<float>(v)));
  }
}

inline std::int64_t normalized_axis(std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r)
    throw error("retarget: axis " + std::to_string(axis) + " is out of range for rank " +
                std::to_string(r));
  return axis < 0 ? axis + r : axis;
}

inline void require_opset(const ir::graph& g, int at_least, const char* what) {
  if (g.opset() < at_least)
    throw error(std::string("retarget: ") + what + " needs opset " + std::to_string(at_least) +
                " or later; the export targets opset " + std::to_string(g.opset()));
}

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_HELPERS_HPP
