// Questions about selection that the compiler answers, for tests and reports:
//   static_assert(retarget::selected_rewrite_name<repeat_fn, my_engine2> == "my_engine");
#ifndef RETARGET_CORE_INTROSPECTION_HPP
#define RETARGET_CORE_INTROSPECTION_HPP

#include <array>
#include <boost/mp11/algorithm.hpp>
#include <retarget/core/module.hpp>
#include <retarget/core/rewrite_context.hpp>
#include <string_view>
#include <type_traits>

namespace retarget {

// Every candidate that would run for (F, B), best first; origin_of<F> is always last.
template <Rewritable F, Backend B>
using rewrite_chain_t =
    boost::mp11::mp_transform<boost::mp11::mp_first, detail::candidates_t<F, B>>;

// What a call of F for B runs: a rewrite specialization, or origin_of<F>.
template <Rewritable F, Backend B>
using selected_rewrite_t = boost::mp11::mp_front<rewrite_chain_t<F, B>>;

// Whose rewrite that is: a backend's name, "default" or "origin".
template <Rewritable F, Backend B>
inline constexpr std::string_view selected_rewrite_name =
    boost::mp11::mp_front<detail::candidates_t<F, B>>::name;

template <Rewritable F, Backend B>
inline constexpr bool is_rewritten_v = !std::is_same_v<selected_rewrite_t<F, B>, origin_of<F>>;

template <Rewritable F, Backend B>
inline constexpr bool uses_default_rewrite_v =
    std::is_same_v<selected_rewrite_t<F, B>,
                   typename F::retarget_kind::template rewrite<F, default_backend>>;

// Whether a rewrite is declared for exactly B (not inherited through B's fallbacks).
template <Rewritable F, Backend B>
inline constexpr bool has_own_rewrite_v =
    detail::is_declared<typename F::retarget_kind::template rewrite<F, B>>;

namespace detail {
template <class B>
struct has_own_rewrite_q {
  template <class F>
  using fn = std::bool_constant<has_own_rewrite_v<F, B>>;
};
}  // namespace detail

// Of the rewritables in the list Fs, those that declare a rewrite of their own for B.
template <Backend B, class Fs>
using rewrites_declared_for_t = boost::mp11::mp_copy_if_q<Fs, detail::has_own_rewrite_q<B>>;

// The same, as names.
template <Backend B, class Fs>
inline constexpr auto rewrite_names_declared_for = []<class... F>(boost::mp11::mp_list<F...>) {
  return std::array<std::string_view, sizeof...(F)>{F::name...};
}(rewrites_declared_for_t<B, Fs>{});

namespace detail {
template <class M, class Candidates>
struct module_wrapper {
  using type = M;
};
template <class M, class First, class... Rest>
struct module_wrapper<M, boost::mp11::mp_list<First, Rest...>> {
  using type = typename First::type::wrapper;
};
}  // namespace detail

// The type that runs when module M is called under B: a wrapper, or M itself.
template <Module M, Backend B>
using module_wrapper_t =
    typename detail::module_wrapper<M, detail::module_candidates_t<M, B>>::type;

template <Module M, Backend B>
inline constexpr bool is_module_rewritten_v = !std::is_same_v<module_wrapper_t<M, B>, M>;

}  // namespace retarget

#endif  // RETARGET_CORE_INTROSPECTION_HPP
