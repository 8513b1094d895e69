// The checks a node passes before it joins a graph, each with an error that names the op, its
// opset and what is wrong: the op exists at the opset, its attributes are declared with their
// kinds (an attribute that became an input says so) and enumerated ones have a value the op
// takes, its input and output counts fit, ONNX's own Verify, the ranks and strides ONNX's
// inference would crash on, and its inputs' element types.
#ifndef RETARGET_IR_DETAIL_NODE_CHECK_HPP
#define RETARGET_IR_DETAIL_NODE_CHECK_HPP

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <exception>
#include <limits>
#include <optional>
#include <retarget/core/closest_names.hpp>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/detail/attribute_values.hpp>
#include <retarget/ir/detail/value_table.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/schema.hpp>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace retarget::ir::detail {

// "retarget: Resize (opset 17)", "retarget: mmdeploy::TRTBatchedNMS (mmdeploy opset 1)": how
// every error about a node begins.
inline std::string node_where(const onnx::NodeProto& node, int version) {
  const std::string op =
      node.domain().empty() ? node.op_type() : node.domain() + "::" + node.op_type();
  return "retarget: " + op + " (" + (node.domain().empty() ? "opset " : node.domain() + " opset ") +
         std::to_string(version) + ")";
}

// "x float32 [1, 3, n], w float32 [8, 3, 3]": what inference was given, for its errors.
inline std::string describe_inputs(const onnx::NodeProto& node,
                                   const value_table::type_map& types) {
  std::string out;
  for (const auto& in : node.input()) {
    if (!out.empty()) out += ", ";
    const auto it = types.find(in);
    if (in.empty() || it == types.end()) {
      out += in.empty() ? "(absent)" : in;
      continue;
    }
    const auto& t = it->second->tensor_type();
    out += in + " " + std::string(to_string(static_cast<dtype>(t.elem_type())));
    if (t.has_shape()) out += " " + format_dims(t.shape());
  }
  return out;
}

inline std::string count_range_text(int lo, int hi) {
  if (lo == hi) return std::to_string(lo);
  if (hi == std::numeric_limits<int>::max()) return std::to_string(lo) + " or more";
  return std::to_string(lo) + " to " + std::to_string(hi);
}

// The op's schema at the version; for an unknown op, the closest names of its domain.
RETARGET_COMPILED_DECL const onnx::OpSchema& schema_for(const onnx::NodeProto& node, int version) {
  const auto* schema = onnx::OpSchemaRegistry::Schema(node.op_type(), version, node.domain());
  if (schema && !schema->Deprecated()) return *schema;
  if (schema) throw error(node_where(node, version) + ": the op is deprecated at this opset");
  if (const auto* any = onnx::OpSchemaRegistry::Schema(node.op_type(), node.domain()))
    throw error(node_where(node, version) + ": the op first appears in opset " +
                std::to_string(any->since_version()));
  const auto names = op_names_of(node.domain());
  if (names.empty())
    throw error(node_where(node, version) + ": unknown op (the domain has no declared schemas)");
  throw error(node_where(node, version) + ": unknown op (closest: " +
              retarget::join_names(retarget::closest_names(node.op_type(), names)) + ")");
}

// "since opset 13", "in opset 10", "in opsets 11 to 12".
inline std::string opsets_text(int since, int until) {
  if (until == later) return "since opset " + std::to_string(since);
  if (since == until) return "in opset " + std::to_string(since);
  return "in opsets " + std::to_string(since) + " to " + std::to_string(until);
}

// "Squeeze takes axes as its second input since opset 13": why an attribute is unknown.
inline std::string moved_to_input_text(const moved_row& r) {
  static constexpr std::string_view places[] = {"first", "second", "third", "fourth", "fifth"};
  std::string out = std::string(r.op) + " takes " + std::string(r.attribute) + " as its " +
                    std::string(places[r.input]) + " input";
  if (r.input_name != r.attribute) out += " '" + std::string(r.input_name) + "'";
  return out + " " + opsets_text(r.since, r.until);
}

// The value of an enumerated string attribute of a standard op (each value of a list, as RNN's
// activations) against the values the op takes at the opset.
inline void check_attribute_values(const onnx::NodeProto& node, const onnx::AttributeProto& a,
                                   int version) {
  if (!canonical_domain(node.domain()).empty()) return;
  const auto* row = enum_row_of(node.op_type(), a.name(), version);
  if (!row) return;
  const auto check = [&](const std::string& value, const std::string& shown) {
    if (row_has(*row, value)) return;
    std::vector<std::string_view> values;
    any_value(row->values, [&](std::string_view v) {
      values.push_back(v);
      return false;
    });
    const auto [since, until] = value_opsets(node.op_type(), a.name(), value);
    throw error(node_where(node, version) + ": attribute " + shown + " = '" + value + "' " +
                (since == 0 ? "is not a value the op takes"
                            : "is a value the op takes only " + opsets_text(since, until)) +
                " (closest: " + retarget::join_names(retarget::closest_names(value, values)) + ")");
  };
  if (a.type() == onnx::AttributeProto::STRING) check(a.s(), "'" + a.name() + "'");
  if (a.type() == onnx::AttributeProto::STRINGS)
    for (int i = 0; i < a.strings_size(); ++i)
      check(a.strings(i), "'" + a.name() + "'[" + std::to_string(i) + "]");
}

// The checks that name the attribute, and the counts, before the schema's own Verify.
inline void check_attributes_and_counts(const onnx::OpSchema& schema, const onnx::NodeProto& node,
                                        int version) {
  const auto where = [&] { return node_where(node, version); };
  const auto& declared = schema.attributes();
  std::unordered_set<std::string> given;
  for (const auto& a : node.attribute()) {
    given.insert(a.name());
    const auto it = declared.find(a.name());
    if (it == declared.end()) {
      if (canonical_domain(node.domain()).empty())
        if (const auto* moved = moved_to_input(node.op_type(), a.name(), version))
          throw error(where() + ": unknown attribute '" + a.name() +
                      "': " + moved_to_input_text(*moved));
      std::vector<std::string> names;
      for (const auto& [n, _] : declared) names.push_back(n);
      throw error(where() + ": unknown attribute '" + a.name() + "' (closest: " +
                  retarget::join_names(retarget::closest_names(a.name(), names)) + ")");
    }
    if (a.type() != it->second.type)
      throw error(where() + ": attribute '" + a.name() + "' is " +
                  std::string(to_string(static_cast<attr_type>(a.type()))) + ", the schema wants " +
                  std::string(to_string(static_cast<attr_type>(it->second.type))));
    check_attribute_values(node, a, version);
  }
  for (const auto& [n, a] : declared)
    if (a.required && !given.count(n))
      throw error(where() + ": missing required attribute '" + n + "'");
  const int inputs = node.input_size();
  if (inputs < schema.min_input() || inputs > schema.max_input())
    throw error(where() + ": " + std::to_string(inputs) + " inputs given, the schema takes " +
                count_range_text(schema.min_input(), schema.max_input()));
  const int outputs = node.output_size();
  if (outputs < schema.min_output() || outputs > schema.max_output())
    throw error(where() + ": " + std::to_string(outputs) + " outputs asked for, the schema gives " +
                count_range_text(schema.min_output(), schema.max_output()));
}

// ONNX's inference for some ops reads input dims without checking the rank first (RNN, GRU
// and LSTM at opset 1 crash on an X of rank below 2, as fuzzing found): their ranks are
// checked before it runs.
inline void check_ranks(const onnx::NodeProto& node, int version,
                        const value_table::type_map& types) {
  struct rank_rule {
    std::string_view op;
    int input, rank;
  };
  static constexpr rank_rule rules[] = {{"RNN", 0, 3}, {"GRU", 0, 3}, {"LSTM", 0, 3}};
  // ... and convolutions index the weight's dims by the data's rank (ConvTranspose crashed
  // on a weight of lower rank): the weight must have the data's rank.
  struct same_rank_rule {
    std::string_view op;
    int input, like;
  };
  static constexpr same_rank_rule same_rank[] = {
      {"Conv", 1, 0}, {"ConvTranspose", 1, 0}, {"ConvInteger", 1, 0}, {"QLinearConv", 3, 0}};
  if (!canonical_domain(node.domain()).empty()) return;
  const auto rank_of = [&](int input) -> std::optional<int> {
    if (node.input_size() <= input) return std::nullopt;
    const auto it = types.find(node.input(input));
    if (it == types.end() || !it->second->tensor_type().has_shape()) return std::nullopt;
    return it->second->tensor_type().shape().dim_size();
  };
  const auto refuse = [&](int input, int rank, const std::string& wanted) {
    throw error(node_where(node, version) + ": input " + std::to_string(input) + " '" +
                node.input(input) + "' has rank " + std::to_string(rank) + ", the op takes rank " +
                wanted);
  };
  for (const auto& r : rules)
    if (const auto rank = rank_of(r.input); node.op_type() == r.op && rank && *rank != r.rank)
      refuse(r.input, *rank, std::to_string(r.rank));
  for (const auto& r : same_rank) {
    if (node.op_type() != r.op) continue;
    const auto rank = rank_of(r.input), like = rank_of(r.like);
    if (rank && like && *rank != *like)
      refuse(r.input, *rank,
             std::to_string(*like) + " (that of input " + std::to_string(r.like) + " '" +
                 node.input(r.like) + "')");
  }
}

// ONNX's inference for convolutions and pooling divides by each stride without checking it (a
// model-loading fuzz run stopped on SIGFPE at an AveragePool with a stride of 0): a standard
// op's strides are checked before any inference runs. A stride below 1 means nothing anyway.
inline void check_strides(const onnx::NodeProto& node, int version) {
  if (!canonical_domain(node.domain()).empty()) return;
  for (const auto& a : node.attribute()) {
    if (a.name() != "strides" || a.type() != onnx::AttributeProto::INTS) continue;
    for (int i = 0; i < a.ints_size(); ++i)
      if (a.ints(i) < 1)
        throw error(node_where(node, version) + ": attribute 'strides'[" + std::to_string(i) +
                    "] is " + std::to_string(a.ints(i)) + ": a stride is at least 1");
  }
}

// The same for every node of a graph, its subgraphs' included, before the whole model's
// inference runs. `versions` gives a domain's opset, for the messages.
template <class VersionOf>
void check_strides_in(const onnx::GraphProto& graph, const VersionOf& versions) {
  for (const auto& node : graph.node()) {
    check_strides(node, versions(node.domain()));
    for (const auto& a : node.attribute()) {
      if (a.has_g()) check_strides_in(a.g(), versions);
      for (const auto& body : a.graphs()) check_strides_in(body, versions);
    }
  }
}

// The inputs' element types against the schema's type constraints: a type the op does not
// take, or two inputs of one constraint (Mul's T) with different types. Inference alone
// lets the second through, and the model fails only when an engine loads it.
inline void check_input_types(const onnx::OpSchema& schema, const onnx::NodeProto& node,
                              int version, const value_table::type_map& types) {
  onnx::NodeProto inputs_only;  // no attributes: subgraphs play no part here
  *inputs_only.mutable_input() = node.input();
  onnx::shape_inference::InferenceContextImpl ctx(inputs_only, types, {}, {});
  try {
    schema.CheckInputOutputType(ctx);
  } catch (const std::exception& e) {
    throw error(node_where(node, version) + ": input types do not fit the op: " + e.what() +
                " (inputs: " + describe_inputs(node, types) + ")");
  }
}

// Every check, in order; the node's schema when it passes. The caller holds a
// schema_registry_reader.
RETARGET_COMPILED_DECL const onnx::OpSchema& check_node(const onnx::NodeProto& node, int version,
                                                        const value_table::type_map& types) {
  const auto& schema = schema_for(node, version);
  check_attributes_and_counts(schema, node, version);
  try {
    schema.Verify(node);
  } catch (const std::exception& e) {
    throw error(node_where(node, version) + ": " + e.what());
  }
  check_ranks(node, version, types);
  check_strides(node, version);
  check_input_types(schema, node, version, types);
  return schema;
}

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_NODE_CHECK_HPP
