// The symbolics of the op library: how each op becomes ONNX nodes, each a symbolic_op that a
// symbolic_rewrite can replace for a backend. These are what they share: small constants,
// axes, opset checks.
#ifndef RETARGET_SYMBOLICS_HELPERS_HPP
#define RETARGET_SYMBOLICS_HELPERS_HPP

#include <cstdint>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_helpers.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/value.hpp>
#include <string>
#include <vector>

namespace retarget::symbolics {

using ir::value;
using graph = ir::graph;
using ints = std::vector<std::int64_t>;

// The graph helpers every rewrite shares (ir/graph_helpers.hpp).
using ir::int_scalar;
using ir::ints_constant;
using ir::normalized_axis;
using ir::scalar_like;

// Throws, naming `what`, unless g targets opset `at_least` or later.
RETARGET_LAZY_DECL void require_opset(const ir::graph& g, int at_least, const char* what);

}  // namespace retarget::symbolics

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/symbolics/detail/helpers_impl.hpp>
#endif

#endif  // RETARGET_SYMBOLICS_HELPERS_HPP
