// Node rewrites: how a node of an existing model is rebuilt for a backend, keyed by its op
// type. Every node goes through the rewritable of its op, selected as function rewrites are
// (the backend, its fallback chain, the default rewrite) and ending at the origin, which
// emits the node unchanged.
//
//   template <>
//   struct retarget::convert::node_rewrite<"LayerNormalization", my_engine> {
//     static ir::value call(const auto& ctx, ir::graph& g, const node_of<"LayerNormalization">& n);
//   };
//
// An op type unknown to the ONNX schemas does not compile; so does reading an attribute the
// op's schema lacks (n["epsilom"_f]).
#ifndef RETARGET_CONVERT_NODE_REWRITE_HPP
#define RETARGET_CONVERT_NODE_REWRITE_HPP

#include <algorithm>
#include <array>
#include <boost/mp11/algorithm.hpp>
#include <cstddef>
#include <retarget/convert/fwd.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/core/backend.hpp>
#include <retarget/core/call.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/core/rewrite_context.hpp>
#include <retarget/core/rewrite_log.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/schema.hpp>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::convert {

namespace detail {
// Whether a node rewrite of op may be declared for B: any, unless B's package is compiled into
// the library, whose conversion runs the package's own only.
template <class B>
constexpr bool package_may_define(std::string_view op) {
  if constexpr (has_compiled_package<B>)
    return std::ranges::find(compiled_package<B>::node_rewrite_ops, op) !=
           std::ranges::end(compiled_package<B>::node_rewrite_ops);
  else
    return true;
}

// Checked where a node_rewrite is named, so a misspelt op is one readable error.
template <fixed_string Op, class B>
struct node_rewrite_target {
  static_assert(ir::is_onnx_op(Op) && ir::split_op_name(Op).first.empty(),
                "retarget: node_rewrite declared for an op type unknown to the ONNX schemas (of "
                "the default domain: other domains' nodes are emitted unchanged)");
  static_assert(Backend<B>,
                "retarget: node_rewrite declared for a backend tag that is not a Backend");
  static_assert(
      package_may_define<B>(Op),
      "retarget: node_rewrite declared for a backend whose conversion package is compiled "
      "into retarget::compiled, which would never run it: declare it for a tag of your "
      "own that falls back to that backend");
  using type = void;
};
}  // namespace detail

// Specialize for (Op, B), or (Op) alone for every backend:
//   static auto call(const auto& ctx, ir::graph& g, const node_of<Op>& n);
// returning the node's outputs: a value, a std::array or std::vector of values.
template <fixed_string Op, class B = default_backend,
          class = typename detail::node_rewrite_target<Op, B>::type>
struct node_rewrite {
  using retarget_undeclared = void;
};

namespace detail {

struct node_kind {
  static constexpr rewrite_kind kind = rewrite_kind::node;

  template <class F, class B>
  using rewrite = node_rewrite<F::op, B>;

  template <class F, class Ctx>
  static std::vector<ir::value> call_origin(const F&, const Ctx&, ir::graph_base& g,
                                            const node& n) {
    return n.emit_unchanged(g);
  }
};

}  // namespace detail

// The rewritable of one op type: what retarget::call selects a node_rewrite for.
template <fixed_string Op>
struct node_op : rewritable_of_kind<node_op<Op>, Op, detail::node_kind> {
  static constexpr fixed_string op = Op;
};

namespace detail {

// A rewrite's result as the node's outputs. Out of line: every rule and rewrite calls them.
inline std::vector<ir::value> as_outputs(std::vector<ir::value> v) { return v; }
[[gnu::noinline]] inline std::vector<ir::value> as_outputs(const ir::value& v) { return {v}; }
template <std::size_t N>
std::vector<ir::value> as_outputs(const std::array<ir::value, N>& a) {
  return {a.begin(), a.end()};
}

// The ops of the default domain, sorted (the schema table is), as compile-time strings.
inline constexpr const auto& default_domain_ops = ir::onnx_op_names;

template <std::size_t I>
inline constexpr fixed_string<default_domain_ops[I].size() + 1> op_name_at{default_domain_ops[I]};

template <class B, class Env>
using node_handler = std::vector<ir::value> (*)(const Env&, ir::graph&, const node&);

template <class B, class Env, std::size_t I>
std::vector<ir::value> handle(const Env& env, ir::graph& g, const node& n) {
  constexpr auto& name = op_name_at<I>;
  return as_outputs(retarget::call<B>(env, node_op<name>{}, g, node_of<name>(n)));
}

// The handler of every op that no backend of the chain rewrites: one function for all of them,
// so a backend with a few rewrites instantiates the selection for those few only.
template <class Env>
std::vector<ir::value> unchanged(const Env&, ir::graph& g, const node& n) {
  return n.emit_unchanged(g);
}

// Whether a backend of the chain declares a rewrite of op I: one fold per op, not an mp11
// algorithm, since the table asks it of every op of the default domain. The last argument is
// given, so that the probe does not run node_rewrite_target's checks on every op (the chain's
// backends are checked, the op names are the schema table's own).
template <std::size_t I, class Chain>
inline constexpr bool rewritten_in = false;
template <std::size_t I, class... Bs>
inline constexpr bool rewritten_in<I, boost::mp11::mp_list<Bs...>> = (!requires {
  typename node_rewrite<op_name_at<I>, Bs, void>::retarget_undeclared;
} || ...);

template <class B, class Env, std::size_t I, bool = rewritten_in<I, fallback_chain_t<B>>>
inline constexpr node_handler<B, Env> handler_at = &unchanged<Env>;
template <class B, class Env, std::size_t I>
inline constexpr node_handler<B, Env> handler_at<B, Env, I, true> = &handle<B, Env, I>;

template <class B, class Env, std::size_t... I>
constexpr std::array<node_handler<B, Env>, sizeof...(I)> make_handlers(std::index_sequence<I...>) {
  return {handler_at<B, Env, I>...};
}

template <class B, class Env>
inline constexpr auto handlers =
    make_handlers<B, Env>(std::make_index_sequence<default_domain_ops.size()>{});

}  // namespace detail

// The ops of the default domain that B's chain rewrites with node rewrites, sorted, as this unit
// sees them: defined, or declared by a tag whose package is compiled (backends/NAME/backend.hpp).
template <Backend B>
std::vector<std::string_view> node_rewrite_ops() {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    std::vector<std::string_view> ops;
    ((detail::rewritten_in<I, fallback_chain_t<B>> ? ops.push_back(detail::default_domain_ops[I])
                                                   : void()),
     ...);
    return ops;
  }
  (std::make_index_sequence<detail::default_domain_ops.size()>{});
}

// Rebuilds n in g for backend B through its op's node rewrite, under env (its config and
// log). Nodes of other domains are emitted unchanged.
template <Backend B, class Env>
std::vector<ir::value> rewrite_node(const Env& env, ir::graph& g, const node& n) {
  if (ir::is_default_domain(n.domain())) {
    const auto& names = detail::default_domain_ops;
    const auto it = std::lower_bound(names.begin(), names.end(), std::string_view(n.op_type()));
    if (it != names.end() && *it == n.op_type())
      return detail::handlers<B, Env>[static_cast<std::size_t>(it - names.begin())](env, g, n);
  }
  return n.emit_unchanged(g);
}

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_NODE_REWRITE_HPP
