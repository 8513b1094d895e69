// One step v → v ± 1 of a model's default-domain opset: the nodes retarget adapts (or re-emits,
// or leaves alone, for other domains) are cut out (their outputs become typed graph inputs,
// what they read becomes graph outputs), ONNX's converter converts the rest, and the cut nodes,
// emitted through the checked emitter at the new opset, are put back (ir/graph_cut.hpp).
#ifndef RETARGET_CONVERT_DETAIL_OPSET_STEP_HPP
#define RETARGET_CONVERT_DETAIL_OPSET_STEP_HPP

#include <algorithm>
#include <cstddef>
#include <retarget/convert/detail/opset_model_facts.hpp>
#include <retarget/convert/detail/opset_registry.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/convert/opset_plan.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_cut.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/topology.hpp>
#include <retarget/ir/version_converter.hpp>
#include <string>
#include <utility>
#include <vector>

namespace retarget::convert::detail {

inline std::string place(const ir::node_view& n, int index, int from, int to) {
  return ir::node_place(n, index) + ", opset " + std::to_string(from) + " -> " + std::to_string(to);
}

template <class Extra>
std::vector<step_by> step_of_each_node(const model_facts& facts, int from, int to) {
  const auto& view = facts.view;
  std::vector<step_by> how(static_cast<std::size_t>(view.node_count()));
  for (int i = 0; i < view.node_count(); ++i) {
    std::string why;
    const auto n = view.at(i);
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

// Node i's inputs in the scratch graph: a value already there, a constant, or a typed input.
inline std::vector<ir::value> inputs_in_scratch(ir::graph& scratch, const model_facts& facts, int i,
                                                int from, int to) {
  const auto where = [&](int k) { return place(facts.view.at(k), k, from, to); };
  std::vector<ir::value> inputs;
  for (const auto& name : facts.view.at(i).inputs()) {
    if (name.empty()) {
      inputs.emplace_back();
      continue;
    }
    if (scratch.has_name(name)) {
      inputs.push_back(scratch.find(name));
      continue;
    }
    if (const auto c = facts.constant(name))
      inputs.push_back(scratch.initializer(name, c.copy()));
    else
      inputs.push_back(ir::input_of_known_type(scratch, facts.view, name, i, where));
  }
  return inputs;
}

// Cut node i emitted in scratch at opset `to`, by retarget's adapter or as it is, its outputs
// under their original names.
template <class Extra>
void emit_cut_node(ir::graph& scratch, const model_facts& facts, int i, step_by how, int from,
                   int to) {
  const auto n = facts.view.at(i);
  auto inputs = inputs_in_scratch(scratch, facts, i, from, to);
  auto attributes = n.attribute_protos();
  if (how == step_by::same_node) drop_attributes_not_at(attributes, n.op_type(), to);
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
  for (std::size_t k = 0; k < outputs.size() && k < n.output_count(); ++k) {
    const auto& name = n.output(k);
    if (name.empty() || !outputs[k].valid() || outputs[k].name() == name) continue;
    scratch.output(outputs[k], name);  // renames the value, or copies it by an Identity
  }
}

// One step of the whole model.
template <class Extra>
ir::model one_step(const ir::model& m, int from, int to) {
  const model_facts facts(m);
  const auto how = step_of_each_node<Extra>(facts, from, to);
  const auto cut = cut_nodes(how);
  if (cut.empty()) {
    auto out = ir::onnx_version_step(m, from, to);
    ir::set_default_opset(out, to);
    return out;
  }
  const auto rest = ir::without_nodes(m, facts.view, cut,
                                      [&](int k) { return place(facts.view.at(k), k, from, to); });
  auto converted = ir::onnx_version_step(rest.rest, from, to);
  ir::graph scratch(to);
  ir::prepare_for_cut_nodes(scratch, m, converted);
  std::vector<int> kept_as_they_are;
  for (const int i : cut) {
    const auto kind = how[static_cast<std::size_t>(i)];
    if (kind == step_by::other_domain)
      kept_as_they_are.push_back(i);
    else
      emit_cut_node<Extra>(scratch, facts, i, kind, from, to);
  }
  ir::splice_back(converted, m, scratch, kept_as_they_are, rest.temporary_inputs);
  ir::set_default_opset(converted, to);
  return converted;
}

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_OPSET_STEP_HPP
