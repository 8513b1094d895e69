// The definitions of ir/graph_cut.hpp: inline header-only, compiled once into retarget::compiled
// otherwise.
#ifndef RETARGET_IR_DETAIL_GRAPH_CUT_IMPL_HPP
#define RETARGET_IR_DETAIL_GRAPH_CUT_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <functional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_cut.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/topology.hpp>
#include <set>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::ir {

RETARGET_COMPILED_DECL const onnx::TypeProto& known_type(
    const model_view& view, const std::string& name, int node,
    const std::function<std::string(int)>& where) {
  const auto* t = view.type(name);
  if (!t || !t->has_tensor_type() || t->tensor_type().elem_type() == 0)
    throw error("retarget: " + where(node) + ": the type of '" + name +
                "' is unknown (shape inference cannot tell it), and converting around the "
                "node needs it");
  return *t;
}

RETARGET_COMPILED_DECL value input_of_known_type(graph_base& g, const model_view& view,
                                                 const std::string& name, int node,
                                                 const std::function<std::string(int)>& where) {
  return g.input(name, known_type(view, name, node, where));
}

RETARGET_COMPILED_DECL cut_model without_nodes(const model& m, const model_view& view,
                                               const std::vector<int>& cut,
                                               const std::function<std::string(int)>& where) {
  const auto& g = m.proto().graph();
  cut_model out{m, {}};
  // Nodes, inputs and outputs change, the initializers do not: shared weights stay shared.
  auto& rg = *out.rest.proto_without_shared_bytes().mutable_graph();
  rg.clear_node();
  const std::set<int> cut_set(cut.begin(), cut.end());
  std::unordered_set<std::string> produced_by_rest, read_by_rest, graph_outputs;
  for (const auto& v : g.output()) graph_outputs.insert(v.name());
  for (int i = 0; i < g.node_size(); ++i) {
    if (cut_set.count(i)) continue;
    *rg.add_node() = g.node(i);
    for (const auto& o : g.node(i).output()) produced_by_rest.insert(o);
    for (const auto& r : reads_of(g.node(i))) read_by_rest.insert(r);
  }
  const auto contains = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  std::vector<std::string> temporary_outputs;
  const auto add = [&](onnx::ValueInfoProto* v, const std::string& name, int i) {
    v->set_name(name);
    *v->mutable_type() = known_type(view, name, i, where);
  };
  for (const int i : cut) {
    for (const auto& o : g.node(i).output())
      if (!o.empty() && (read_by_rest.count(o) || graph_outputs.count(o))) {
        add(rg.add_input(), o, i);
        out.temporary_inputs.push_back(o);
      }
    for (const auto& r : reads_of(g.node(i)))
      if (produced_by_rest.count(r) && !graph_outputs.count(r) && !contains(temporary_outputs, r)) {
        add(rg.add_output(), r, i);
        temporary_outputs.push_back(r);
      }
  }
  // A graph output that a cut node gives is now a graph input too: dropped from the outputs
  // while the rest is converted (splice_back restores the original outputs).
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
  for (const auto& v : rg.output())
    if (!contains(out.temporary_inputs, v.name())) *kept.Add() = v;
  rg.mutable_output()->Swap(&kept);
  return out;
}

RETARGET_COMPILED_DECL void prepare_for_cut_nodes(graph_base& g, const model& original,
                                                  const model& converted) {
  for (const auto& o : original.proto().opset_import())
    if (!is_default_domain(o.domain()))
      g.set_domain_version(o.domain(), static_cast<int>(o.version()));
  std::vector<std::string> names;
  const auto& cg = converted.proto().graph();
  for (const auto& v : cg.input()) names.push_back(v.name());
  for (const auto& t : cg.initializer()) names.push_back(t.name());
  for (const auto& n : cg.node())
    for (const auto& o : n.output()) names.push_back(o);
  for (const auto& n : original.proto().graph().node())
    for (const auto& o : n.output()) names.push_back(o);
  g.reserve_names(names);
}

RETARGET_COMPILED_DECL void splice_back(model& converted, const model& original,
                                        const graph_base& scratch,
                                        const std::vector<int>& kept_as_they_are,
                                        const std::vector<std::string>& temporary_inputs) {
  auto& cg = *converted.proto().mutable_graph();
  const auto& og = original.proto().graph();
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inputs;
  for (const auto& v : cg.input())
    if (std::find(temporary_inputs.begin(), temporary_inputs.end(), v.name()) ==
        temporary_inputs.end())
      *inputs.Add() = v;
  cg.mutable_input()->Swap(&inputs);
  *cg.mutable_output() = og.output();
  for (const auto& n : scratch.proto().node()) *cg.add_node() = n;
  for (const int i : kept_as_they_are) *cg.add_node() = og.node(i);
  const auto order = topological_order(cg, [](const std::string&) { return false; });
  google::protobuf::RepeatedPtrField<onnx::NodeProto> sorted;
  for (const int i : order) *sorted.Add() = cg.node(i);
  cg.mutable_node()->Swap(&sorted);
  cg.clear_value_info();
  remove_dead_nodes(cg);
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_GRAPH_CUT_IMPL_HPP
