// The definitions of ir/topology.hpp: inline header-only, compiled once into retarget::compiled
// otherwise.
#ifndef RETARGET_IR_DETAIL_TOPOLOGY_IMPL_HPP
#define RETARGET_IR_DETAIL_TOPOLOGY_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <functional>
#include <queue>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/emitter.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/topology.hpp>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace retarget::ir {

RETARGET_COMPILED_DECL std::string node_place(const onnx::NodeProto& n, int index) {
  return "node " + std::to_string(index) + " " +
         (n.name().empty() ? std::string() : "'" + n.name() + "' ") + "(" + n.op_type() + ")";
}

RETARGET_COMPILED_DECL std::string node_place(const node_view& n, int index) {
  return node_place(n.proto(), index);
}

RETARGET_COMPILED_DECL void outer_reads(const onnx::GraphProto& g, std::set<std::string>& out) {
  std::unordered_set<std::string> defined;
  for (const auto& i : g.input()) defined.insert(i.name());
  for (const auto& i : g.initializer()) defined.insert(i.name());
  for (const auto& n : g.node())
    for (const auto& o : n.output()) defined.insert(o);
  for (const auto& n : g.node()) {
    for (const auto& i : n.input())
      if (!i.empty() && !defined.count(i)) out.insert(i);
    std::set<std::string> inner;
    for (const auto& a : n.attribute()) {
      if (a.has_g()) outer_reads(a.g(), inner);
      for (const auto& body : a.graphs()) outer_reads(body, inner);
    }
    for (const auto& i : inner)
      if (!defined.count(i)) out.insert(i);
  }
}

RETARGET_COMPILED_DECL std::vector<std::string> reads_of(const onnx::NodeProto& n) {
  std::set<std::string> inner;
  for (const auto& a : n.attribute()) {
    if (a.has_g()) outer_reads(a.g(), inner);
    for (const auto& body : a.graphs()) outer_reads(body, inner);
  }
  std::vector<std::string> out;
  for (const auto& i : n.input())
    if (!i.empty()) out.push_back(i);
  out.insert(out.end(), inner.begin(), inner.end());
  return out;
}

RETARGET_COMPILED_DECL std::vector<int> topological_order(
    const onnx::GraphProto& g, const std::function<bool(const std::string&)>& outer) {
  const int n = g.node_size();
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < n; ++i)
    for (const auto& o : g.node(i).output())
      if (!o.empty()) producer[o] = i;
  std::unordered_set<std::string> given;
  for (const auto& i : g.input()) given.insert(i.name());
  for (const auto& i : g.initializer()) given.insert(i.name());

  std::vector<int> waiting(static_cast<std::size_t>(n), 0);
  std::vector<std::vector<int>> readers(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    for (const auto& name : reads_of(g.node(i))) {
      if (const auto it = producer.find(name); it != producer.end()) {
        if (it->second == i)
          throw error("retarget: " + node_place(g.node(i), i) + " reads its own output '" + name +
                      "': the graph has a cycle");
        ++waiting[static_cast<std::size_t>(i)];
        readers[static_cast<std::size_t>(it->second)].push_back(i);
      } else if (!given.count(name) && !outer(name)) {
        throw error("retarget: " + node_place(g.node(i), i) + " reads '" + name +
                    "', which no node, graph input or initializer gives");
      }
    }
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;
  for (int i = 0; i < n; ++i)
    if (waiting[static_cast<std::size_t>(i)] == 0) ready.push(i);
  std::vector<int> order;
  order.reserve(static_cast<std::size_t>(n));
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (const int r : readers[static_cast<std::size_t>(i)])
      if (--waiting[static_cast<std::size_t>(r)] == 0) ready.push(r);
  }
  if (static_cast<int>(order.size()) != n) {
    std::string stuck;
    int count = 0;
    for (int i = 0; i < n; ++i)
      if (waiting[static_cast<std::size_t>(i)] > 0 && count++ < 5)
        stuck += (count > 1 ? ", " : "") + node_place(g.node(i), i);
    if (count > 5) stuck += " and " + std::to_string(count - 5) + " more";
    throw error("retarget: the graph has a cycle: these nodes wait on one another's outputs: " +
                stuck);
  }
  return order;
}

RETARGET_COMPILED_DECL std::size_t remove_dead_nodes(onnx::GraphProto& g) {
  // The subgraphs first (an If's branches, a Loop's body), each against its own outputs: a
  // node they drop no longer keeps alive what it read of this graph.
  std::size_t dead = 0;
  for (auto& n : *g.mutable_node())
    for (auto& a : *n.mutable_attribute()) {
      if (a.has_g()) dead += remove_dead_nodes(*a.mutable_g());
      for (auto& body : *a.mutable_graphs()) dead += remove_dead_nodes(body);
    }
  std::unordered_set<std::string> live;
  for (const auto& o : g.output()) live.insert(o.name());
  std::vector<bool> keep(static_cast<std::size_t>(g.node_size()), false);
  for (int i = g.node_size() - 1; i >= 0; --i) {
    const auto& n = g.node(i);
    bool used = n.output_size() == 0;
    for (const auto& o : n.output()) used = used || live.count(o);
    if (!used) continue;
    keep[static_cast<std::size_t>(i)] = true;
    for (const auto& r : reads_of(n)) live.insert(r);
  }
  google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
  for (int i = 0; i < g.node_size(); ++i) {
    if (keep[static_cast<std::size_t>(i)])
      kept.Add()->Swap(g.mutable_node(i));
    else
      ++dead;
  }
  g.mutable_node()->Swap(&kept);
  return dead;
}

RETARGET_COMPILED_DECL removed_count remove_unread(model& m) {
  auto& g = *m.proto_without_shared_bytes().mutable_graph();
  removed_count out;
  out.nodes = remove_dead_nodes(g);
  std::unordered_set<std::string> live;
  for (const auto& o : g.output()) live.insert(o.name());
  for (const auto& i : g.input()) live.insert(i.name());
  for (const auto& n : g.node())
    for (const auto& r : reads_of(n)) live.insert(r);
  out.initializers =
      m.keep_initializers([&](const std::string& name) { return live.count(name) > 0; });
  return out;
}

RETARGET_COMPILED_DECL void check_structure(const model& m) {
  const auto& g = m.proto().graph();
  (void)topological_order(g, [](const std::string&) { return false; });
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& node = g.node(i);
    const std::string domain(canonical_domain(node.domain()));
    if (!is_standard_domain(domain)) continue;
    const auto version = m.opset(domain);
    if (!version)
      throw error("retarget: " + node_place(node, i) + ": the model imports no opset of domain '" +
                  (domain.empty() ? std::string("ai.onnx") : domain) + "'");
    if (const auto newest = detail::newest_known_version(domain); !newest || *version > *newest)
      continue;
    const detail::schema_registry_reader reading;
    onnx::NodeProto spelled = node;  // the schema table writes the default domain as ""
    spelled.set_domain(domain);
    try {
      (void)detail::schema_for(spelled, *version);
    } catch (const error& e) {
      throw error("retarget: " + node_place(node, i) + ": " + std::string(reason_of(e)));
    }
  }
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_TOPOLOGY_IMPL_HPP
