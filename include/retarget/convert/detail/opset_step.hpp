// One step v → v ± 1 of a model's default-domain opset: the nodes retarget adapts (or re-emits,
// or leaves alone, for other domains) are cut out (their outputs become typed graph inputs,
// what they read becomes graph outputs), ONNX's converter converts the rest, and the cut nodes,
// emitted through the checked emitter at the new opset, are put back.
#ifndef RETARGET_CONVERT_DETAIL_OPSET_STEP_HPP
#define RETARGET_CONVERT_DETAIL_OPSET_STEP_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstddef>
#include <retarget/convert/detail/opset_model_facts.hpp>
#include <retarget/convert/detail/opset_registry.hpp>
#include <retarget/convert/detail/opset_schema.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/convert/opset_plan.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/topology.hpp>
#include <retarget/ir/version_converter.hpp>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::convert::detail {

inline std::string place(const onnx::NodeProto& n, int index, int from, int to) {
  return ir::node_place(n, index) + ", opset " + std::to_string(from) + " -> " + std::to_string(to);
}

template <class Extra>
std::vector<step_by> step_of_each_node(const onnx::GraphProto& g, const model_facts& facts,
                                       int from, int to) {
  std::vector<step_by> how(static_cast<std::size_t>(g.node_size()));
  for (int i = 0; i < g.node_size(); ++i) {
    std::string why;
    const auto& n = g.node(i);
    how[static_cast<std::size_t>(i)] = how_to_step<Extra>(n, from, to, facts.facts_of(n), &why);
    if (how[static_cast<std::size_t>(i)] == step_by::missing)
      throw error("retarget: " + place(n, i, from, to) + ": " + why);
  }
  return how;
}

// The nodes ONNX's converter does not see: retarget's, the re-emitted, other domains'.
inline std::vector<int> cut_nodes(const std::vector<step_by>& how) {
  std::vector<int> cut;
  for (std::size_t i = 0; i < how.size(); ++i)
    if (how[i] == step_by::retarget || how[i] == step_by::same_node ||
        how[i] == step_by::other_domain)
      cut.push_back(static_cast<int>(i));
  return cut;
}

// The type of value `name`, which node i reads or gives, for converting around the node.
inline const onnx::TypeProto& type_around(const model_facts& facts, const onnx::GraphProto& g,
                                          const std::string& name, int i, int from, int to) {
  const auto* t = facts.type(name);
  if (!t)
    throw error("retarget: " + place(g.node(i), i, from, to) + ": the type of '" + name +
                "' is unknown (shape inference cannot tell it), and converting around the "
                "node needs it");
  return *t;
}

inline bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// What ONNX converts: the model without the cut nodes; what they give the rest are graph
// inputs (temporary_inputs), what they read of the rest graph outputs.
struct model_without_cut {
  onnx::ModelProto rest;
  std::vector<std::string> temporary_inputs;
};

inline model_without_cut without_cut_nodes(const onnx::ModelProto& m, const model_facts& facts,
                                           const std::vector<int>& cut, int from, int to) {
  const auto& g = m.graph();
  model_without_cut out{m, {}};
  auto& rg = *out.rest.mutable_graph();
  rg.clear_node();
  const std::set<int> cut_set(cut.begin(), cut.end());
  std::unordered_set<std::string> produced_by_rest, read_by_rest, graph_outputs;
  for (const auto& v : g.output()) graph_outputs.insert(v.name());
  for (int i = 0; i < g.node_size(); ++i) {
    if (cut_set.count(i)) continue;
    *rg.add_node() = g.node(i);
    for (const auto& o : g.node(i).output()) produced_by_rest.insert(o);
    for (const auto& r : ir::reads_of(g.node(i))) read_by_rest.insert(r);
  }
  std::vector<std::string> temporary_outputs;
  auto add = [&](auto* v, const std::string& name, int i) {
    v->set_name(name);
    *v->mutable_type() = type_around(facts, g, name, i, from, to);
  };
  for (const int i : cut) {
    for (const auto& o : g.node(i).output())
      if (!o.empty() && (read_by_rest.count(o) || graph_outputs.count(o))) {
        add(rg.add_input(), o, i);
        out.temporary_inputs.push_back(o);
      }
    for (const auto& r : ir::reads_of(g.node(i)))
      if (produced_by_rest.count(r) && !graph_outputs.count(r) && !contains(temporary_outputs, r)) {
        add(rg.add_output(), r, i);
        temporary_outputs.push_back(r);
      }
  }
  // A graph output that a cut node gives is now a graph input too: drop it from the outputs
  // while ONNX converts (and restore the original outputs after).
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
  for (const auto& v : rg.output())
    if (!contains(out.temporary_inputs, v.name())) *kept.Add() = v;
  rg.mutable_output()->Swap(&kept);
  return out;
}

// The graph the cut nodes are emitted in: at the new opset, with the other domains' imports,
// every name of the converted rest and of the original graph taken.
inline void prepare_scratch(ir::graph& scratch, const onnx::ModelProto& m,
                            const onnx::ModelProto& converted) {
  for (const auto& o : m.opset_import())
    if (!ir::is_default_domain(o.domain()))
      scratch.set_domain_version(o.domain(), static_cast<int>(o.version()));
  std::vector<std::string> names;
  const auto& cg = converted.graph();
  for (const auto& v : cg.input()) names.push_back(v.name());
  for (const auto& t : cg.initializer()) names.push_back(t.name());
  for (const auto& n : cg.node())
    for (const auto& o : n.output()) names.push_back(o);
  for (const auto& n : m.graph().node())
    for (const auto& o : n.output()) names.push_back(o);
  scratch.reserve_names(names);
}

// Node i's inputs in the scratch graph: a value already there, a constant, or a typed input.
inline std::vector<ir::value> inputs_in_scratch(ir::graph& scratch, const model_facts& facts,
                                                const onnx::GraphProto& g, int i, int from,
                                                int to) {
  std::vector<ir::value> inputs;
  for (const auto& name : g.node(i).input()) {
    if (name.empty()) {
      inputs.emplace_back();
      continue;
    }
    if (scratch.has_name(name)) {
      inputs.push_back(scratch.find(name));
      continue;
    }
    if (const auto* c = facts.constant(name))
      inputs.push_back(scratch.initializer(name, ir::tensor(*c)));
    else
      inputs.push_back(scratch.input(name, type_around(facts, g, name, i, from, to)));
  }
  return inputs;
}

// Cut node i emitted in scratch at opset `to`, by retarget's adapter or as it is, its outputs
// under their original names.
template <class Extra>
void emit_cut_node(ir::graph& scratch, const model_facts& facts, const onnx::GraphProto& g, int i,
                   step_by how, int from, int to) {
  const auto& n = g.node(i);
  auto inputs = inputs_in_scratch(scratch, facts, g, i, from, to);
  std::vector<onnx::AttributeProto> attributes(n.attribute().begin(), n.attribute().end());
  if (how == step_by::same_node)
    if (const auto* s = schema_at(n.op_type(), to))  // the ones `to` lacks hold their default
      std::erase_if(attributes, [&](const onnx::AttributeProto& a) {
        return !s->attributes().count(a.name());
      });
  const node wrapped(n, std::move(inputs), std::move(attributes));
  std::vector<ir::value> outputs;
  try {
    if (how == step_by::retarget)
      outputs = find_adapter<Extra>(n.op_type(), from, to)->call(scratch, wrapped);
    else
      outputs = wrapped.emit_unchanged(scratch);
  } catch (const error& e) {
    throw error("retarget: " + place(n, i, from, to) + ": " + std::string(retarget::reason_of(e)));
  }
  for (std::size_t k = 0; k < outputs.size() && k < static_cast<std::size_t>(n.output_size());
       ++k) {
    const auto& name = n.output(static_cast<int>(k));
    if (name.empty() || !outputs[k].valid() || outputs[k].name() == name) continue;
    scratch.output(outputs[k], name);  // renames the value, or copies it by an Identity
  }
}

// Puts back into the converted rest the cut nodes' nodes and the original outputs, without the
// temporary inputs, in topological order, without dead nodes.
inline void put_back(onnx::GraphProto& cg, const onnx::GraphProto& original,
                     const ir::graph& scratch, std::vector<onnx::NodeProto> kept_as_they_are,
                     const std::vector<std::string>& temporary_inputs) {
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inputs;
  for (const auto& v : cg.input())
    if (!contains(temporary_inputs, v.name())) *inputs.Add() = v;
  cg.mutable_input()->Swap(&inputs);
  *cg.mutable_output() = original.output();
  for (const auto& n : scratch.proto().node()) *cg.add_node() = n;
  for (auto& n : kept_as_they_are) *cg.add_node() = std::move(n);
  const auto order = ir::topological_order(cg, [](const std::string&) { return false; });
  google::protobuf::RepeatedPtrField<onnx::NodeProto> sorted;
  for (const int i : order) *sorted.Add() = cg.node(i);
  cg.mutable_node()->Swap(&sorted);
  cg.clear_value_info();
  ir::remove_dead_nodes(cg);
}

// One step of the whole model.
template <class Extra>
onnx::ModelProto one_step(const onnx::ModelProto& m, int from, int to) {
  const model_facts facts(m);
  const auto& g = m.graph();
  const auto how = step_of_each_node<Extra>(g, facts, from, to);
  const auto cut = cut_nodes(how);
  if (cut.empty()) {
    auto out = ir::onnx_version_step(m, from, to);
    ir::set_default_opset(out, to);
    return out;
  }
  const auto rest = without_cut_nodes(m, facts, cut, from, to);
  auto converted = ir::onnx_version_step(rest.rest, from, to);
  ir::graph scratch(to);
  prepare_scratch(scratch, m, converted);
  std::vector<onnx::NodeProto> kept_as_they_are;
  for (const int i : cut) {
    const auto kind = how[static_cast<std::size_t>(i)];
    if (kind == step_by::other_domain)
      kept_as_they_are.push_back(g.node(i));
    else
      emit_cut_node<Extra>(scratch, facts, g, i, kind, from, to);
  }
  put_back(*converted.mutable_graph(), g, scratch, std::move(kept_as_they_are),
           rest.temporary_inputs);
  ir::set_default_opset(converted, to);
  return converted;
}

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_OPSET_STEP_HPP
