// Rewritable functions and their rewrites. A rewritable function is a function object with
// an origin; a rewrite is a specialization of function_rewrite for it and a backend (or for
// the default), and the compiler picks which runs.
//
//   inline constexpr struct scale_fn : retarget::rewritable<scale_fn, "scale"> {
//     double origin(double x, double k) const { return x * k; }
//   } scale;
//
//   template <> struct retarget::function_rewrite<scale_fn, my_engine> {
//     static double call(const auto& ctx, double x, double k) { return ctx.origin(x, 2 * k); }
//   };
#ifndef RETARGET_CORE_REWRITABLE_HPP
#define RETARGET_CORE_REWRITABLE_HPP

#include <retarget/core/rewrite_context.hpp>
#include <type_traits>
#include <utility>

namespace retarget {

namespace detail {
struct function_kind;
}

template <class F>
concept RewritableFunction =
    Rewritable<F> && std::is_same_v<typename F::retarget_kind, detail::function_kind>;

// Specialize for (F, B) to rewrite F for backend B, or for (F) alone for the default rewrite:
//   static auto call(const auto& ctx, Args... args);
// A second specialization for the same pair is a redefinition, so it cannot compile.
namespace detail {
// Checked where a function_rewrite is named, so a declaration for the wrong kind of thing is one
// readable error rather than a constraint failure and its aftermath. Instantiated by the
// checks' outcome, not by the pair: every well-formed declaration shares one instantiation.
template <bool IsFunction, bool IsBackend>
struct function_rewrite_target {
  static_assert(IsFunction,
                "retarget: function_rewrite declared for a type that is not a rewritable function "
                "(derive it from retarget::rewritable; ops take symbolic_rewrite)");
  static_assert(IsBackend,
                "retarget: function_rewrite declared for a backend tag that is not a Backend");
  using type = void;
};
}  // namespace detail

template <class F, class B = default_backend,
          class = typename detail::function_rewrite_target<RewritableFunction<F>, Backend<B>>::type>
struct function_rewrite {
  using retarget_undeclared = void;
};

namespace detail {
struct function_kind {
  static constexpr rewrite_kind kind = rewrite_kind::function;

  // With its last argument given, so that a lookup does not check the pair again: the chain's
  // backends are checked, and a declaration was checked where it was written.
  template <class F, class B>
  using rewrite = function_rewrite<F, B, void>;

  // The origin may take the context first, or only the arguments. One template, not an
  // overload pair, so that each call compiles one candidate.
  template <class F, class Ctx, class... A>
  requires(
      requires(const F& fn, const Ctx& ctx, A&&... args) {
        fn.origin(ctx, std::forward<A>(args)...);
      } ||
      requires(const F& fn, A&&... args) {
        fn.origin(std::forward<A>(args)...);
      }) static constexpr decltype(auto) call_origin(const F& fn, const Ctx& ctx, A&&... args) {
    if constexpr (requires { fn.origin(ctx, std::forward<A>(args)...); })
      return fn.origin(ctx, std::forward<A>(args)...);
    else
      return fn.origin(std::forward<A>(args)...);
  }
};
}  // namespace detail

// Derive a function object from rewritable<Self, "name"> and give it an origin(...) member.
// An alias, not a class of its own: each class a rewritable instantiates costs every unit that
// declares it compile time, and one with a string argument costs most.
template <class Derived, fixed_string Name = "">
using rewritable = detail::rewritable_base<Derived, Name, detail::function_kind>;

}  // namespace retarget

#endif  // RETARGET_CORE_REWRITABLE_HPP
