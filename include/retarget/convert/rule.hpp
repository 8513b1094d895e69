// Pattern rules: several nodes of a model become several others. A pattern names its ops and
// captures as compile-time strings, checked against the ONNX schemas as g.op is; a Boost.Hana
// map keyed by those strings gives each capture its slot and its type, so a misspelt capture
// does not compile and each capture keeps its own type (a value, or a node of a known op).
// Once checked, a pattern is data (detail/pattern_match.hpp): one function, compiled once,
// matches every pattern, and a rule compiles into its condition and replacement only.
//
//   using namespace retarget::convert::literals;
//   struct relu6 : rc::rule<"relu6"> {
//     static constexpr auto pattern = rc::op<"Clip">("x"_v, "lo"_c, "hi"_c);
//     static rc::verdict condition(const auto& m) { return scalar(m["lo"_c]) == 0; }
//     static auto replace(ir::graph& g, const auto& m) { return g.op("Relu", m["x"_v]); }
//   };
//
// "x"_v captures any value, "w"_c a constant one (an initializer or a Constant's output),
// rc::any matches anything without a capture, .as<"n">() captures a matched node (read its
// attributes with m["n"_n]["epsilon"_f]), rc::output<K>(p) is output K of p's node, and
// rc::commutative(p) matches a two-input op either way round. A name used twice must bind
// the same value both times.
#ifndef RETARGET_CONVERT_RULE_HPP
#define RETARGET_CONVERT_RULE_HPP

#include <array>
#include <boost/hana/at_key.hpp>
#include <boost/hana/contains.hpp>
#include <boost/hana/flatten.hpp>
#include <boost/hana/fold_left.hpp>
#include <boost/hana/insert.hpp>
#include <boost/hana/map.hpp>
#include <boost/hana/pair.hpp>
#include <boost/hana/size.hpp>
#include <boost/hana/string.hpp>
#include <boost/hana/tuple.hpp>
#include <boost/hana/type.hpp>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/convert/detail/pattern_match.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/core/backend.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/schema.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::convert {

namespace hana = boost::hana;

// ---- Pattern pieces ----

template <fixed_string Name>
struct value_capture {  // "x"_v: any value
  static constexpr fixed_string name = Name;
  static constexpr bool constant = false;
};
template <fixed_string Name>
struct constant_capture {  // "w"_c: an initializer or a Constant's output
  static constexpr fixed_string name = Name;
  static constexpr bool constant = true;
};
template <fixed_string Name>
struct node_key {  // "n"_n: reads a node captured with .as<"n">()
  static constexpr fixed_string name = Name;
};
struct any_t {};
inline constexpr any_t any{};

inline namespace literals {
template <fixed_string Name>
constexpr value_capture<Name> operator""_v() noexcept {
  return {};
}
template <fixed_string Name>
constexpr constant_capture<Name> operator""_c() noexcept {
  return {};
}
template <fixed_string Name>
constexpr node_key<Name> operator""_n() noexcept {
  return {};
}
}  // namespace literals

template <fixed_string Op, fixed_string Name, std::size_t Output, bool Commutative, class... Inputs>
struct op_pattern {
  static constexpr fixed_string op = Op;
  static constexpr fixed_string name = Name;
  static constexpr std::size_t output = Output;
  static constexpr bool commutative = Commutative;
  hana::tuple<Inputs...> inputs;

  // Captures the matched node under `N`, for m["N"_n].
  template <fixed_string N>
  constexpr op_pattern<Op, N, Output, Commutative, Inputs...> as() const {
    return {inputs};
  }
  // The same as .as("N"_n): a spelling that needs no `template` keyword where the pattern's
  // type depends on a template parameter (there, .as<"N">() must be .template as<"N">()).
  template <fixed_string N>
  constexpr op_pattern<Op, N, Output, Commutative, Inputs...> as(node_key<N>) const {
    return {inputs};
  }
};

namespace detail {
template <class T>
inline constexpr bool is_op_pattern = false;
template <fixed_string O, fixed_string N, std::size_t K, bool C, class... I>
inline constexpr bool is_op_pattern<op_pattern<O, N, K, C, I...>> = true;
template <class T>
inline constexpr bool is_value_pattern = false;
template <fixed_string N>
inline constexpr bool is_value_pattern<value_capture<N>> = true;
template <fixed_string N>
inline constexpr bool is_value_pattern<constant_capture<N>> = true;
template <>
inline constexpr bool is_value_pattern<any_t> = true;
}  // namespace detail

template <class T>
concept pattern = detail::is_op_pattern<T> || detail::is_value_pattern<T>;

// A node of op Op whose inputs match `inputs` in order; inputs past the pattern's must be
// absent.
template <fixed_string Op, class... Inputs>
constexpr auto op(Inputs... inputs) {
  static_assert(ir::is_onnx_op(Op) && ir::split_op_name(Op).first.empty(),
                "retarget: pattern op name is unknown to the ONNX schemas (of the default domain, "
                "which patterns match)");
  static_assert((pattern<Inputs> && ...),
                "retarget: a pattern's inputs are patterns: op<...>(...), \"x\"_v, \"w\"_c or any");
  static_assert(
      !ir::is_onnx_op(Op) || static_cast<int>(sizeof...(Inputs)) <= ir::onnx_op_inputs(Op).second,
      "retarget: pattern op is given more inputs than its schema allows");
  return op_pattern<Op, "", 0, false, Inputs...>{hana::make_tuple(inputs...)};
}

// Output K of the node p matches.
template <std::size_t K, fixed_string Op, fixed_string Name, std::size_t Output, bool C,
          class... Inputs>
constexpr auto output(op_pattern<Op, Name, Output, C, Inputs...> p) {
  return op_pattern<Op, Name, K, C, Inputs...>{p.inputs};
}

// A two-input op matched with its inputs either way round.
template <fixed_string Op, fixed_string Name, std::size_t Output, bool C, class A, class B>
constexpr auto commutative(op_pattern<Op, Name, Output, C, A, B> p) {
  return op_pattern<Op, Name, Output, true, A, B>{p.inputs};
}

// ---- What a match holds ----

// A captured node, read through its view, with attributes read by checked keys
// (m["n"_n]["axis"_i]).
template <fixed_string Op>
class matched_node {
 public:
  static constexpr std::string_view op = Op;
  std::optional<ir::node_view> node;  // set once the pattern matched

  template <detail::attribute_key Key>
  auto operator[](Key) const {
    return detail::read_checked<Op, Key>(node->attribute(detail::key_name<Key>::value));
  }
};

namespace detail {

template <fixed_string S, std::size_t... I>
constexpr auto hana_string(std::index_sequence<I...>) {
  return hana::string_c<S.chars[I]...>;
}
template <fixed_string S>
constexpr auto key_of = hana_string<S>(std::make_index_sequence<S.size()>{});

// The captures of a pattern as (key, type) pairs, with repeats.
constexpr auto captures_of(any_t) { return hana::make_tuple(); }
template <fixed_string N>
constexpr auto captures_of(value_capture<N>) {
  return hana::make_tuple(hana::make_pair(key_of<N>, hana::type_c<ir::value>));
}
template <fixed_string N>
constexpr auto captures_of(constant_capture<N>) {
  return hana::make_tuple(hana::make_pair(key_of<N>, hana::type_c<ir::value>));
}
template <fixed_string O, fixed_string N, std::size_t K, bool C, class... I>
constexpr auto captures_of(const op_pattern<O, N, K, C, I...>& p) {
  auto own = [] {
    if constexpr (N.size() == 0)
      return hana::make_tuple();
    else
      return hana::make_tuple(hana::make_pair(key_of<N>, hana::type_c<matched_node<O>>));
  }();
  auto inner = hana::unpack(p.inputs, [](const auto&... in) {
    return hana::flatten(hana::make_tuple(captures_of(in)...));
  });
  return hana::flatten(hana::make_tuple(own, inner));
}

// A pattern's captures: a hana::map from each name to its slot in a match and its type
// (ir::value, or matched_node<Op>), the first use of a name deciding both. Only its type is
// used: the checks of m["x"_v] and the pattern's flattening read it at compile time.
template <class Pattern>
constexpr auto capture_map_of(const Pattern& p) {
  return hana::fold_left(captures_of(p), hana::make_map(), [](auto map, auto pair) {
    return hana::insert(map, hana::make_pair(hana::first(pair),
                                             hana::make_pair(hana::size(map), hana::second(pair))));
  });
}
template <class Pattern>
using capture_map_t = decltype(capture_map_of(std::declval<const Pattern&>()));

template <class Pattern, fixed_string N>
inline constexpr bool has_capture =
    decltype(hana::contains(std::declval<capture_map_t<Pattern>>(), key_of<N>))::value;
template <class Pattern, fixed_string N>
using capture_entry_t =
    std::remove_cvref_t<decltype(hana::at_key(std::declval<capture_map_t<Pattern>>(), key_of<N>))>;
template <class Pattern, fixed_string N>
inline constexpr std::size_t capture_slot_of =
    std::remove_cvref_t<decltype(hana::first(std::declval<capture_entry_t<Pattern, N>>()))>::value;
template <class Pattern, fixed_string N>
using capture_type_t = typename std::remove_cvref_t<decltype(hana::second(
    std::declval<capture_entry_t<Pattern, N>>()))>::type;
template <class Pattern>
inline constexpr std::size_t capture_count =
    decltype(hana::size(std::declval<capture_map_t<Pattern>>()))::value;

// The pieces of a pattern's subtree, itself included.
template <class P>
inline constexpr std::size_t extent_of = 1;
template <fixed_string O, fixed_string N, std::size_t K, bool C, class... I>
inline constexpr std::size_t extent_of<op_pattern<O, N, K, C, I...>> = 1 + (extent_of<I> + ... + 0);

// A pattern flattened into the data match_pattern walks, depth first.
template <class Pattern>
struct flattener {
  std::array<pattern_element, extent_of<Pattern>> out{};
  std::size_t at = 0;

  template <fixed_string N>
  static constexpr std::ptrdiff_t slot() {
    if constexpr (N.size() == 0)
      return -1;
    else
      return static_cast<std::ptrdiff_t>(capture_slot_of<Pattern, N>);
  }
  constexpr void add(any_t) { out[at++] = {}; }
  template <class Capture>
  requires(requires { Capture::constant; }) constexpr void add(Capture) {
    using kind = pattern_element::kind;
    out[at++] = {Capture::constant ? kind::constant : kind::value,
                 {},
                 Capture::name.view(),
                 slot<Capture::name>()};
  }
  template <fixed_string O, fixed_string N, std::size_t K, bool C, class... I>
  constexpr void add(const op_pattern<O, N, K, C, I...>&) {
    using P = op_pattern<O, N, K, C, I...>;
    out[at++] = {pattern_element::kind::op,
                 P::op.view(),
                 P::name.view(),
                 slot<N>(),
                 extent_of<P>,
                 sizeof...(I),
                 K,
                 C};
    (add(I{}), ...);
  }
};
template <class Pattern>
inline constexpr auto pattern_elements = [] {
  flattener<Pattern> f;
  f.add(Pattern{});
  return f.out;
}();

}  // namespace detail

// The captures of one match of a rule's pattern, read by the literals that made them: what a
// rule's condition and replacement get as `m`.
template <class Pattern>
class match {
 public:
  // Each capture's name, as a hana::string, to its slot and its type (a hana::type).
  using capture_map = detail::capture_map_t<Pattern>;

  explicit match(const detail::match_data& found) noexcept : found_(&found) {}

  template <fixed_string N>
  const ir::value& operator[](value_capture<N>) const {
    return value<N>();
  }
  template <fixed_string N>
  const ir::value& operator[](constant_capture<N>) const {
    return value<N>();
  }
  template <fixed_string N>
  auto operator[](node_key<N>) const {
    static_assert(detail::has_capture<Pattern, N>,
                  "retarget: capture name is not in the rule's pattern");
    if constexpr (detail::has_capture<Pattern, N>) {
      using T = detail::capture_type_t<Pattern, N>;
      static_assert(!std::is_same_v<T, ir::value>,
                    "retarget: the capture is a value; read it with \"name\"_v or \"name\"_c");
      if constexpr (!std::is_same_v<T, ir::value>)
        return T{found_->slots[detail::capture_slot_of<Pattern, N>].node};
    }
  }

  // The graph being built, where the captured values live.
  ir::graph& graph() const noexcept { return *found_->graph; }
  // The matched nodes, the root first (then depth first, in the pattern's order).
  const std::vector<ir::node_view>& nodes() const noexcept { return found_->nodes; }

 private:
  template <fixed_string N>
  const ir::value& value() const {
    static_assert(detail::has_capture<Pattern, N>,
                  "retarget: capture name is not in the rule's pattern");
    if constexpr (detail::has_capture<Pattern, N>) {
      static_assert(std::is_same_v<detail::capture_type_t<Pattern, N>, ir::value>,
                    "retarget: the capture is a node; read it with \"name\"_n");
      return found_->slots[detail::capture_slot_of<Pattern, N>].value;
    } else {
      return found_->slots.front().value;
    }
  }

  const detail::match_data* found_;
};

// What a condition says: yes, or no and why (shown by --explain).
struct verdict {
  bool ok = true;
  std::string why;
  verdict(bool yes) : ok(yes), why(yes ? "" : "the condition is false") {}  // NOLINT
  static verdict no(std::string reason) {
    verdict v(false);
    v.why = std::move(reason);
    return v;
  }
  explicit operator bool() const noexcept { return ok; }
};
inline verdict reject(std::string reason) { return verdict::no(std::move(reason)); }

// ---- Rules and rule sets ----

// Derive a rule from rule<"name">; give it `static constexpr auto pattern`, an optional
// `condition(m)` returning bool or verdict, and `replace(g, m)` returning the root's outputs.
template <fixed_string Name>
struct rule {
  static constexpr std::string_view name = Name;
};

template <class R>
concept Rule = requires {
  { R::name } -> std::convertible_to<std::string_view>;
  R::pattern;
}
&&detail::is_op_pattern<std::remove_cvref_t<decltype(R::pattern)>>;

namespace detail {
template <class... R>
constexpr bool names_unique() {
  constexpr std::string_view names[] = {R::name..., ""};
  for (std::size_t i = 0; i < sizeof...(R); ++i)
    for (std::size_t j = i + 1; j < sizeof...(R); ++j)
      if (names[i] == names[j]) return false;
  return true;
}
}  // namespace detail

namespace detail {
// The checks live in their own type so that a failure leaves rule_set usable: one error.
template <class... Rules>
struct rule_set_check {
  static_assert((Rule<Rules> && ...),
                "retarget: a rule_set holds rules (types derived from retarget::convert::rule "
                "with a `pattern` made by rc::op)");
  static_assert(names_unique<Rules...>(), "retarget: two rules of a rule_set share a name");
  // Whether the rules can be read as rules: with a non-rule, nothing reads them further.
  static constexpr bool value = (Rule<Rules> && ...);
};
}  // namespace detail

namespace detail {
// A rule_set's entries as rules: a rule is itself, a rule set (or a rules_for) its rules.
template <class T>
struct rules_in {
  using type = boost::mp11::mp_list<T>;
};
template <class T>
requires requires { typename T::rule_list; }
struct rules_in<T> {
  using type = typename T::rule_list;
};
template <class... R>
constexpr auto hana_types(boost::mp11::mp_list<R...>) {
  return hana::tuple_t<R...>;
}
}  // namespace detail

// The rules a backend applies, tried in this order at every node. An entry may be a rule set
// of its own, a fallback's rules_for<B> for one, whose rules take its place in the order:
//   template <> struct rules_for<my_opencv> : rule_set<my_rule, rules_for<opencv_dnn>> {};
template <class... Entries>
struct rule_set {
  using rule_list = boost::mp11::mp_append<typename detail::rules_in<Entries>::type...>;
  static constexpr bool checked = boost::mp11::mp_apply<detail::rule_set_check, rule_list>::value;
  // Both read `checked`, so naming either runs the checks.
  static constexpr auto rules = (void(checked), detail::hana_types(rule_list{}));
  static constexpr std::size_t size = checked ? boost::mp11::mp_size<rule_list>::value : 0;
  // The rules, once checked; none when an entry is not a rule.
  using checked_list = std::conditional_t<checked, rule_list, boost::mp11::mp_list<>>;
};

// Specialize for a backend: template <> struct rules_for<my_engine> : rule_set<...> {};
// A second specialization for the same backend is a redefinition and does not compile.
template <class B>
struct rules_for {
  using retarget_undeclared = void;
};

namespace detail {
template <class B>
using has_rules = std::bool_constant < !requires {
  typename rules_for<B>::retarget_undeclared;
}
> ;
template <class Chain, bool Any = boost::mp11::mp_any_of<Chain, has_rules>::value>
struct first_rules {
  using type = rule_set<>;
};
template <class Chain>
struct first_rules<Chain, true> {
  using type = rules_for<boost::mp11::mp_at<Chain, boost::mp11::mp_find_if<Chain, has_rules>>>;
};
}  // namespace detail

// The rules of the first backend of B's fallback chain that declares some; none otherwise.
template <Backend B>
using rules_of_t = typename detail::first_rules<fallback_chain_t<B>>::type;

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_RULE_HPP
