// The small things rewrites emit again and again: a constant of int64 values (shapes, axes,
// pads), a scalar of another value's element type, an axis made non-negative.
//
//   g.op("Reshape", x, retarget::ir::ints_constant(g, {1, -1}));
//   g.op("Add", x, retarget::ir::scalar_like(g, x, 1.0));
#ifndef RETARGET_IR_GRAPH_HELPERS_HPP
#define RETARGET_IR_GRAPH_HELPERS_HPP

#include <cstddef>
#include <cstdint>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/axis.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/value.hpp>
#include <string>
#include <vector>

namespace retarget::ir {

// A Constant of shape [n] holding the int64 values: for Reshape's shape, Slice's starts, axes.
RETARGET_LAZY_DECL value ints_constant(graph_base& g, const std::vector<std::int64_t>& values);

// A Constant holding one int64, of shape [] (a scalar).
RETARGET_LAZY_DECL value int_scalar(graph_base& g, std::int64_t v);

// A scalar Constant of x's element type holding v: float64, int64, int32 and bool are kept;
// any other type (float32, or not known) is given float32.
RETARGET_LAZY_DECL value scalar_like(graph_base& g, const value& x, double v);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/graph_helpers_impl.hpp>
#endif

#endif  // RETARGET_IR_GRAPH_HELPERS_HPP
