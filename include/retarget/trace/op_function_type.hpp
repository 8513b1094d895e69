// The type of every op of the library, op_function<Op, Name>, without what its origin runs:
// the symbolic op Op may be only declared and traced tensors only declared, so a backend's tag
// can name an op and rewrite it (function_rewrite<ops::repeat_fn, B>) without the op library,
// the tracer or ONNX. What the origin runs (trace::apply) is defined in trace/op_function.hpp,
// which a unit that calls an op includes.
#ifndef RETARGET_TRACE_OP_FUNCTION_TYPE_HPP
#define RETARGET_TRACE_OP_FUNCTION_TYPE_HPP

#include <cstdint>
#include <retarget/core/backend.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/core/rewritable.hpp>
#include <vector>

namespace retarget::trace {

using ints = std::vector<std::int64_t>;

template <Backend B>
class tensor;

// Runs the symbolic op Op on the arguments (trace/op_function.hpp).
template <class Op, class... A>
auto apply(const A&... args);

// An op of the library: a rewritable function whose origin applies the symbolic op Op.
template <class Op, fixed_string Name>
struct op_function : rewritable<op_function<Op, Name>, Name> {
  template <class First, class... A>
  requires(!is_rewrite_context_v<First>) auto origin(const First& first, const A&... args) const {
    return apply<Op>(first, args...);
  }
};

}  // namespace retarget::trace

#endif  // RETARGET_TRACE_OP_FUNCTION_TYPE_HPP
