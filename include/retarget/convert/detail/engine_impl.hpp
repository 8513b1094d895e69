// The definitions of the conversion engine (engine.hpp): the rebuild of a graph node by node,
// folding, dead-node removal and the pass loop. Included by engine.hpp where the engine is
// compiled: in every unit header-only, in retarget::compiled's own source otherwise.
#ifndef RETARGET_CONVERT_DETAIL_ENGINE_IMPL_HPP
#define RETARGET_CONVERT_DETAIL_ENGINE_IMPL_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <optional>
#include <retarget/convert/detail/engine.hpp>
#include <retarget/convert/evaluate.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/rewrite_env.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/open_dims.hpp>
#include <retarget/ir/rebuilt_model.hpp>
#include <retarget/ir/stored_graph.hpp>
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

// Whether a rebuilt node is its source unchanged (op, inputs, outputs, attributes).
// A subgraph is rebuilt under new names: its attribute is not compared.
RETARGET_LAZY_HELPER bool same_node(const ir::node_view& rebuilt, const ir::node_view& source) {
  if (rebuilt.op_type() != source.op_type() || rebuilt.inputs() != source.inputs() ||
      rebuilt.outputs() != source.outputs() ||
      rebuilt.attribute_count() != source.attribute_count())
    return false;
  const auto before = source.attributes(), after = rebuilt.attributes();
  for (std::size_t i = 0; i < before.size(); ++i)
    if (!before[i].has_subgraph() && !after[i].same_as(before[i])) return false;
  return true;
}
// ---- Rules ----

// Whether a rule made the node (in an earlier pass): explain lists the nodes of the model as
// given, not those rules made on the way.
RETARGET_LAZY_HELPER bool made_by_a_rule(const ir::node_view& node) {
  return node.doc_string().find("made by rule ") != std::string::npos;
}
// Keeps a node where a rule did not fire, once per node and reason over the passes.
RETARGET_LAZY_HELPER void note_rejection(rule_record& record, rule_rejection no) {
  for (const auto& seen : record.rejections)
    if (seen.at == no.at && seen.why == no.why && seen.taken_by == no.taken_by) return;
  record.rejections.push_back(std::move(no));
}

// A node where the rule did not fire, kept for explain (once per node and reason, over the
// passes); for a rule that has not fired yet, the closest attempt too, a whole match refused
// by the condition beating any partial one.
RETARGET_LAZY_HELPER void note_attempt(rule_record& record, const rule_site& site,
                                       std::size_t depth, bool matched, std::string why) {
  std::string at = site.node.describe();
  if (!made_by_a_rule(site.node)) note_rejection(record, {at, depth, matched, why});
  if (record.fired) return;
  if (!record.closest_at.empty() &&
      std::pair(matched, depth) <= std::pair(record.closest_matched, record.closest_depth))
    return;
  record.closest_at = std::move(at);
  record.closest_depth = depth;
  record.closest_matched = matched;
  record.closest_why = std::move(why);
}

// Says in the doc string of each node of g from `first` on what made it (`by`: "made by rule
// NAME"); an approximation's mark, which the report counts, comes first: `approximation`'s
// when the maker is one, else a mark the maker wrote itself is kept.
RETARGET_LAZY_HELPER void mark_made(ir::graph& g, std::size_t first, const std::string& by,
                                    std::string_view approximation = {}) {
  for (std::size_t i = first; i < g.node_count(); ++i) {
    const std::string& doc = g.node(i).doc_string();
    if (!approximation.empty())
      g.set_doc_string(
          i, std::string(approximation_marker) + std::string(approximation) + " (" + by + ")");
    else
      g.set_doc_string(i, approximation_of_node(doc) ? doc + "; " + by : "retarget: " + by);
  }
}

// Rule `rule` tried on a node: its outputs when it matched, passed its condition and replaced
// the node, the nodes it made marked with its name; else why not is kept in its record, for
// explain.
RETARGET_LAZY_HELPER std::optional<rule_firing> try_rule(const rule_entry& rule,
                                                         rule_record& record,
                                                         const rule_site& site) {
  auto& g = site.g;
  match_data found;
  found.given = &site.o;
  found.readers = site.readers;
  found.slots.resize(rule.captures);
  attempt progress;
  if (!match_pattern(rule.pattern, g, site.node, site.inputs, found, progress)) {
    note_attempt(record, site, progress.depth, false, std::move(progress.why));
    return std::nullopt;
  }
  if (rule.condition) {
    std::string why = "the condition is false";
    if (!rule.condition(found, why)) {
      note_attempt(record, site, progress.depth, true, "the condition said no: " + why);
      return std::nullopt;
    }
  }
  if (!rule.approximation.empty() && !site.o.allows(rule.approximation)) {
    note_attempt(record, site, progress.depth, true,
                 "approximation " + std::string(rule.approximation) +
                     " is not asked for (options::approximations, --approximate)");
    return std::nullopt;
  }
  const auto before = g.node_count();
  std::vector<ir::value> outputs;
  try {
    outputs = rule.replace(g, found);
  } catch (const error& e) {
    // A retarget::error out of a rule's replacement names the rule.
    std::throw_with_nested(error("retarget: rule " + std::string(rule.name) + ": " +
                                 std::string(retarget::reason_of(e))));
  }
  mark_made(g, before, "made by rule " + std::string(rule.name), rule.approximation);
  ++record.fired;
  record.nodes_matched += found.nodes.size();
  record.nodes_created += g.node_count() - before;
  return rule_firing{std::move(outputs), rule.name};
}

// The rules of the node's op, in their order: the first that fires takes the node, and the
// later ones say so in their records. The report holds one record per rule, in the set's
// order (convert_with makes them); `by_root_op` lists the rules sorted by their root op.
RETARGET_LAZY_HELPER std::optional<rule_firing> try_rules(const backend_hooks& hooks,
                                                          const rule_site& site) {
  const auto& op = site.node.op_type();
  const auto first = std::lower_bound(hooks.by_root_op.begin(), hooks.by_root_op.end(), op,
                                      [&](std::size_t i, const std::string& o) {
                                        return hooks.rules[i].pattern.elements.front().op < o;
                                      });
  auto last = first;
  while (last != hooks.by_root_op.end() && hooks.rules[*last].pattern.elements.front().op == op)
    ++last;
  for (auto i = first; i != last; ++i)
    if (auto fired = try_rule(hooks.rules[*i], site.r.rules[*i], site)) {
      if (!made_by_a_rule(site.node))
        for (auto later = i + 1; later != last; ++later)
          note_rejection(site.r.rules[*later],
                         {site.node.describe(), 0, false, {}, std::string(fired->rule)});
      return fired;
    }
  return std::nullopt;
}

// One pass: the source graph rebuilt into a new one.
class rebuilder final : public reader_count {
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
  RETARGET_LAZY_HELPER void rebuild(ir::graph& g, const ir::stored_graph& source, bool main_graph,
                                    std::span<const ir::shared_initializer> shared = {}) {
    if (source.sparse_initializer_count() > 0)
      throw error("retarget: graph '" + source.name() +
                  "' has sparse initializers, which retarget cannot rebuild");
    scopes_.emplace_back();
    graphs_.push_back({&g, {}, {}, {}});
    std::set<std::string> input_names;
    for (const auto& in : source.inputs()) {
      // A subgraph's input without a type is typed by its node.
      bind(in.name(), ir::declare_input(g, in, !main_graph));
      input_names.insert(in.name());
    }
    std::vector<const ir::shared_initializer*> shared_at(source.initializer_count(), nullptr);
    for (const auto& s : shared) shared_at.at(static_cast<std::size_t>(s.index)) = &s;
    for (std::size_t i = 0; i < source.initializer_count(); ++i) {
      const ir::tensor_view init = source.initializer(i);
      const std::string name(init.name());
      const auto* s = shared_at[i];
      // An initializer that is also a graph input is that input's default value (never shared).
      if (input_names.count(name))
        ir::add_input_default(g, init);
      else if (s)
        bind(name, g.initializer(name, s->data));
      else
        bind(name, g.initializer(name, init.copy()));
    }
    auto& state = graphs_.back();
    auto& pending = state.pending_reads;
    for (std::size_t i = 0; i < source.node_count(); ++i)
      for (const auto& r : state.reads.emplace_back(distinct_reads(source, i))) ++pending[r];
    for (const auto& o : source.outputs()) ++pending[o.name()];
    if (main_graph)
      for (const auto& [name, n] : pending) read_.insert(name);
    const auto order = source.topological_order([&](const std::string& name) {
      for (std::size_t i = 0; i + 1 < scopes_.size(); ++i)
        if (scopes_[i].count(name)) return true;
      return false;
    });
    std::size_t done = 0;
    for (const int i : order) {
      const auto at = static_cast<std::size_t>(i);
      if (main_graph && options_.on_progress)
        options_.on_progress({report_.passes, ++done, order.size(), 0});
      try {
        rebuild_node(g, source.node(at), main_graph);
        for (const auto& r : graphs_.back().reads[at]) --graphs_.back().pending_reads[r];
      } catch (const error& e) {
        std::throw_with_nested(
            error("retarget: " + source.place(at) + ": " + std::string(retarget::reason_of(e))));
      }
    }
    for (const auto& out : source.outputs()) {
      const ir::value v = lookup(out.name());
      // The declared type, as the model had it.
      ir::declare_output(g, v, v.name() == out.name() ? std::string() : out.name(), out,
                         !main_graph);
    }
    scopes_.pop_back();
    graphs_.pop_back();
  }

  // How many nodes of the graph being built (a subgraph's, inside one) read v once it is
  // rebuilt whole: those already in it, and those still to come that read a name bound to v.
  std::size_t readers(const ir::value& v) const override {
    const auto& in = graphs_.back();
    std::size_t n = in.g->readers(v);
    if (const auto names = in.bound.find(v.name()); names != in.bound.end())
      for (const auto& name : names->second)
        if (const auto it = in.pending_reads.find(name); it != in.pending_reads.end())
          n += it->second;
    return n;
  }

 private:
  // The names node i reads, each once: a node is one reader however often it reads a name.
  static std::set<std::string> distinct_reads(const ir::stored_graph& source, std::size_t i) {
    const auto reads = source.reads(i);
    return {reads.begin(), reads.end()};
  }

  // The source's name `name` stands for v from here on.
  RETARGET_LAZY_HELPER void bind(const std::string& name, const ir::value& v) {
    scopes_.back()[name] = v;
    graphs_.back().bound[v.name()].push_back(name);
  }

  RETARGET_LAZY_HELPER ir::value lookup(const std::string& name) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
      if (const auto it = s->find(name); it != s->end()) return it->second;
    throw error("retarget: no value named '" + name + "'");
  }

  RETARGET_LAZY_HELPER void bind_outputs(const ir::node_view& node,
                                         const std::vector<ir::value>& outs,
                                         const std::string& who) {
    std::size_t k = 0;
    for (const auto& name : node.outputs()) {
      if (name.empty()) continue;
      if (k >= outs.size())
        throw error("retarget: " + who + " gave " + std::to_string(outs.size()) +
                    " outputs for a node with more");
      bind(name, outs[k++]);
    }
    if (k != outs.size())
      throw error("retarget: " + who + " gave " + std::to_string(outs.size()) + " outputs for " +
                  std::to_string(k));
  }

  // The node's attributes, each subgraph rebuilt in a subgraph of g.
  RETARGET_LAZY_HELPER ir::attribute_list rebuilt_attributes(ir::graph& g,
                                                             const ir::node_view& node) {
    ir::attribute_list out;
    for (const auto& a : node.attributes())
      out.push_back(ir::with_rebuilt_subgraphs(
          g, a, [&](ir::graph& body, const ir::stored_graph& sub) { rebuild(body, sub, false); }));
    return out;
  }

  RETARGET_LAZY_HELPER void rebuild_node(ir::graph& g, const ir::node_view& node, bool main_graph) {
    std::vector<ir::value> inputs;
    for (const auto& name : node.inputs())
      inputs.push_back(name.empty() ? ir::value{} : lookup(name));
    const bool standard = node.in_default_domain();
    // An op its opset does not have is refused before anything rewrites it away.
    if (ir::is_standard_domain(node.domain())) g.schema_of(node);
    if (main_graph && options_.fold && standard && fold(g, node, inputs)) return;
    if (standard) {  // in subgraphs too: a match stays within the graph of its root
      if (auto fired = try_rules(hooks_, {g, node, inputs, report_, options_, this})) {
        bind_outputs(node, fired->outputs, "rule " + std::string(fired->rule));
        changed = true;
        return;
      }
    }
    const convert::node n(node, inputs, rebuilt_attributes(g, node));
    std::vector<ir::value> outs;
    if (first_pass_ && options_.node_rewrites) {
      const auto fired = log_.fired;
      const auto before = g.node_count();
      outs = hooks_.rewrite_node(options_, log_, g, n);
      if (log_.fired != fired) {
        // A rewrite that handed the node to its origin changed nothing: not counted.
        if (g.node_count() == before + 1 && same_node(g.node(before), node)) {
          log_.forget(fired);
        } else {
          changed = true;
          // The nodes it made say so, as a rule's do (the last record is the outermost
          // rewrite's, which ran last).
          const auto& record = (*log_.records)[log_.order.back()];
          mark_made(g, before, "made by node rewrite " + record.op + " (" + record.rewrite + ")");
        }
      }
    } else {
      outs = n.emit_unchanged(g);
    }
    bind_outputs(node, outs, "the node rewrite of " + node.op_type());
  }

  // ---- Folding ----

  RETARGET_LAZY_HELPER bool fold(ir::graph& g, const ir::node_view& node,
                                 const std::vector<ir::value>& inputs) {
    const std::string& op = node.op_type();
    if (op == "Constant" || node.output_count() == 0) return false;
    for (const auto& a : node.attributes())
      if (a.has_subgraph()) return false;
    if (op == "Identity" && inputs.size() == 1 && inputs[0].valid() && g.constant_data(inputs[0])) {
      bind(node.output(0), inputs[0]);
      ++report_.identities_bypassed;
      changed = true;
      return true;
    }
    // Dropout passes its input through in inference (no training_mode, or a constant false)
    // and with a ratio of 0, when nothing reads its mask.
    if (op == "Dropout" && !inputs.empty() && inputs[0].valid() &&
        (node.output_count() < 2 || node.output(1).empty() || !read_.count(node.output(1)))) {
      const auto constant_is = [&](std::size_t i, double v) {
        if (inputs.size() <= i || !inputs[i].valid()) return true;  // absent: the default
        const ir::tensor_view t = g.constant_data(inputs[i]);
        if (!t) return false;
        const auto values = ir::values_as_double(t.copy());
        return values.size() == 1 && values.front() == v;
      };
      if (!constant_is(2, 0) && !constant_is(1, 0)) return false;
      if (inputs.size() > 1 && inputs[1].valid() && !g.constant_data(inputs[1]) &&
          !constant_is(2, 0))
        return false;
      bind(node.output(0), inputs[0]);
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
        if (const auto a = node.attribute("start")) start = a->i();
        if (const auto a = node.attribute("end")) end = a->i();
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
    std::vector<ir::tensor_view> data;
    for (const auto& in : inputs) {
      if (!in.valid()) {
        data.emplace_back();
        continue;
      }
      const ir::tensor_view d = g.constant_data(in);
      if (!d) return false;
      data.push_back(d);
    }
    auto outs = evaluate(node, opset_, std::span<const ir::tensor_view>(data));
    if (!outs) return false;
    return store_folded(g, node, std::move(*outs));
  }

  RETARGET_LAZY_HELPER bool store_folded(ir::graph& g, const ir::node_view& node,
                                         std::vector<ir::tensor> outs) {
    for (const auto& t : outs)
      if (static_cast<std::size_t>(ir::element_count(t.dims())) > options_.fold_limit) return false;
    std::size_t k = 0;
    for (const auto& name : node.outputs()) {
      if (k >= outs.size()) break;
      auto& t = outs[k++];
      if (name.empty()) continue;
      bind(name, g.initializer(name, std::move(t)));
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
  // A graph being built (the main one, then the subgraph being built inside it, ...): what
  // counting a value's readers needs.
  struct graph_state {
    ir::graph* g;
    // Reads of each source name by the graph's nodes not rebuilt yet, and by its outputs.
    std::unordered_map<std::string, std::size_t> pending_reads;
    // The source names bound to each value, by the value's name.
    std::unordered_map<std::string, std::vector<std::string>> bound;
    std::vector<std::set<std::string>> reads;  // the names each source node reads, once each
  };
  std::vector<graph_state> graphs_;  // one per scope
};

// Whether a conversion changed the model: what earns the result its metadata.
inline bool changed_anything(const report& r) {
  return r.rules_fired() || !r.node_rewrites.empty() || !r.folded.empty() ||
         !r.approximations.empty() || r.identities_bypassed || r.dead_nodes_removed ||
         r.initializers_removed;
}

// The conversion itself, of a model's dims as they are.
inline result convert_as_is(ir::model source, const options& given, const backend_hooks& hooks) {
  options o = given;
  o.at_trial_sizes = ir::at_trial_sizes(source);
  // Each weight is held once, by every pass and by the result: the source's bytes move into
  // shared tensors (a source given by value or moved in is not copied at all).
  source.share_weights();
  const int opset = source.opset().value_or(ir::default_opset);
  report r;
  r.backend = std::string(hooks.backend);
  r.nodes_before = ir::node_count(source);
  for (const auto& rule : hooks.rules) r.rules.emplace_back().name = rule.name;

  // The first pass reads the original, which is kept for the checker's verdict should the
  // result fail it; later passes read the previous pass's result.
  const ir::model original = std::move(source);
  ir::model current;
  bool changed = true;
  for (std::size_t pass = 1; changed && pass <= std::max<std::size_t>(o.max_passes, 1); ++pass) {
    const ir::model& in = pass == 1 ? original : current;
    ir::graph g(opset);
    // Names the rebuilt nodes will take are kept from the ones rewrites generate.
    ir::prepare_rebuild(g, in);

    r.passes = pass;
    rebuilder rebuild(hooks, o, r, opset, pass == 1);
    rebuild.rebuild(g, ir::stored_graph(in), true, in.shared_initializers());
    changed = rebuild.changed;

    ir::model next = ir::rebuilt_model(std::move(g), in);
    if (o.cleanup) {
      const auto removed = ir::remove_unread(next);
      r.dead_nodes_removed += removed.nodes;
      r.initializers_removed += removed.initializers;
    }
    current = std::move(next);
  }
  r.fixed_point = !changed;
  r.nodes_after = ir::node_count(current);
  // Inexact rewrites mark the nodes they make with their tag's name (approximation<Name>::mark).
  const ir::stored_graph made(current);
  for (std::size_t i = 0; i < made.node_count(); ++i)
    if (const auto name = approximation_of_node(made.node(i).doc_string()))
      ++r.approximations[std::string(*name)];
  ir::model out = std::move(current);
  if (changed_anything(r)) {
    out.set_metadata("retarget:backend", std::string(hooks.backend));
    out.set_metadata("retarget:convert", summary(r));
  }
  if (o.check) {
    try {
      out.check();
    } catch (const error&) {
      // A result the checker refuses is convert's fault only if the original passed it.
      try {
        original.check();
      } catch (const error& e) {
        r.original_invalid = reason_of(e);
        return {std::move(out), std::move(r)};
      }
      throw;
    }
  }
  return {std::move(out), std::move(r)};
}

RETARGET_LAZY_DEF result convert_with(ir::model source, const options& o,
                                      const backend_hooks& hooks) {
  const auto open = o.keep_open_dims ? ir::open_dims(source) : std::vector<ir::open_dim>{};
  if (open.empty()) return convert_as_is(std::move(source), o, hooks);
  std::string dims;
  for (const auto& d : open) dims += (dims.empty() ? "" : ", ") + d.describe();
  // At two sizes every shape computation folds; what differs between the two results is
  // written for any size, or the model is converted with its dims open after all.
  source.share_weights();
  constexpr std::int64_t size_a = ir::trial_sizes[0], size_b = ir::trial_sizes[1];
  const auto at = [&](std::int64_t size) {
    options at_size = o;
    at_size.keep_open_dims = false;
    if (o.on_progress)
      at_size.on_progress = [&o, size](progress p) {
        p.size = size;
        o.on_progress(p);
      };
    return convert_as_is(ir::with_sizes(source, open, size), at_size, hooks);
  };
  std::string why;
  try {
    auto a = at(size_a);
    // Nothing to change at a size: nothing to join either (the model as written).
    if (!changed_anything(a.report)) {
      result out = convert_as_is(std::move(source), o, hooks);
      out.report.open_dims = dims + " kept open: at a size, nothing to change";
      return out;
    }
    auto b = at(size_b);
    if (a.report.original_invalid.empty()) {
      ir::model joined = ir::joined_over_sizes(source, a.model, b.model);
      result out{std::move(joined), std::move(a.report)};
      out.report.nodes_before = ir::node_count(source);
      out.report.open_dims = dims + " kept open: converted at sizes " + std::to_string(size_a) +
                             " and " + std::to_string(size_b) + " and joined";
      out.model.set_metadata("retarget:convert", summary(out.report));
      if (o.check) out.model.check();
      return out;
    }
    why = "the model fails ONNX's checker at a size";
  } catch (const error& e) {
    why = reason_of(e);
  }
  result out = convert_as_is(std::move(source), o, hooks);
  out.report.open_dims = dims + " left open as written (" + why + ")";
  if (changed_anything(out.report)) out.model.set_metadata("retarget:convert", summary(out.report));
  return out;
}

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_ENGINE_IMPL_HPP
