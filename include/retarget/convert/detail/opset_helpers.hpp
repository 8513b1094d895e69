// Graph helpers of the shipped opset adapters (convert/opset_adapters.hpp).
#ifndef RETARGET_CONVERT_DETAIL_OPSET_HELPERS_HPP
#define RETARGET_CONVERT_DETAIL_OPSET_HELPERS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/convert/node.hpp>
#include <retarget/convert/opset_adapter.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_helpers.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace retarget::convert::detail {

// ir's graph helper: an axis made non-negative (checked).
using ir::normalized_axis;

inline std::optional<std::string> constant_or_absent(std::size_t i, const input_facts& in,
                                                     const char* what) {
  if (!in.present(i) || in.constant(i)) return std::nullopt;
  return std::string(what) + " (input " + std::to_string(i) +
         ") is computed at run time: opset 12 takes it as an attribute, so it must be a constant";
}

inline std::optional<std::vector<std::int64_t>> constant_ints(ir::graph& g, const node& n,
                                                              std::size_t i) {
  if (!n.has_input(i)) return std::nullopt;
  const auto* data = g.constant_data(n.input(i));
  if (!data)
    throw error("retarget: " + n.describe() + ": input " + std::to_string(i) +
                " is computed at run time: opset 12 takes it as an attribute");
  std::vector<std::int64_t> out;
  for (const double v : ir::values_as_double(ir::tensor_view(data)))
    out.push_back(static_cast<std::int64_t>(v));
  return out;
}

inline ir::value emit_resize(auto& g, const node& n, std::vector<ir::value> inputs,
                             ir::attribute_list attributes) {
  ir::node_spec spec;
  spec.op_type = "Resize";
  spec.inputs = std::move(inputs);
  spec.attributes = std::move(attributes);
  spec.outputs = {n.output_name(0)};
  spec.name = n.name();
  return g.emit(std::move(spec)).front();
}

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_OPSET_HELPERS_HPP
