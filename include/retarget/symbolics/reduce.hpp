// Symbolics of reductions: sum, mean, amax over axes, keeping dims or not.
#ifndef RETARGET_SYMBOLICS_REDUCE_HPP
#define RETARGET_SYMBOLICS_REDUCE_HPP

#include <cstdint>
#include <retarget/core/symbolic.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <vector>

namespace retarget::symbolics {

struct reduce_options {
  ints dims = {};  // empty: every dim
  bool keepdim = false;
};

namespace detail {
inline value reduce(graph& g, const char* op, const value& x, const reduce_options& o,
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

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_REDUCE_HPP
