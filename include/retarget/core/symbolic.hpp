// Symbolics: how an op becomes nodes of a graph. An op declares its default symbolic; a
// symbolic_rewrite replaces it for a backend, or for every backend (the default), with the
// same selection as function rewrites. The graph is the first argument after the context.
//
//   struct squeeze_op : retarget::symbolic_op<squeeze_op, "squeeze"> {
//     static auto symbolic(auto& g, auto x) { return g.op("Squeeze", x); }
//   };
//   template <> struct retarget::symbolic_rewrite<squeeze_op> {
//     static auto call(const auto& ctx, auto& g, auto x) { ... }
//   };
#ifndef RETARGET_CORE_SYMBOLIC_HPP
#define RETARGET_CORE_SYMBOLIC_HPP

#include <retarget/core/rewrite_context.hpp>
#include <type_traits>
#include <utility>

namespace retarget {

namespace detail {
struct symbolic_kind;
}

template <class Op>
concept SymbolicOp =
    Rewritable<Op> && std::is_same_v<typename Op::retarget_kind, detail::symbolic_kind>;

// Specialize for (Op, B), or (Op) for the default: static auto call(const auto& ctx, auto& g, ...).
namespace detail {
// Checked where a symbolic_rewrite is named, so a declaration for the wrong kind of thing is one
// readable error rather than a constraint failure and its aftermath. Instantiated by the
// checks' outcome, not by the pair: every well-formed declaration shares one instantiation.
template <bool IsSymbolic, bool IsBackend>
struct symbolic_rewrite_target {
  static_assert(IsSymbolic,
                "retarget: symbolic_rewrite declared for a type that is not a symbolic op (derive "
                "it from retarget::symbolic_op; functions take function_rewrite)");
  static_assert(IsBackend,
                "retarget: symbolic_rewrite declared for a backend tag that is not a Backend");
  using type = void;
};
}  // namespace detail

template <class Op, class B = default_backend,
          class = typename detail::symbolic_rewrite_target<SymbolicOp<Op>, Backend<B>>::type>
struct symbolic_rewrite {
  using retarget_undeclared = void;
};

namespace detail {
struct symbolic_kind {
  static constexpr rewrite_kind kind = rewrite_kind::symbolic;

  template <class Op, class B>
  using rewrite = symbolic_rewrite<Op, B>;

  // The op's own symbolic, with or without the context in front.
  template <class Op, class Ctx, class... A>
  static constexpr decltype(auto) call_origin(const Op& op, const Ctx& ctx,
                                              A&&... args) requires requires {
    op.symbolic(ctx, std::forward<A>(args)...);
  }
  { return op.symbolic(ctx, std::forward<A>(args)...); }
  template <class Op, class Ctx, class... A>
  static constexpr decltype(auto) call_origin(const Op& op, const Ctx&, A&&... args) requires(
      !requires { op.symbolic(std::declval<const Ctx&>(), std::forward<A>(args)...); } &&
      requires { op.symbolic(std::forward<A>(args)...); }) {
    return op.symbolic(std::forward<A>(args)...);
  }
};
}  // namespace detail

// Derive an op from symbolic_op<Self, "name"> and give it a symbolic(g, ...) member.
// (An alias, as rewritable is.)
template <class Derived, fixed_string Name = "">
using symbolic_op = detail::rewritable_base<Derived, Name, detail::symbolic_kind>;

}  // namespace retarget

#endif  // RETARGET_CORE_SYMBOLIC_HPP
