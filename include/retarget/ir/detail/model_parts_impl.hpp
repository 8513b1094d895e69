// The definitions of ir/model_parts.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_IR_DETAIL_MODEL_PARTS_IMPL_HPP
#define RETARGET_IR_DETAIL_MODEL_PARTS_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph_cut.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_parts.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/topology.hpp>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::ir {

RETARGET_COMPILED_DECL std::vector<int> nodes_computing(const model_view& view,
                                                        std::span<const std::string> values) {
  const auto& g = view.graph();
  std::vector<char> needed(static_cast<std::size_t>(g.node_size()), 0);
  std::vector<int> to_visit;
  for (const auto& v : values) {
    const int p = view.producer(v);
    if (p < 0)
      throw error("retarget: no node makes '" + v + "'" +
                  (view.is_graph_input(v)   ? " (it is a graph input)"
                   : view.is_initializer(v) ? " (it is a weight)"
                                            : ""));
    to_visit.push_back(p);
  }
  while (!to_visit.empty()) {
    const int i = to_visit.back();
    to_visit.pop_back();
    if (std::exchange(needed[static_cast<std::size_t>(i)], 1)) continue;
    for (const auto& r : reads_of(g.node(i)))
      if (const int p = view.producer(r); p >= 0) to_visit.push_back(p);
  }
  std::vector<int> out;
  for (int i = 0; i < g.node_size(); ++i)
    if (needed[static_cast<std::size_t>(i)]) out.push_back(i);
  return out;
}

RETARGET_COMPILED_DECL std::vector<int> nodes_ahead_of(const model_view& view,
                                                       std::span<const int> from) {
  const auto& g = view.graph();
  // Who reads each value, a subgraph's reads of the outer graph counted as its node's.
  std::unordered_map<std::string, std::vector<int>> readers;
  for (int i = 0; i < g.node_size(); ++i)
    for (auto& r : reads_of(g.node(i))) readers[std::move(r)].push_back(i);
  std::vector<char> behind(static_cast<std::size_t>(g.node_size()), 0);
  std::vector<int> to_visit(from.begin(), from.end());
  while (!to_visit.empty()) {
    const int i = to_visit.back();
    to_visit.pop_back();
    if (std::exchange(behind.at(static_cast<std::size_t>(i)), 1)) continue;
    for (const auto& o : g.node(i).output())
      if (const auto it = readers.find(o); !o.empty() && it != readers.end())
        to_visit.insert(to_visit.end(), it->second.begin(), it->second.end());
  }
  std::vector<int> out;
  for (int i = 0; i < g.node_size(); ++i)
    if (!behind[static_cast<std::size_t>(i)]) out.push_back(i);
  return out;
}

namespace detail {

// One part of m: its nodes (in graph order), inputs and outputs, and the weights they read.
inline model part_of(const model& m, const std::vector<char>& in_part,
                     const std::vector<onnx::ValueInfoProto>& inputs,
                     const std::vector<onnx::ValueInfoProto>& outputs) {
  // Weights m shares (a loaded model's mapped ones, an export's) have no bytes here; the
  // others are copied, and those the part does not read dropped below.
  onnx::ModelProto proto = m.proto();
  auto& g = *proto.mutable_graph();
  const auto& source = m.proto().graph();
  g.clear_node();
  g.clear_input();
  g.clear_output();
  g.clear_value_info();
  std::unordered_set<std::string> reads, made;
  for (int i = 0; i < source.node_size(); ++i) {
    if (!in_part[static_cast<std::size_t>(i)]) continue;
    *g.add_node() = source.node(i);
    for (auto& r : reads_of(source.node(i))) reads.insert(std::move(r));
    for (const auto& o : source.node(i).output()) made.insert(o);
  }
  for (const auto& v : inputs) *g.add_input() = v;
  for (const auto& v : outputs) *g.add_output() = v;
  for (const auto& v : source.value_info())
    if (made.contains(v.name())) *g.add_value_info() = v;
  for (const auto& v : outputs) reads.insert(v.name());  // an output may be a weight
  const auto& shared = m.shared_initializers();
  model out(std::move(proto), std::vector<shared_initializer>(shared.begin(), shared.end()));
  out.keep_initializers([&](const std::string& name) { return reads.contains(name); });
  remove_unread(out);  // the constants copied that this part does not read
  return out;
}

}  // namespace detail

RETARGET_COMPILED_DECL model_parts split(const model& m, const model_view& view,
                                         std::span<const int> head) {
  const auto& g = m.proto().graph();
  std::vector<char> in_head(static_cast<std::size_t>(g.node_size()), 0);
  for (const int i : head) in_head.at(static_cast<std::size_t>(i)) = 1;
  const auto is_head = [&](int i) { return i >= 0 && in_head[static_cast<std::size_t>(i)] != 0; };
  // A value of the head that reads no graph input (a Constant node's, say) is made again by the
  // tail rather than handed over: an engine may compute it while loading and give no value.
  std::vector<char> input_free(static_cast<std::size_t>(g.node_size()), 0);
  for (int i = 0; i < g.node_size(); ++i) {
    // A random op made again would draw other values.
    bool free = !g.node(i).op_type().starts_with("Random") &&
                g.node(i).op_type() != "Multinomial" && g.node(i).op_type() != "Bernoulli";
    for (const auto& r : reads_of(g.node(i))) {
      const int p = view.producer(r);
      free = free && (p >= 0 ? input_free[static_cast<std::size_t>(p)] != 0
                             : view.is_initializer(r) && !view.is_graph_input(r));
    }
    input_free[static_cast<std::size_t>(i)] = free;
  }
  const auto handed_over = [&](int p) {
    return is_head(p) && !input_free[static_cast<std::size_t>(p)];
  };
  std::vector<char> in_tail(in_head.size());
  for (std::size_t i = 0; i < in_tail.size(); ++i) in_tail[i] = !in_head[i] || input_free[i];

  std::unordered_set<std::string> read_by_tail;
  std::vector<std::string> inputs_of_head, inputs_of_tail;
  std::unordered_set<std::string> input_seen_by_head, input_seen_by_tail;
  for (int i = 0; i < g.node_size(); ++i) {
    for (const auto& r : reads_of(g.node(i))) {
      const int p = view.producer(r);
      if (is_head(i) && p >= 0 && !is_head(p))
        throw error("retarget: split: " + node_place(g.node(i), i) + " of the head reads '" + r +
                    "', which " + node_place(g.node(p), p) + " of the tail makes");
      if (!is_head(i) && handed_over(p)) read_by_tail.insert(r);
      if (p < 0 && view.is_graph_input(r) && !view.is_initializer(r)) {
        if (is_head(i) && input_seen_by_head.insert(r).second) inputs_of_head.push_back(r);
        if (!is_head(i) && input_seen_by_tail.insert(r).second) inputs_of_tail.push_back(r);
      }
    }
  }

  model_parts out;
  const auto where = [&](int node) { return node_place(g.node(node), node); };
  std::vector<onnx::ValueInfoProto> head_outputs, tail_inputs, tail_outputs;
  const auto typed = [&](const std::string& name, int node) {
    onnx::ValueInfoProto v;
    v.set_name(name);
    *v.mutable_type() = known_type(view, name, node, where);
    return v;
  };
  for (int i = 0; i < g.node_size(); ++i)
    if (handed_over(i))
      for (const auto& o : g.node(i).output())
        if (!o.empty() && read_by_tail.contains(o)) {
          out.boundary.push_back(o);
          head_outputs.push_back(typed(o, i));
          tail_inputs.push_back(head_outputs.back());
        }
  for (const auto& v : g.output()) {
    const int p = view.producer(v.name());
    if (p < 0) continue;  // a graph input or a weight given as it is: neither part makes it
    if (!handed_over(p))
      tail_outputs.push_back(v);
    else if (!read_by_tail.contains(v.name()))
      head_outputs.push_back(v);
  }
  // A weight the model lists as an input too (IR 3 needs it) stays one in the parts that read it.
  std::unordered_set<std::string> read_by_head, read_by_any_tail;
  for (int i = 0; i < g.node_size(); ++i)
    for (auto& r : reads_of(g.node(i))) {
      if (is_head(i)) read_by_head.insert(r);
      if (in_tail[static_cast<std::size_t>(i)]) read_by_any_tail.insert(std::move(r));
    }
  std::vector<onnx::ValueInfoProto> head_inputs;
  const auto listed = [](const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  for (const auto& v : g.input()) {
    const bool weight = view.is_initializer(v.name());
    if (listed(inputs_of_head, v.name()) || (weight && read_by_head.contains(v.name())))
      head_inputs.push_back(v);
    if (listed(inputs_of_tail, v.name()) || (weight && read_by_any_tail.contains(v.name())))
      tail_inputs.push_back(v);
  }
  out.head = detail::part_of(m, in_head, head_inputs, head_outputs);
  out.tail = detail::part_of(m, in_tail, tail_inputs, tail_outputs);
  return out;
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_MODEL_PARTS_IMPL_HPP
