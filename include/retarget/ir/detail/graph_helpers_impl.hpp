// The definitions of ir/graph_helpers.hpp: inline header-only, compiled once into
// retarget::compiled otherwise (each makes a tensor of its own element type).
#ifndef RETARGET_IR_DETAIL_GRAPH_HELPERS_IMPL_HPP
#define RETARGET_IR_DETAIL_GRAPH_HELPERS_IMPL_HPP

#include <cstdint>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_helpers.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/value.hpp>
#include <vector>

namespace retarget::ir {

RETARGET_LAZY_DEF value ints_constant(graph_base& g, const std::vector<std::int64_t>& values) {
  return g.constant(tensor::of(values, {static_cast<std::int64_t>(values.size())}));
}

RETARGET_LAZY_DEF value int_scalar(graph_base& g, std::int64_t v) {
  return g.constant(tensor::scalar(v));
}

RETARGET_LAZY_DEF value scalar_like(graph_base& g, const value& x, double v) {
  switch (x.dtype()) {
    case dtype::f64:
      return g.constant(tensor::scalar(v));
    case dtype::i64:
      return g.constant(tensor::scalar(static_cast<std::int64_t>(v)));
    case dtype::i32:
      return g.constant(tensor::scalar(static_cast<std::int32_t>(v)));
    case dtype::boolean:
      return g.constant(tensor::scalar(v != 0));
    default:
      return g.constant(tensor::scalar(static_cast<float>(v)));
  }
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_GRAPH_HELPERS_IMPL_HPP
