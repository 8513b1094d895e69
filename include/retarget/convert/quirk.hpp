// An engine's quirks, each declared once: its name, how it is found on a model, why the engine
// fails there, and what retarget does about it. A backend lists them once, and its rule set,
// what `retarget check --backend` prints, the approximations it offers and the docs' table all
// come from that list, so a rule and the refusal it answers cannot disagree.
//
//   struct expand_to_lower_rank : quirk<"expand_to_lower_rank", by_rule<expand_to_own_shape>> {
//     static constexpr std::string_view summary = "...";   // for the docs' table
//     static constexpr std::string_view reason = "...";    // or reason(const quirk_site&)
//     static constexpr std::string_view remedy = "...";    // said after the reason, if any
//     static bool found(const quirk_site& s);              // none: the engine fails silently
//   };
//   template <> struct quirks_for<my_engine> : quirk_list<expand_to_lower_rank, ...> {};
//   template <> struct rules_for<my_engine> : rules_from_quirks<my_engine> {};
#ifndef RETARGET_CONVERT_QUIRK_HPP
#define RETARGET_CONVERT_QUIRK_HPP

#include <algorithm>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <cstddef>
#include <optional>
#include <retarget/convert/node_rewrite.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/convert/rule.hpp>
#include <retarget/core/backend.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/model.hpp>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::convert {

// ---- What retarget does about a quirk ----

// Exact, by rules of the package's rule set: one, or one per form the quirk takes (an op each).
template <class Rule, class... More>
struct by_rule {
  using rules = boost::mp11::mp_list<Rule, More...>;
};
// Exact, by the package's node rewrite of Op.
template <fixed_string Op>
struct by_node_rewrite {
  static constexpr std::string_view op = Op.view();
};
// Exact, by convert's own passes (folding constants, reading Identity of a constant through).
struct by_folding {};
// Exact, by the shapes convert's inference finds, which its result declares.
struct by_shape_inference {};
// Nothing: the node is refused, and listed.
struct refused {};

// What begins the doc string of a node an approximation made.
inline constexpr std::string_view approximation_marker = "retarget: approximation ";

// Inexact, run only when named in options::approximations:
//   struct cubic_resize_as_linear : approximation<"cubic_resize_as_linear"> {};
// The nodes it makes carry mark(...) in their doc string; the report counts them by name.
template <fixed_string Name>
struct approximation {
  static constexpr std::string_view name = Name.view();
  static std::string mark(std::string_view detail) {
    return std::string(approximation_marker) + std::string(name) + " (" + std::string(detail) + ")";
  }
};

// The name of the approximation that made a node, read from its doc string.
inline std::optional<std::string_view> approximation_of_node(std::string_view doc) {
  if (!doc.starts_with(approximation_marker)) return std::nullopt;
  doc.remove_prefix(approximation_marker.size());
  return doc.substr(0, doc.find(' '));
}

// ---- A quirk ----

template <fixed_string Name, class Fix = refused>
struct quirk {
  static constexpr std::string_view name = Name.view();
  using fix = Fix;
};

// A node of the model, as a quirk's `found` sees it.
struct quirk_site {
  const refusal_context& model;
  ir::node_view node;
  int index;
  const std::string& op() const { return node.op_type(); }
  // Input k's name, "" when the node has fewer inputs.
  std::string input(std::size_t k) const { return k < node.input_count() ? node.input(k) : ""; }
};

namespace detail {
template <class Q>
concept found_on_nodes = requires(const quirk_site& s) {
  { Q::found(s) } -> std::convertible_to<bool>;
};
// A quirk may read the model once first: `static Facts prepare(const refusal_context&)`, and
// `found(site, facts)`, `reason(site, facts)`.
template <class Q>
concept prepared = requires(const refusal_context& m) {
  Q::prepare(m);
};
template <class Q>
struct facts_of {
  using type = std::nullptr_t;
};
template <prepared Q>
struct facts_of<Q> {
  using type = decltype(Q::prepare(std::declval<const refusal_context&>()));
};

template <class Q>
typename facts_of<Q>::type prepare_facts(const refusal_context& m) {
  if constexpr (prepared<Q>)
    return Q::prepare(m);
  else
    return nullptr;
}

}  // namespace detail

// Whether Q is found on nodes, and listed by `check --backend`; a quirk without `found` is one
// the engine does not report (it computes something else), found by its rule's condition.
template <class Q>
inline constexpr bool listed_by_check = detail::prepared<Q> || detail::found_on_nodes<Q>;
// A quirk may also find what no node holds: `static std::vector<std::pair<std::string,
// std::string>> found_outside_nodes(const refusal_context&)`, each {where, why}.

namespace detail {
template <class Q, class F>
bool quirk_found(const quirk_site& s, const F& facts) {
  if constexpr (prepared<Q>)
    return Q::found(s, facts);
  else if constexpr (found_on_nodes<Q>)
    return Q::found(s);
  else
    return false;  // found by its rule's own condition: the engine runs it and is wrong
}
template <class Q, class F>
std::string quirk_reason(const quirk_site& s, const F& facts) {
  if constexpr (requires { Q::reason(s, facts); })
    return Q::reason(s, facts);
  else if constexpr (requires { Q::reason(s); })
    return Q::reason(s);
  else
    return std::string(Q::reason);
}
// What convert does about it, when its fix applies at this node.
template <class Q>
std::string quirk_remedy(const quirk_site& s) {
  if constexpr (requires { Q::remedy; }) {
    if constexpr (requires { Q::fixable(s); })
      if (!Q::fixable(s)) return {};
    return Q::remedy.empty() ? std::string() : " (" + std::string(Q::remedy) + ")";
  } else {
    return {};
  }
}

template <class... Q>
constexpr bool quirk_names_unique() {
  constexpr std::string_view names[] = {Q::name..., {}};
  for (std::size_t i = 0; i < sizeof...(Q); ++i)
    for (std::size_t j = i + 1; j < sizeof...(Q); ++j)
      if (names[i] == names[j]) return false;
  return true;
}

template <class Q>
using fix_of = typename Q::fix;
template <class F>
struct is_rule_fix : std::false_type {};
template <class... R>
struct is_rule_fix<by_rule<R...>> : std::true_type {};
template <class Q>
using has_rule_fix = is_rule_fix<fix_of<Q>>;
template <class Q>
using rules_of_fix = typename fix_of<Q>::rules;
template <class F>
    struct is_approximation : std::bool_constant < requires {
  F::name;
} > {};
template <class Q>
using has_approximation = is_approximation<fix_of<Q>>;
template <class... Q>
struct approximation_names {
  // The bound written out: clang cannot index an array of deduced bound in a constant
  // expression while its class template is being instantiated.
  static constexpr std::string_view names[sizeof...(Q) + 1] = {std::string_view(),
                                                               fix_of<Q>::name...};
  static constexpr std::span<const std::string_view> value{names + 1, sizeof...(Q)};
};
template <class F>
struct is_node_rewrite_fix : std::false_type {};
template <fixed_string Op>
struct is_node_rewrite_fix<by_node_rewrite<Op>> : std::true_type {};
template <class B, class F>
struct node_rewrite_declared : std::true_type {};
template <class B, fixed_string Op>
    struct node_rewrite_declared<B, by_node_rewrite<Op>> : std::bool_constant < !requires {
  typename node_rewrite<Op, B>::retarget_undeclared;
} > {};
}  // namespace detail

// A backend's quirks, in the order their refusals are listed for a node. Two quirks with one
// name do not compile.
template <class... Q>
struct quirk_list {
  static_assert(detail::quirk_names_unique<Q...>(),
                "retarget: two quirks of a quirk_list share a name");
  using list = boost::mp11::mp_list<Q...>;

  // The approximations offered, by their tags' names.
  static constexpr std::span<const std::string_view> approximation_names =
      boost::mp11::mp_apply<detail::approximation_names,
                            boost::mp11::mp_copy_if<list, detail::has_approximation>>::value;

  // Each node where a quirk is found, with its reason: node by node, quirk by quirk.
  static void check(const refusal_context& m, std::vector<refusal>& out) {
    const std::tuple<typename detail::facts_of<Q>::type...> facts{detail::prepare_facts<Q>(m)...};
    for (int i = 0; i < m.node_count(); ++i) {
      const ir::node_view n = m.at(i);
      const quirk_site site{m, n, i};
      note_all(site, facts, out, std::index_sequence_for<Q...>());
    }
    // What no node holds (a graph output that is a stored constant): index -1.
    (
        [&] {
          if constexpr (requires { Q::found_outside_nodes(m); })
            for (auto& [where, why] : Q::found_outside_nodes(m))
              out.push_back({-1, std::move(where), std::move(why)});
        }(),
        ...);
  }

 private:
  template <class Facts, std::size_t... I>
  static void note_all(const quirk_site& s, const Facts& facts, std::vector<refusal>& out,
                       std::index_sequence<I...>) {
    (note<Q>(s, std::get<I>(facts), out), ...);
  }
  template <class X, class F>
  static void note(const quirk_site& s, const F& facts, std::vector<refusal>& out) {
    if constexpr (listed_by_check<X>) {
      // A quirk looks at the default domain's ops, unless it says otherwise (any_domain).
      if (!s.node.in_default_domain() && !requires { X::any_domain; }) return;
      if (!detail::quirk_found<X>(s, facts)) return;
      out.push_back({s.index, s.node.describe(),
                     detail::quirk_reason<X>(s, facts) + detail::quirk_remedy<X>(s)});
    }
  }
};

// The nodes of m where quirk Q is found.
template <class Q>
std::vector<int> quirk_sites(const ir::model& model) {
  std::vector<int> out;
  // Open dims (a dynamic batch) are met at sizes, as refused_nodes meets them.
  as_the_engine_meets_it(model, [&out](const ir::model& at) {
    const refusal_context m(at);
    const auto facts = detail::prepare_facts<Q>(m);
    for (int i = 0; i < m.node_count(); ++i)
      if ((m.at(i).in_default_domain() || requires { Q::any_domain; }) &&
          detail::quirk_found<Q>(quirk_site{m, m.at(i), i}, facts))
        out.push_back(i);
  });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The rule set of B's quirks: the rules their fixes name, in the list's order. Every node
// rewrite a quirk names must be declared for B.
template <class B>
struct rules_from_quirks
    : boost::mp11::mp_apply<
          rule_set,
          boost::mp11::mp_unique<boost::mp11::mp_apply<
              boost::mp11::mp_append,
              boost::mp11::mp_transform<
                  detail::rules_of_fix,
                  boost::mp11::mp_copy_if<typename quirks_for<B>::list, detail::has_rule_fix>>>>> {
  template <class Q>
  using declared = detail::node_rewrite_declared<B, detail::fix_of<Q>>;
  static_assert(boost::mp11::mp_all_of<typename quirks_for<B>::list, declared>::value,
                "retarget: a quirk's fix names a node rewrite the backend does not declare");
};

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_QUIRK_HPP
