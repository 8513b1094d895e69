// Symbolics of reductions: sum, mean, amax over axes, keeping dims or not.
#ifndef RETARGET_SYMBOLICS_REDUCE_HPP
#define RETARGET_SYMBOLICS_REDUCE_HPP

#include <cstdint>
#include <retarget/core/config.hpp>
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
RETARGET_LAZY_DECL value reduce(graph& g, const char* op, const value& x, const reduce_options& o,
                                bool axes_as_input);
}  // namespace detail

struct sum : symbolic_op<sum, "sum"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const reduce_options& o = {});
};
struct mean : symbolic_op<mean, "mean"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const reduce_options& o = {});
};
struct amax : symbolic_op<amax, "amax"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const reduce_options& o = {});
};

}  // namespace retarget::symbolics

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/symbolics/detail/reduce_impl.hpp>
#endif

#endif  // RETARGET_SYMBOLICS_REDUCE_HPP
