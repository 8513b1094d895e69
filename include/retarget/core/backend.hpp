// Backend tags: an inference engine named at compile time, with the backends it falls back
// to when it has no rewrite of its own (a versioned my_engine2 falls back to my_engine).
#ifndef RETARGET_CORE_BACKEND_HPP
#define RETARGET_CORE_BACKEND_HPP

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <concepts>
#include <retarget/core/fixed_string.hpp>
#include <string_view>
#include <type_traits>

namespace retarget {

namespace detail {
template <class T>
inline constexpr bool is_type_list = false;
template <class... T>
inline constexpr bool is_type_list<boost::mp11::mp_list<T...>> = true;
}  // namespace detail

// A backend tag names itself at compile time and lists its fallbacks as an mp_list.
template <class B>
concept Backend = requires {
  { B::name } -> std::convertible_to<std::string_view>;
  typename B::fallbacks;
}
&&detail::is_type_list<typename B::fallbacks>;

// The usual way to declare one: struct my_engine2 : backend_tag<"my_engine2", my_engine> {};
template <fixed_string Name, class... Fallbacks>
struct backend_tag {
  static constexpr std::string_view name = Name;
  using fallbacks = boost::mp11::mp_list<Fallbacks...>;
};

namespace backends {
// The default backend: the one a call resolves to when no argument carries a backend, and
// the slot of default rewrites, which every backend reaches at the end of its chain. The
// engines retarget ships are declared in their packages (retarget/backends/NAME.hpp).
struct default_ : backend_tag<"default"> {};
}  // namespace backends

using default_backend = backends::default_;

namespace detail {

template <bool Cycle, bool IsBackend>
struct backend_chain_check : std::true_type {
  static_assert(!Cycle,
                "retarget: backend fallback chain has a cycle (a backend falls back, "
                "directly or through others, to itself)");
  static_assert(IsBackend,
                "retarget: backend fallback is not a Backend (it needs a static "
                "`name` and an mp_list `fallbacks`)");
};

template <class B, class Visited>
struct chain_of;

// Depth first: B, then each fallback's own chain in declaration order. A revisit is a cycle;
// the recursion stops there so the static_assert is the only error.
template <class B, class... Seen>
struct chain_of<B, boost::mp11::mp_list<Seen...>> {
  static constexpr bool cycle = (std::is_same_v<B, Seen> || ...);
  // The checks live in their own types so that a failure leaves this one usable.
  static constexpr bool checked = backend_chain_check<cycle, Backend<B>>::value;

  template <class... F>
  static auto expand(boost::mp11::mp_list<F...>)
      -> boost::mp11::mp_append<boost::mp11::mp_list<B>,
                                typename chain_of<F, boost::mp11::mp_list<Seen..., B>>::type...>;

  template <bool Stop, class = void>
  struct pick {
    using type = boost::mp11::mp_list<>;
  };
  template <class Void>
  struct pick<false, Void> {
    using type = decltype(expand(typename B::fallbacks{}));
  };

  using type = typename pick<(!checked || cycle || !Backend<B>)>::type;
};

template <class B>
struct fallback_chain {
  static_assert(Backend<B>,
                "retarget: backend tag is not a Backend (it needs a static `name` "
                "and an mp_list `fallbacks`)");
  using type = boost::mp11::mp_list<default_backend>;
};
template <Backend B>
struct fallback_chain<B> {
  using type = boost::mp11::mp_push_back<
      boost::mp11::mp_remove<
          boost::mp11::mp_unique<typename chain_of<B, boost::mp11::mp_list<>>::type>,
          default_backend>,
      default_backend>;
};

}  // namespace detail

// B, then its fallbacks depth first without repeats, and the default backend last.
template <class B>
using fallback_chain_t = typename detail::fallback_chain<B>::type;

}  // namespace retarget

#endif  // RETARGET_CORE_BACKEND_HPP
