// The definitions of the conversion engine (engine.hpp): the rebuild of a graph node by node,
// folding, dead-node removal and the pass loop. Included by engine.hpp where the engine is
// compiled: in every unit header-only, in retarget::compiled's own source otherwise.
#ifndef RETARGET_CONVERT_DETAIL_ENGINE_IMPL_HPP
#define RETARGET_CONVERT_DETAIL_ENGINE_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <retarget/convert/detail/engine.hpp>
#include <retarget/convert/evaluate.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/rewrite_env.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/ir/topology.hpp>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::convert::detail {

using ir::dims_of;

// Whether a rebuilt node is its source unchanged (op, inputs, outputs, attributes).
inline bool same_node(const onnx::NodeProto& rebuilt, const onnx::NodeProto& source) {
  if (rebuilt.op_type() != source.op_type() || rebuilt.input_size() != source.input_size() ||
      rebuilt.output_size() != source.output_size() ||
      rebuilt.attribute_size() != source.attribute_size())
    return false;
  for (int i = 0; i < source.input_size(); ++i)
    if (rebuilt.input(i) != source.input(i)) return false;
  for (int i = 0; i < source.output_size(); ++i)
    if (rebuilt.output(i) != source.output(i)) return false;
  for (int i = 0; i < source.attribute_size(); ++i)
    if (!source.attribute(i).has_g() && source.attribute(i).graphs_size() == 0 &&
        rebuilt.attribute(i).SerializeAsString() != source.attribute(i).SerializeAsString())
      return false;
  return true;
}
// One pass: the source graph rebuilt into a new one.
class rebuilder {
 public:
  rebuilder(const backend_hooks& hooks, const options& o, report& r, int opset, bool first_pass)
      : hooks_(hooks),
        options_(o),
        report_(r),
        opset_(opset),
        first_pass_(first_pass),
        log_{&r.node_rewrites, 0, {}} {}

  bool changed = false;

  // `shared`: the weights the main graph's initializers share (by index), which the rebuilt
  // graph shares in turn, so that no pass copies a weight.
  void rebuild(ir::graph& g, const onnx::GraphProto& source, bool main_graph,
               std::span<const ir::shared_initializer> shared = {}) {
    if (source.sparse_initializer_size() > 0)
      throw error("retarget: graph '" + source.name() +
                  "' has sparse initializers, which retarget cannot rebuild");
    scopes_.emplace_back();
    auto& scope = scopes_.back();
    std::set<std::string> input_names;
    for (const auto& in : source.input()) {
      if (in.type().has_tensor_type() && in.type().tensor_type().has_shape()) {
        const auto& type = in.type().tensor_type();
        scope[in.name()] =
            g.input(in.name(), static_cast<ir::dtype>(type.elem_type()), dims_of(type.shape()));
      } else if (!in.has_type() && !main_graph) {  // a subgraph's, typed by its node
        scope[in.name()] = g.input(in.name(), ir::untyped);
      } else {
        scope[in.name()] = g.input(in.name(), in.type());
      }
      input_names.insert(in.name());
    }
    std::vector<const ir::shared_initializer*> shared_at(
        static_cast<std::size_t>(source.initializer_size()), nullptr);
    for (const auto& s : shared) shared_at.at(static_cast<std::size_t>(s.index)) = &s;
    for (int i = 0; i < source.initializer_size(); ++i) {
      const auto& init = source.initializer(i);
      const auto* s = shared_at[static_cast<std::size_t>(i)];
      // An initializer that is also a graph input is that input's default value (never shared).
      if (input_names.count(init.name()))
        *g.proto().add_initializer() = init;
      else if (s)
        scope[init.name()] = g.initializer(init.name(), s->data);
      else
        scope[init.name()] = g.initializer(init.name(), ir::tensor(init));
    }
    if (main_graph) {
      for (const auto& n : source.node())
        for (const auto& r : reads_of(n)) read_.insert(r);
      for (const auto& o : source.output()) read_.insert(o.name());
    }
    const auto order = topological_order(source, [&](const std::string& name) {
      for (std::size_t i = 0; i + 1 < scopes_.size(); ++i)
        if (scopes_[i].count(name)) return true;
      return false;
    });
    for (const int i : order) {
      const auto& node = source.node(i);
      try {
        rebuild_node(g, node, main_graph);
      } catch (const error& e) {
        std::throw_with_nested(
            error("retarget: " + node_place(node, i) + ": " + std::string(retarget::reason_of(e))));
      }
    }
    for (const auto& out : source.output()) {
      const ir::value v = lookup(out.name());
      const std::string name = v.name() == out.name() ? std::string() : out.name();
      // The declared type, as the model had it; one without a shape would fail the checker.
      if (!out.has_type() && !main_graph)
        g.output(v, name, ir::untyped);
      else if (out.has_type() &&
               (!out.type().has_tensor_type() || out.type().tensor_type().has_shape()))
        g.output(v, name, out.type());
      else
        g.output(v, name);
    }
    scopes_.pop_back();
  }

 private:
  ir::value lookup(const std::string& name) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
      if (const auto it = s->find(name); it != s->end()) return it->second;
    throw error("retarget: no value named '" + name + "'");
  }

  void bind_outputs(const onnx::NodeProto& node, const std::vector<ir::value>& outs,
                    const std::string& who) {
    std::size_t k = 0;
    for (const auto& name : node.output()) {
      if (name.empty()) continue;
      if (k >= outs.size())
        throw error("retarget: " + who + " gave " + std::to_string(outs.size()) +
                    " outputs for a node with more");
      scopes_.back()[name] = outs[k++];
    }
    if (k != outs.size())
      throw error("retarget: " + who + " gave " + std::to_string(outs.size()) + " outputs for " +
                  std::to_string(k));
  }

  std::vector<onnx::AttributeProto> rebuilt_attributes(ir::graph& g, const onnx::NodeProto& node) {
    std::vector<onnx::AttributeProto> out;
    for (const auto& a : node.attribute()) {
      onnx::AttributeProto copy = a;
      copy.clear_g();
      copy.clear_graphs();
      if (a.has_g()) {
        auto body = g.subgraph(a.g().name());
        rebuild(body, a.g(), false);
        *copy.mutable_g() = body.proto();
      }
      for (const auto& b : a.graphs()) {
        auto body = g.subgraph(b.name());
        rebuild(body, b, false);
        *copy.add_graphs() = body.proto();
      }
      out.push_back(std::move(copy));
    }
    return out;
  }

  void rebuild_node(ir::graph& g, const onnx::NodeProto& node, bool main_graph) {
    std::vector<ir::value> inputs;
    for (const auto& name : node.input())
      inputs.push_back(name.empty() ? ir::value{} : lookup(name));
    const bool standard = is_default_domain(node.domain());
    // An op its opset does not have is refused before anything rewrites it away.
    if (ir::is_standard_domain(node.domain())) g.schema_of(node);
    if (main_graph && options_.fold && standard && fold(g, node, inputs)) return;
    if (main_graph && standard) {
      if (auto fired = hooks_.try_rules({g, node, inputs, report_})) {
        bind_outputs(node, fired->outputs, "rule " + std::string(fired->rule));
        changed = true;
        return;
      }
    }
    const convert::node n(node, inputs, rebuilt_attributes(g, node));
    std::vector<ir::value> outs;
    if (first_pass_ && options_.node_rewrites) {
      const auto fired = log_.fired;
      const int before = g.proto().node_size();
      outs = hooks_.rewrite_node(options_, log_, g, n);
      if (log_.fired != fired) {
        // A rewrite that handed the node to its origin changed nothing: not counted.
        if (g.proto().node_size() == before + 1 && same_node(g.proto().node(before), node))
          log_.forget(fired);
        else
          changed = true;
      }
    } else {
      outs = n.emit_unchanged(g);
    }
    bind_outputs(node, outs, "the node rewrite of " + node.op_type());
  }

  // ---- Folding ----

  bool fold(ir::graph& g, const onnx::NodeProto& node, const std::vector<ir::value>& inputs) {
    const std::string& op = node.op_type();
    if (op == "Constant" || node.output_size() == 0) return false;
    for (const auto& a : node.attribute())
      if (a.has_g() || a.graphs_size() > 0) return false;
    if (op == "Identity" && inputs.size() == 1 && inputs[0].valid() && g.constant_data(inputs[0])) {
      scopes_.back()[node.output(0)] = inputs[0];
      ++report_.identities_bypassed;
      changed = true;
      return true;
    }
    // Dropout passes its input through in inference (no training_mode, or a constant false)
    // and with a ratio of 0, when nothing reads its mask.
    if (op == "Dropout" && !inputs.empty() && inputs[0].valid() &&
        (node.output_size() < 2 || node.output(1).empty() || !read_.count(node.output(1)))) {
      const auto constant_is = [&](std::size_t i, double v) {
        if (inputs.size() <= i || !inputs[i].valid()) return true;  // absent: the default
        const auto* t = g.constant_data(inputs[i]);
        if (!t) return false;
        const auto values = ir::values_as_double(ir::tensor(*t));
        return values.size() == 1 && values.front() == v;
      };
      if (!constant_is(2, 0) && !constant_is(1, 0)) return false;
      if (inputs.size() > 1 && inputs[1].valid() && !g.constant_data(inputs[1]) &&
          !constant_is(2, 0))
        return false;
      scopes_.back()[node.output(0)] = inputs[0];
      ++report_.folded[op];
      changed = true;
      return true;
    }
    if ((op == "Shape" || op == "Size") && inputs.size() == 1 && inputs[0].valid() &&
        inputs[0].has_shape()) {
      const auto shape = inputs[0].static_shape();
      if (!shape) return false;
      std::vector<std::int64_t> dims = *shape;
      ir::tensor t;
      if (op == "Size") {
        t = ir::tensor::of<std::int64_t>({ir::element_count(dims)}, {});
      } else {
        const auto rank = static_cast<std::int64_t>(dims.size());
        std::int64_t start = 0, end = rank;
        for (const auto& a : node.attribute()) {
          if (a.name() == "start") start = a.i();
          if (a.name() == "end") end = a.i();
        }
        if (start < 0) start += rank;
        if (end < 0) end += rank;
        start = std::clamp<std::int64_t>(start, 0, rank);
        end = std::clamp<std::int64_t>(end, start, rank);
        std::vector<std::int64_t> part(dims.begin() + start, dims.begin() + end);
        t = ir::tensor::of<std::int64_t>(std::span<const std::int64_t>(part),
                                         {static_cast<std::int64_t>(part.size())});
      }
      return store_folded(g, node, {std::move(t)});
    }
    if (!can_evaluate(op)) return false;
    std::vector<const onnx::TensorProto*> data;
    for (const auto& in : inputs) {
      if (!in.valid()) {
        data.push_back(nullptr);
        continue;
      }
      const auto* d = g.constant_data(in);
      if (!d) return false;
      data.push_back(d);
    }
    auto outs = evaluate(node, opset_, data);
    if (!outs) return false;
    return store_folded(g, node, std::move(*outs));
  }

  bool store_folded(ir::graph& g, const onnx::NodeProto& node, std::vector<ir::tensor> outs) {
    for (const auto& t : outs)
      if (static_cast<std::size_t>(ir::element_count(t.proto().dims())) > options_.fold_limit)
        return false;
    std::size_t k = 0;
    for (const auto& name : node.output()) {
      if (k >= outs.size()) break;
      auto& t = outs[k++];
      if (name.empty()) continue;
      scopes_.back()[name] = g.initializer(name, std::move(t));
    }
    ++report_.folded[node.op_type()];
    changed = true;
    return true;
  }

  const backend_hooks& hooks_;
  const options& options_;
  report& report_;
  int opset_;
  bool first_pass_;
  node_log log_;
  std::vector<std::unordered_map<std::string, ir::value>> scopes_;
  std::unordered_set<std::string> read_;  // every name the main graph's nodes and outputs read
};

// Removes the nodes whose outputs nothing reads (the graph's outputs are read) and the
// initializers nothing reads; returns how many of each went. Shared weights stay shared.
inline std::pair<std::size_t, std::size_t> remove_dead(ir::model& m) {
  auto& g = *m.proto_without_shared_bytes().mutable_graph();
  const auto dead = ir::remove_dead_nodes(g);
  std::unordered_set<std::string> live;
  for (const auto& o : g.output()) live.insert(o.name());
  for (const auto& i : g.input()) live.insert(i.name());
  for (const auto& n : g.node())
    for (const auto& r : reads_of(n)) live.insert(r);
  const auto unused =
      m.keep_initializers([&](const std::string& name) { return live.count(name) > 0; });
  return {dead, unused};
}

// The opset imports as the model wrote them (the standard domain as "", "ai.onnx" or no domain
// field at all; their order), when the rebuilt model imports the same domains at the same
// versions.
inline void keep_import_spelling(const onnx::ModelProto& from, onnx::ModelProto& to) {
  const auto imports = [](const onnx::ModelProto& m) {
    std::map<std::string, std::int64_t> out;
    for (const auto& o : m.opset_import())
      out[std::string(ir::canonical_domain(o.domain()))] = o.version();
    return out;
  };
  if (from.opset_import_size() == to.opset_import_size() && imports(from) == imports(to))
    *to.mutable_opset_import() = from.opset_import();
}

inline std::size_t node_count(const onnx::GraphProto& g) {
  return static_cast<std::size_t>(g.node_size());
}

RETARGET_COMPILED_DECL result convert_with(ir::model source, const options& o,
                                           const backend_hooks& hooks) {
  // Each weight is held once, by every pass and by the result: the source's bytes move into
  // shared tensors (a source given by value or moved in is not copied at all).
  source.share_weights();
  const int opset = source.opset().value_or(ir::default_opset);
  report r;
  r.backend = std::string(hooks.backend);
  r.nodes_before = node_count(source.graph());
  for (const auto name : hooks.rules) r.rules.emplace_back().name = name;

  ir::model current = std::move(source);
  bool changed = true;
  for (std::size_t pass = 1; changed && pass <= std::max<std::size_t>(o.max_passes, 1); ++pass) {
    const onnx::ModelProto& in = std::as_const(current).proto();
    ir::graph g(opset);
    bool imports_standard = in.opset_import_size() == 0;
    for (const auto& import : in.opset_import())
      if (!ir::is_default_domain(import.domain()))
        g.set_domain_version(import.domain(), static_cast<int>(import.version()));
      else
        imports_standard = true;
    if (!imports_standard) g.import_standard_domain_only_if_used();
    g.set_name(in.graph().name());
    // Names the rebuilt nodes will take are kept from the ones rewrites generate.
    std::vector<std::string> names;
    for (const auto& n : in.graph().node())
      names.insert(names.end(), n.output().begin(), n.output().end());
    g.reserve_names(names);

    rebuilder rebuild(hooks, o, r, opset, pass == 1);
    rebuild.rebuild(g, in.graph(), true, current.shared_initializers());
    changed = rebuild.changed;
    r.passes = pass;

    ir::model_info info;
    info.ir_version = in.ir_version();
    info.producer_name = in.producer_name();
    info.producer_version = in.producer_version();
    info.doc_string = in.doc_string();
    ir::model next = ir::make_model(std::move(g), info);
    auto& out = next.proto_without_shared_bytes();
    if (!in.has_producer_name()) out.clear_producer_name();
    if (!in.has_producer_version()) out.clear_producer_version();
    if (in.has_domain()) out.set_domain(in.domain());
    if (in.has_model_version()) out.set_model_version(in.model_version());
    *out.mutable_metadata_props() = in.metadata_props();
    *out.mutable_functions() = in.functions();
    keep_import_spelling(in, out);
    if (o.cleanup) {
      const auto [dead, unused] = remove_dead(next);
      r.dead_nodes_removed += dead;
      r.initializers_removed += unused;
    }
    current = std::move(next);
  }
  r.fixed_point = !changed;
  r.nodes_after = node_count(current.graph());
  // Inexact rewrites mark the nodes they make with their tag's name (approximation<Name>::mark).
  for (const auto& n : current.graph().node())
    if (const auto name = approximation_of_node(n.doc_string()))
      ++r.approximations[std::string(*name)];
  ir::model out = std::move(current);
  if (r.rules_fired() || !r.node_rewrites.empty() || !r.folded.empty() ||
      !r.approximations.empty() || r.identities_bypassed || r.dead_nodes_removed ||
      r.initializers_removed) {
    out.set_metadata("retarget:backend", std::string(hooks.backend));
    out.set_metadata("retarget:convert", summary(r));
  }
  if (o.check) out.check();
  return {std::move(out), std::move(r)};
}

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_ENGINE_IMPL_HPP
