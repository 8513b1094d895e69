// The context every rewrite receives, and the selection it runs in: for a rewritable F
// called for backend B, the candidates are F's rewrites for B, for each backend of B's
// fallback chain, the default rewrite, then F's origin. The first declared one runs; its
// context reaches the others through next() and origin().
#ifndef RETARGET_CORE_REWRITE_CONTEXT_HPP
#define RETARGET_CORE_REWRITE_CONTEXT_HPP

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <new>
#include <retarget/core/backend.hpp>
#include <retarget/core/detail/type_name.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/core/rewrite_env.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace retarget {

// Anything with a kind (function or symbolic) that selects rewrites: made by deriving from
// retarget::rewritable or retarget::symbolic_op.
template <class F>
concept Rewritable = requires {
  typename F::retarget_kind;
  typename F::retarget_self;
}
&&std::is_same_v<typename F::retarget_self, F>;

// The selection's last candidate: the function's own behaviour.
template <class F>
struct origin_of {
  static constexpr std::string_view name = "origin";
};

namespace detail {

template <class...>
inline constexpr bool dependent_false = false;

// How a trailing braced list of integers is passed on (see rewrite_context::origin).
using list_arg = const std::initializer_list<std::int64_t>&;

// Returned after a failed static_assert so that the caller's use of the result adds no
// second error: it converts to anything and combines with anything.
struct poisoned {
  template <class T>
  operator T() const;
  template <class T>
  friend poisoned operator==(poisoned, const T&);
  template <class T>
  friend poisoned operator==(const T&, poisoned);
  template <class T>
  friend poisoned operator!=(poisoned, const T&);
  template <class T>
  friend poisoned operator!=(const T&, poisoned);
  template <class T>
  friend poisoned operator<(poisoned, const T&);
  template <class T>
  friend poisoned operator<(const T&, poisoned);
  template <class T>
  friend poisoned operator>(poisoned, const T&);
  template <class T>
  friend poisoned operator>(const T&, poisoned);
  template <class T>
  friend poisoned operator<=(poisoned, const T&);
  template <class T>
  friend poisoned operator<=(const T&, poisoned);
  template <class T>
  friend poisoned operator>=(poisoned, const T&);
  template <class T>
  friend poisoned operator>=(const T&, poisoned);
  template <class T>
  friend poisoned operator+(poisoned, const T&);
  template <class T>
  friend poisoned operator+(const T&, poisoned);
  template <class T>
  friend poisoned operator-(poisoned, const T&);
  template <class T>
  friend poisoned operator-(const T&, poisoned);
  template <class T>
  friend poisoned operator*(poisoned, const T&);
  template <class T>
  friend poisoned operator*(const T&, poisoned);
  template <class T>
  friend poisoned operator/(poisoned, const T&);
  template <class T>
  friend poisoned operator/(const T&, poisoned);
  template <class T>
  friend poisoned operator%(poisoned, const T&);
  template <class T>
  friend poisoned operator%(const T&, poisoned);
  template <class T>
  friend poisoned operator&&(poisoned, const T&);
  template <class T>
  friend poisoned operator&&(const T&, poisoned);
  template <class T>
  friend poisoned operator||(poisoned, const T&);
  template <class T>
  friend poisoned operator||(const T&, poisoned);
  template <class T>
  friend poisoned operator<<(poisoned, const T&);
  template <class T>
  friend poisoned operator<<(const T&, poisoned);
  template <class T>
  friend poisoned operator>>(poisoned, const T&);
  template <class T>
  friend poisoned operator>>(const T&, poisoned);
};

// A rewrite is declared when its registry template has been specialized for it: the
// primary templates carry this marker and specializations do not.
template <class R>
inline constexpr bool is_declared = !requires {
  typename R::retarget_undeclared;
};

template <class Rewrite, class At>
struct rewrite_slot {
  using type = Rewrite;
  static constexpr std::string_view name = At::name;
};
template <class F>
struct rewrite_slot<origin_of<F>, void> {
  using type = origin_of<F>;
  static constexpr std::string_view name = "origin";
};

template <class Slot>
using slot_is_declared = std::bool_constant<is_declared<typename Slot::type>>;

template <class F>
struct slot_for {
  template <class B>
  using fn = rewrite_slot<typename F::retarget_kind::template rewrite<F, B>, B>;
};

template <class F, class B>
using candidates_t = boost::mp11::mp_push_back<
    boost::mp11::mp_copy_if<boost::mp11::mp_transform_q<slot_for<F>, fallback_chain_t<B>>,
                            slot_is_declared>,
    rewrite_slot<origin_of<F>, void>>;

template <class F, class B, class Slots, class Env, class... A>
constexpr decltype(auto) run(const F& fn, const Env& env, A&&... args);

}  // namespace detail

template <class F, class B, class Slots, class Env>
class rewrite_context {
  using list_arg = detail::list_arg;
  using slot = boost::mp11::mp_front<Slots>;

 public:
  using function_type = F;
  using backend = B;
  using env_type = Env;

  constexpr rewrite_context(const F& fn, const Env& env) noexcept : fn_(&fn), env_(env) {}

  // The deploy config the caller supplied (retarget::no_config when none was).
  constexpr const auto& cfg() const noexcept { return env_.config(); }
  constexpr const Env& env() const noexcept { return env_; }
  constexpr const F& function() const noexcept { return *fn_; }

  static constexpr std::string_view backend_name() noexcept { return B::name; }
  static constexpr std::string_view function_name() noexcept { return F::name; }
  // Whose rewrite is running: a backend's name, "default", or "origin".
  static constexpr std::string_view rewrite_name() noexcept { return slot::name; }

  // The function as it would run with no rewrite at all.
  template <class... A>
  constexpr decltype(auto) origin(A&&... args) const {
    return detail::run<F, B, boost::mp11::mp_list<detail::rewrite_slot<origin_of<F>, void>>>(
        *fn_, env_, std::forward<A>(args)...);
  }

  // A braced list cannot be forwarded through a pack; these let `ctx.origin(x, {1, n})`
  // pass one as an std::initializer_list, which list-like parameters accept.
  template <class A0>
  constexpr decltype(auto) origin(A0&& a0, std::initializer_list<std::int64_t> list) const {
    return this->template origin<A0, list_arg>(std::forward<A0>(a0), list);
  }
  template <class A0, class A1>
  constexpr decltype(auto) origin(A0&& a0, A1&& a1,
                                  std::initializer_list<std::int64_t> list) const {
    return this->template origin<A0, A1, list_arg>(std::forward<A0>(a0), std::forward<A1>(a1),
                                                   list);
  }

  // The candidate one step down the chain: the fallback's rewrite, the default, or origin.
  template <class... A>
  constexpr decltype(auto) next(A&&... args) const {
    if constexpr (boost::mp11::mp_size<Slots>::value < 2) {
      static_assert(detail::dependent_false<A...>,
                    "retarget: ctx.next() called from the origin, which has nothing below it");
      return detail::poisoned{};
    } else {
      return detail::run<F, B, boost::mp11::mp_pop_front<Slots>>(*fn_, env_,
                                                                 std::forward<A>(args)...);
    }
  }
  template <class A0>
  constexpr decltype(auto) next(A0&& a0, std::initializer_list<std::int64_t> list) const {
    return this->template next<A0, list_arg>(std::forward<A0>(a0), list);
  }
  template <class A0, class A1>
  constexpr decltype(auto) next(A0&& a0, A1&& a1, std::initializer_list<std::int64_t> list) const {
    return this->template next<A0, A1, list_arg>(std::forward<A0>(a0), std::forward<A1>(a1), list);
  }

 private:
  const F* fn_;
  Env env_;
};

// Whether T is the context a rewrite receives: lets generic origins tell it from arguments.
template <class T>
inline constexpr bool is_rewrite_context_v = false;
template <class F, class B, class Slots, class Env>
inline constexpr bool is_rewrite_context_v<rewrite_context<F, B, Slots, Env>> = true;

namespace detail {

// Called from a catch block: an exception leaving a rewrite becomes a retarget::error that names
// the rewrite, what it rewrites and the backend, e.g. "retarget: function 'repeat', my_engine
// rewrite (backend my_engine2): ...". The original stays reachable with std::rethrow_if_nested;
// std::bad_alloc and exceptions not derived from std::exception pass through unchanged.
[[noreturn]] inline void rethrow_from_rewrite(rewrite_kind kind, std::string_view target,
                                              std::string_view backend, std::string_view rewrite) {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    std::string_view inner = e.what();
    if (inner.starts_with("retarget: ")) inner.remove_prefix(10);
    std::throw_with_nested(error("retarget: " + std::string(to_string(kind)) + " '" +
                                 std::string(target) + "', " + std::string(rewrite) +
                                 " rewrite (backend " + std::string(backend) +
                                 "): " + std::string(inner)));
  }
}

template <class F, class B, class Slots, class Env, class... A>
RETARGET_ALWAYS_INLINE constexpr decltype(auto) run(const F& fn, const Env& env, A&&... args) {
  using slot = boost::mp11::mp_front<Slots>;
  using kind = typename F::retarget_kind;
  const rewrite_context<F, B, Slots, Env> ctx{fn, env};
  if constexpr (std::is_same_v<typename slot::type, origin_of<F>>) {
    if constexpr (requires { kind::call_origin(fn, ctx, std::forward<A>(args)...); }) {
      return kind::call_origin(fn, ctx, std::forward<A>(args)...);
    } else {
      static_assert(dependent_false<A...>,
                    "retarget: the origin of this rewritable cannot take these arguments");
      return poisoned{};
    }
  } else {
    using rewrite = typename slot::type;
    if constexpr (requires { rewrite::call(ctx, std::forward<A>(args)...); }) {
      env.record(kind::kind, F::name, B::name, slot::name);
      try {
        return rewrite::call(ctx, std::forward<A>(args)...);
      } catch (...) {
        rethrow_from_rewrite(kind::kind, F::name, B::name, slot::name);
      }
    } else {
      static_assert(dependent_false<A...>,
                    "retarget: the selected rewrite's call(ctx, ...) cannot take the arguments "
                    "the rewritable was called with");
      return poisoned{};
    }
  }
}

template <class B, class F, class Env, class... A>
RETARGET_ALWAYS_INLINE constexpr decltype(auto) dispatch(const F& fn, const Env& env, A&&... args) {
  return run<F, B, candidates_t<F, B>>(fn, env, std::forward<A>(args)...);
}

// The base of rewritable functions and symbolic ops: a name, a kind, and a call operator
// that takes the backend and the environment from its arguments.
template <class Derived, fixed_string Name, class Kind>
struct rewritable_base {
  using retarget_kind = Kind;
  using retarget_self = Derived;
  static constexpr std::string_view name =
      Name.size() != 0 ? Name.view() : detail::unqualified_type_name<Derived>();

  template <class... A>
  RETARGET_ALWAYS_INLINE constexpr decltype(auto) operator()(A&&... args) const {
    return dispatch<backend_of_t<A...>>(static_cast<const Derived&>(*this), env_of(args...),
                                        std::forward<A>(args)...);
  }
  // A trailing braced list of integers, as in `repeat(x, {1, 4})` (see rewrite_context).
  template <class A0>
  RETARGET_ALWAYS_INLINE constexpr decltype(auto) operator()(
      A0&& a0, std::initializer_list<std::int64_t> list) const {
    return this->template operator()<A0, list_arg>(std::forward<A0>(a0), list);
  }
  template <class A0, class A1>
  RETARGET_ALWAYS_INLINE constexpr decltype(auto) operator()(
      A0&& a0, A1&& a1, std::initializer_list<std::int64_t> list) const {
    return this->template operator()<A0, A1, list_arg>(std::forward<A0>(a0), std::forward<A1>(a1),
                                                       list);
  }
};

}  // namespace detail

// The base of a rewritable of a kind that another layer defines (as rewritable and symbolic_op
// are core's). Kind gives `static constexpr rewrite_kind kind`, `template <class F, class B>
// using rewrite` (the registry a rewrite specializes) and `call_origin(fn, ctx, args...)`.
template <class Derived, fixed_string Name, class Kind>
struct rewritable_of_kind : detail::rewritable_base<Derived, Name, Kind> {};

}  // namespace retarget

#endif  // RETARGET_CORE_REWRITE_CONTEXT_HPP
