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

#include <array>
#include <boost/mp11/list.hpp>
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

template <class R>
using pattern_of = std::remove_cvref_t<decltype(R::pattern)>;

// A rule's condition and replacement, over what match_pattern found: all that is compiled per
// rule (the matching, the report's records and the error handling are the engine's).
template <class R>
bool rule_condition(const match_data& found, std::string& why) {
  const match<pattern_of<R>> m(found);
  if constexpr (std::is_same_v<decltype(R::condition(m)), bool>) {
    return R::condition(m);  // a no leaves the engine's "the condition is false"
  } else {
    verdict v = R::condition(m);
    if (!v.ok) why = std::move(v.why);
    return v.ok;
  }
}
template <class R>
std::vector<ir::value> rule_replacement(ir::graph& g, const match_data& found) {
  return as_outputs(R::replace(g, match<pattern_of<R>>(found)));
}

// A rule's pattern as data, in static storage.
template <class R>
inline constexpr auto flat_pattern_of = flattened(R::pattern);

template <class R>
inline constexpr rule_entry entry_of{
    R::name,
    {flat_pattern_of<R>.elements, flat_pattern_of<R>.tests},
    capture_count<pattern_of<R>>,
    approximation_of<R>(),
    [] {
      if constexpr (requires(const match<pattern_of<R>>& m) { R::condition(m); })
        return &rule_condition<R>;
      else
        return static_cast<bool (*)(const match_data&, std::string&)>(nullptr);
    }(),
    &rule_replacement<R>};

// A rule set's rules as the engine tries them, in their order.
template <class List>
inline constexpr std::array<rule_entry, 0> entries_of{};
template <class... R>
inline constexpr std::array<rule_entry, sizeof...(R)> entries_of<boost::mp11::mp_list<R...>>{
    entry_of<R>...};

// The rules' indices sorted by their root op, each op's in the set's order: the engine tries
// a node's rules only (a stable insertion sort, at compile time).
template <class List>
inline constexpr auto by_root_op = [] {
  constexpr auto& entries = entries_of<List>;
  std::array<std::size_t, entries.size()> order{};
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::size_t at = i;
    const auto op = entries[i].pattern.elements.front().op;
    for (; at > 0 && op < entries[order[at - 1]].pattern.elements.front().op; --at)
      order[at] = order[at - 1];
    order[at] = i;
  }
  return order;
}();

// B's rules and node rewrites, as the engine calls them.
template <Backend B, class Rules>
backend_hooks hooks_for() {
  using list = typename Rules::checked_list;
  backend_hooks hooks{B::name, entries_of<list>, by_root_op<list>, nullptr};
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
