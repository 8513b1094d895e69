// A graph's interface as an exporter finishes it: the names of its outputs, a named (dynamic)
// dim of an output, the weights listed as inputs too.
//
//   retarget::ir::name_output_dim(g, "logits", 0, "batch");
//   retarget::ir::list_initializers_as_inputs(g);
#ifndef RETARGET_IR_GRAPH_INTERFACE_HPP
#define RETARGET_IR_GRAPH_INTERFACE_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/value.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::ir {

// The graph's outputs' names, in order.
RETARGET_COMPILED_DECL std::vector<std::string> output_names(const graph_base& g);

// The rank output `name` declares (0 when it declares no shape), or nullopt when no output has
// that name.
RETARGET_COMPILED_DECL std::optional<std::size_t> output_rank(const graph_base& g,
                                                              std::string_view name);

// Names dim `axis` of output `name` (a symbolic dim: the batch, a length); retarget::error when
// no output has that name or the axis is not one of its dims.
RETARGET_COMPILED_DECL void name_output_dim(graph_base& g, std::string_view name, std::int64_t axis,
                                            const std::string& dim_name);

// Each initializer listed as a graph input too, of its type (the form of opset 8 and before,
// where a weight had to be an input).
RETARGET_COMPILED_DECL void list_initializers_as_inputs(graph_base& g);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/graph_interface_impl.hpp>
#endif

#endif  // RETARGET_IR_GRAPH_INTERFACE_HPP
