// Converting an existing model for a backend. The model is rebuilt node by node, in
// topological order, through the checked emitter: each node is folded when its inputs are
// constants, else given to the backend's pattern rules in their order, else to its op's node
// rewrite (whose origin emits it unchanged). Passes repeat, up to a bound, until no rule fires
// and nothing folds; dead nodes and unused initializers go after each pass, and the result
// passes ONNX's checker and strict shape inference.
//
//   auto [model, report] = retarget::convert::convert<backends::opencv_dnn>(ir::load(path));
//   std::cout << to_string(report, /*explain=*/true);
//
// With no rule, no rewrite and no folding (import()), the rebuilt model equals the original.
#ifndef RETARGET_CONVERT_CONVERT_HPP
#define RETARGET_CONVERT_CONVERT_HPP

#include <boost/hana/for_each.hpp>
#include <concepts>
#include <cstddef>
#include <optional>
#include <retarget/convert/detail/engine.hpp>
#include <retarget/convert/fwd.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/convert/node_rewrite.hpp>
#include <retarget/convert/options.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/convert/report.hpp>
#include <retarget/convert/rule.hpp>
#include <retarget/core/backend.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/rewrite_env.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::convert {

namespace detail {

// The report's record of a rule, added when it has none. Out of line: every rule calls it.
[[gnu::noinline]] inline rule_record& record_of(report& r, std::string_view name) {
  for (auto& record : r.rules)
    if (record.name == name) return record;
  r.rules.emplace_back().name = name;
  return r.rules.back();
}

// What trying a rule does beyond its own pattern, condition and replacement, compiled once
// here rather than once per rule in try_rule<R> (where it was most of each rule's code).

// The closest attempt, kept for explain: a whole match refused by the condition beats any
// partial one.
[[gnu::noinline]] inline void note_attempt(rule_record& record, const rule_site& site,
                                           std::size_t depth, bool matched, std::string why) {
  if (record.fired) return;
  if (!record.closest_at.empty() &&
      std::pair(matched, depth) <= std::pair(record.closest_matched, record.closest_depth))
    return;
  record.closest_at = site.node.describe();
  record.closest_depth = depth;
  record.closest_matched = matched;
  record.closest_why = std::move(why);
}
[[gnu::noinline]] inline void note_refusal(rule_record& record, const rule_site& site,
                                           std::size_t depth, std::string_view why) {
  note_attempt(record, site, depth, true, "the condition said no: " + std::string(why));
}
[[gnu::noinline]] inline void note_false(rule_record& record, const rule_site& site,
                                         std::size_t depth) {
  note_refusal(record, site, depth, verdict(false).why);
}

// Called from a catch block: a retarget::error out of a rule's replacement names the rule.
[[noreturn, gnu::noinline]] inline void rethrow_from_rule(std::string_view rule) {
  try {
    throw;
  } catch (const error& e) {
    std::throw_with_nested(
        error("retarget: rule " + std::string(rule) + ": " + std::string(retarget::reason_of(e))));
  }
}

// The nodes a rule made (from `before` on) marked with its name, and its record updated.
[[gnu::noinline]] inline rule_firing rule_fired(const rule_site& site, rule_record& record,
                                                std::string_view rule, std::size_t before,
                                                std::size_t matched,
                                                std::vector<ir::value> outputs) {
  auto& g = site.g;
  for (std::size_t i = before; i < g.node_count(); ++i)
    g.set_doc_string(i, "retarget: made by rule " + std::string(rule));
  ++record.fired;
  record.nodes_matched += matched;
  record.nodes_created += g.node_count() - before;
  return rule_firing{std::move(outputs), rule};
}

// Rule R tried on a node: its outputs when it matched, passed its condition and replaced the
// node; else the closest attempt is kept in its record, for explain.
template <class R>
std::optional<rule_firing> try_rule(const rule_site& site) {
  using P = std::remove_cvref_t<decltype(R::pattern)>;
  if (site.node.op_type() != P::op.view()) return std::nullopt;
  auto& g = site.g;
  auto& record = record_of(site.r, R::name);
  match<P> m;
  m.bind_graph(g);
  matcher<match<P>> walk(g, m);
  if (!walk.match_node(R::pattern, site.node, site.inputs)) {
    note_attempt(record, site, walk.progress.depth, false, std::move(walk.progress.why));
    return std::nullopt;
  }
  if constexpr (requires { R::condition(m); }) {
    if constexpr (std::is_same_v<decltype(R::condition(m)), bool>) {
      // A plain bool says no as verdict(false) would, without a verdict made per rule.
      if (!R::condition(m)) {
        note_false(record, site, walk.progress.depth);
        return std::nullopt;
      }
    } else {
      const verdict v = R::condition(m);
      if (!v.ok) {
        note_refusal(record, site, walk.progress.depth, v.why);
        return std::nullopt;
      }
    }
  }
  const auto before = g.node_count();
  std::vector<ir::value> outs;
  try {
    outs = as_outputs(R::replace(g, m));
  } catch (const error&) {
    rethrow_from_rule(R::name);
  }
  return rule_fired(site, record, R::name, before, m.nodes().size(), std::move(outs));
}

// The rules in their declared order: the first that fires takes the node.
template <class Rules>
std::optional<rule_firing> try_rules(const rule_site& site) {
  std::optional<rule_firing> fired;
  hana::for_each(Rules::rules, [&](auto type) {
    using R = typename decltype(type)::type;
    if (!fired) fired = try_rule<R>(site);
  });
  return fired;
}

// B's rules and node rewrites, as the engine calls them.
template <Backend B, class Rules>
backend_hooks hooks_for() {
  backend_hooks hooks{B::name, {}, &try_rules<Rules>, nullptr};
  hana::for_each(Rules::rules,
                 [&](auto type) { hooks.rules.push_back(decltype(type)::type::name); });
  hooks.rewrite_node = [](const options& o, node_log& log, ir::graph& g, const node& n) {
    return rewrite_node<B>(rewrite_env(o, &log), g, n);
  };
  return hooks;
}

// Whether the conversion package of each backend of Chain is defined in this unit (a tag
// that declares a compiled package declares its specializations without them).
template <class Chain>
inline constexpr bool packages_defined = false;
template <class... Bs>
inline constexpr bool packages_defined<boost::mp11::mp_list<Bs...>> =
    ((!has_compiled_package<Bs> || (defined_here<rules_for<Bs>> && defined_here<quirks_for<Bs>>)) &&
     ...);

}  // namespace detail

// Converts `source` for backend B with the rules Rules (by default, those its fallback chain
// declares) and B's node rewrites. Throws retarget::error naming the node for a model that
// cannot be rebuilt (a cycle, a read of an undefined value, an op outside its opset). The
// source is taken by value: a model moved in is converted without a copy of its weights, and
// the result shares them (save() streams them; proto() copies them in).
//
// With retarget::compiled, a backend whose package is compiled there (its tag declares a
// compiled_package, convert/fwd.hpp) converts with its rules from the library, the same in
// every unit; another backend of B's chain, or other rules, need that package's rules as types.
template <Backend B, class Rules = rules_of_t<B>>
result convert(ir::model source, const options& o = {}) {
  if constexpr (detail::has_compiled_package<B> && std::is_same_v<Rules, rules_for<B>>) {
    return detail::convert_with(std::move(source), o, compiled_package<B>::hooks());
  } else {
    static_assert(detail::packages_defined<fallback_chain_t<B>>,
                  "retarget: convert<B> needs the rules and node rewrites of a backend of B's "
                  "chain whose tag only declares them (they are compiled into retarget::compiled): "
                  "include that backend's conversion header, e.g. "
                  "<retarget/backends/opencv_dnn/convert.hpp>");
    if constexpr (detail::packages_defined<fallback_chain_t<B>>)
      return detail::convert_with(std::move(source), o, detail::hooks_for<B, Rules>());
    else
      return result{};
  }
}

// The model rebuilt as it is: every node through the checked emitter, nothing rewritten. A
// template, so that only the translation units that import compile the conversion.
ir::model import(const std::same_as<ir::model> auto& source) {
  return convert<default_backend, rule_set<>>(
             source, {.fold = false, .node_rewrites = false, .cleanup = false, .check = false})
      .model;
}
}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_CONVERT_HPP
