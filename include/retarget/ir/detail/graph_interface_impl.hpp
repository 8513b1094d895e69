// The definitions of graph_interface.hpp's finishing of a graph's interface (see linkage.hpp for
// where they are compiled).
#ifndef RETARGET_IR_DETAIL_GRAPH_INTERFACE_IMPL_HPP
#define RETARGET_IR_DETAIL_GRAPH_INTERFACE_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph_interface.hpp>
#include <retarget/ir/value.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::ir {

// The graph's outputs' names, in order.
RETARGET_COMPILED_DECL std::vector<std::string> output_names(const graph_base& g) {
  std::vector<std::string> out;
  for (const auto& o : g.proto().output()) out.push_back(o.name());
  return out;
}

// The rank output `name` declares (0 when it declares no shape), or nullopt when no output has
// that name.
RETARGET_COMPILED_DECL std::optional<std::size_t> output_rank(const graph_base& g,
                                                              std::string_view name) {
  for (const auto& o : g.proto().output())
    if (o.name() == name) {
      const auto& type = o.type().tensor_type();
      return type.has_shape() ? static_cast<std::size_t>(type.shape().dim_size()) : 0;
    }
  return std::nullopt;
}

// Names dim `axis` of output `name` (a symbolic dim: the batch, a length); retarget::error when
// no output has that name or the axis is not one of its dims.
RETARGET_COMPILED_DECL void name_output_dim(graph_base& g, std::string_view name, std::int64_t axis,
                                            const std::string& dim_name) {
  const auto rank = output_rank(g, name);
  if (!rank) throw error("retarget: no output named '" + std::string(name) + "'");
  if (axis < 0 || axis >= static_cast<std::int64_t>(*rank))
    throw error("retarget: " + std::to_string(axis) + " is not an axis of output '" +
                std::string(name) + "', which has rank " + std::to_string(*rank));
  for (auto& o : *g.proto().mutable_output())
    if (o.name() == name)
      o.mutable_type()
          ->mutable_tensor_type()
          ->mutable_shape()
          ->mutable_dim(static_cast<int>(axis))
          ->set_dim_param(dim_name);
}

// Each initializer listed as a graph input too, of its type (the form of opset 8 and before,
// where a weight had to be an input).
RETARGET_COMPILED_DECL void list_initializers_as_inputs(graph_base& g) {
  auto& graph = g.proto();
  for (const auto& init : graph.initializer()) {
    auto* input = graph.add_input();
    input->set_name(init.name());
    *input->mutable_type() = type_of(init);
  }
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_GRAPH_INTERFACE_IMPL_HPP
