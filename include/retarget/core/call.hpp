// retarget::call<B>(fn, args...): call a rewritable for a backend named explicitly, rather
// than the one its arguments carry; under the environment (config and log) given first, or
// else the one the arguments carry.
//
//   retarget::call<my_engine>(repeat, x, sizes);
//   retarget::call<my_engine>(retarget::rewrite_env{cfg, &log}, repeat, x,
//   sizes);
#ifndef RETARGET_CORE_CALL_HPP
#define RETARGET_CORE_CALL_HPP

#include <boost/mp11/algorithm.hpp>
#include <cstddef>
#include <retarget/core/rewrite_context.hpp>
#include <type_traits>
#include <utility>

namespace retarget {

namespace detail {
template <class B, class Env, class F, class... A>
constexpr decltype(auto) call_under(const Env& env, const F& fn, A&&... args) {
  if constexpr (!Rewritable<F>) {
    static_assert(dependent_false<F>,
                  "retarget: retarget::call needs a rewritable (a function object derived from "
                  "retarget::rewritable or retarget::symbolic_op)");
    return poisoned{};
  } else {
    return run<F, B, first_in<F, fallback_chain_t<B>>>(fn, env, std::forward<A>(args)...);
  }
}
}  // namespace detail

// The first argument is taken by const reference, not forwarded: a rewritable and an environment
// are both read only, and a call compiles no cv-ref removal for each function called.
template <class B, class First, class... Rest>
constexpr decltype(auto) call(const First& first, Rest&&... rest) {
  using F = First;
  if constexpr (!Backend<B>) {
    static_assert(detail::dependent_false<B>,
                  "retarget: backend tag is not a Backend (it needs a static `name` and an "
                  "mp_list `fallbacks`; derive it from retarget::backend_tag)");
    return detail::poisoned{};
  } else if constexpr (Rewritable<F>) {
    // The common call runs its first candidate here, as detail::run would: each function a
    // call compiles costs it more than the few lines repeated, and a call compiles one
    // function fewer this way.
    constexpr std::size_t index = detail::first_in<F, fallback_chain_t<B>>;
    if constexpr (index == detail::origin_position<B>) {
      return detail::run_origin<F, B>(first, env_of(rest...), std::forward<Rest>(rest)...);
    } else {
      using kind = typename F::retarget_kind;
      using at = boost::mp11::mp_at_c<fallback_chain_t<B>, index>;
      using rewrite = typename kind::template rewrite<F, at>;
      const auto env = env_of(rest...);
      using env_type = std::remove_const_t<decltype(env)>;
      const rewrite_context<F, B, index, env_type> ctx{{env}, &first};
      if constexpr (requires { rewrite::call(ctx, std::forward<Rest>(rest)...); }) {
        if constexpr (env_type::logs) env.record(kind::kind, F::name, B::name, at::name);
        try {
          return rewrite::call(ctx, std::forward<Rest>(rest)...);
        } catch (...) {
          detail::rethrow_from_rewrite(kind::kind, F::name, B::name, at::name);
        }
      } else {
        return detail::run<F, B, index>(first, env, std::forward<Rest>(rest)...);
      }
    }
  } else if constexpr (detail::is_rewrite_env<F>) {  // after the common case: one test less
    return detail::call_under<B>(first, std::forward<Rest>(rest)...);
  } else {
    return detail::call_under<B>(env_of(rest...), first, std::forward<Rest>(rest)...);
  }
}

}  // namespace retarget

#endif  // RETARGET_CORE_CALL_HPP
