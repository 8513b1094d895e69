// The definitions of symbolics/reduce.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_SYMBOLICS_DETAIL_REDUCE_IMPL_HPP
#define RETARGET_SYMBOLICS_DETAIL_REDUCE_IMPL_HPP

#include <retarget/core/config.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <retarget/symbolics/reduce.hpp>
#include <utility>

namespace retarget::symbolics {

namespace detail {
RETARGET_LAZY_DEF value reduce(graph& g, const char* op, const value& x, const reduce_options& o,
                               bool axes_as_input) {
  ir::node_spec spec;
  spec.op_type = op;
  spec.inputs = {x};
  spec.attributes.push_back(ir::attribute_entry("keepdims"_i = o.keepdim));
  if (!o.dims.empty()) {
    if (axes_as_input) {
      spec.inputs.push_back(ints_constant(g, o.dims));
    } else {
      spec.attributes.push_back(ir::attribute_entry("axes"_i = o.dims));
    }
  }
  return g.emit(std::move(spec)).front();
}
}  // namespace detail

RETARGET_LAZY_DEF value sum::symbolic(graph& g, const value& x, const reduce_options& o) {
  return detail::reduce(g, "ReduceSum", x, o, g.opset() >= 13);
}

RETARGET_LAZY_DEF value mean::symbolic(graph& g, const value& x, const reduce_options& o) {
  return detail::reduce(g, "ReduceMean", x, o, false);
}

RETARGET_LAZY_DEF value amax::symbolic(graph& g, const value& x, const reduce_options& o) {
  return detail::reduce(g, "ReduceMax", x, o, false);
}

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_DETAIL_REDUCE_IMPL_HPP
