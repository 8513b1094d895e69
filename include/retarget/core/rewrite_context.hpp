// The context every rewrite receives, and the selection it runs in: for a rewritable F
// called for backend B, the candidates are F's rewrites for B, for each backend of B's
// fallback chain, the default rewrite, then F's origin. The first declared one runs; its
// context reaches the others through next() and origin().
#ifndef RETARGET_CORE_REWRITE_CONTEXT_HPP
#define RETARGET_CORE_REWRITE_CONTEXT_HPP

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <cstddef>
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

struct function_kind;  // retarget/core/rewritable.hpp

template <class...>
inline constexpr bool dependent_false = false;

// How a trailing braced list of integers is passed on (see rewrite_context::origin).
using list_arg = const std::initializer_list<std::int64_t>&;

// Returned after a failed static_assert so that the caller's use of the result adds no
// second error: it converts to anything and combines with anything.
struct poisoned {
  template <class T>
  operator T() const;
  // A range of itself, for a caller that walks the result (an export's outputs).
  const poisoned* begin() const;
  const poisoned* end() const;
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

// F's candidates for B by position in B's fallback chain: position i is F's rewrite for the
// chain's i-th backend, the position after the last backend is the origin, always there. The
// table is one per pattern of declared positions, which rewritables share (most declare one
// backend, or none), so a call compiles one lookup per backend of the chain and no more.
template <bool... Declared>
inline constexpr bool declared_then_origin[] = {Declared..., true};

template <class F, class Chain>
inline constexpr const bool* declared_in = nullptr;
template <class F, class... Bs>
inline constexpr const bool* declared_in<F, boost::mp11::mp_list<Bs...>> =
    declared_then_origin<is_declared<typename F::retarget_kind::template rewrite<F, Bs>>...>;

// The first declared candidate at or after position `from`: one function for every selection.
constexpr std::size_t first_declared(const bool* declared, std::size_t from) noexcept {
  while (!declared[from]) ++from;
  return from;
}

// Where a call starts. first_true is computed once per pattern of declared positions; a
// rewritable adds only first_in, which names it.
template <bool... Declared>
inline constexpr std::size_t first_true = first_declared(declared_then_origin<Declared...>, 0);
template <class F, class Chain>
inline constexpr std::size_t first_in = 0;
template <class F, class... Bs>
inline constexpr std::size_t first_in<F, boost::mp11::mp_list<Bs...>> =
    first_true<is_declared<typename F::retarget_kind::template rewrite<F, Bs>>...>;

// The position of the origin in B's selection: one past the chain's last backend.
template <class B>
inline constexpr std::size_t origin_position = boost::mp11::mp_size<fallback_chain_t<B>>::value;

// The candidate at position I: its registry type and whose it is.
template <class F, class B, std::size_t I, bool = I == origin_position<B>>
struct slot_at : rewrite_slot<origin_of<F>, void> {};
template <class F, class B, std::size_t I>
struct slot_at<F, B, I, false> : rewrite_slot<typename F::retarget_kind::template rewrite<
                                                  F, boost::mp11::mp_at_c<fallback_chain_t<B>, I>>,
                                              boost::mp11::mp_at_c<fallback_chain_t<B>, I>> {};

// Every candidate that would run, best first, as a list of slots (for introspection).
template <class F, class B, class Positions>
struct candidates_at;
template <class F, class B, std::size_t... I>
struct candidates_at<F, B, std::index_sequence<I...>> {
  using type = boost::mp11::mp_append<
      std::conditional_t<
          declared_in<F, fallback_chain_t<B>>[I],
          boost::mp11::mp_list<rewrite_slot<typename slot_at<F, B, I>::type,
                                            boost::mp11::mp_at_c<fallback_chain_t<B>, I>>>,
          boost::mp11::mp_list<>>...,
      boost::mp11::mp_list<rewrite_slot<origin_of<F>, void>>>;
};
template <class F, class B>
using candidates_t = typename candidates_at<
    F, B, std::make_index_sequence<boost::mp11::mp_size<fallback_chain_t<B>>::value>>::type;

template <class F, class B, std::size_t I, class Env, class... A>
constexpr decltype(auto) run(const F& fn, const Env& env, A&&... args);
template <class F, class B, class Env, class... A>
constexpr decltype(auto) run_origin(const F& fn, const Env& env, A&&... args);

// What a rewrite's context knows apart from the function: the same for every rewritable's
// context at one position of one chain, so that each rewritable's own context compiles only
// what depends on it.
template <class B, std::size_t Index, class Env>
class context_base {
 public:
  using backend = B;
  using env_type = Env;

  // The deploy config the caller supplied (retarget::no_config when none was).
  constexpr const auto& cfg() const noexcept { return env_.config(); }
  constexpr const Env& env() const noexcept { return env_; }

  static constexpr std::string_view backend_name() noexcept { return B::name; }
  // Whose rewrite is running: a backend's name, "default", or "origin".
  static constexpr std::string_view rewrite_name() noexcept {
    if constexpr (Index == origin_position<B>)
      return origin_of<void>::name;
    else
      return boost::mp11::mp_at_c<fallback_chain_t<B>, Index>::name;
  }

  // Public for the aggregate's sake; rewrites read it through env().
  Env env_;
};

}  // namespace detail

template <class F, class B, std::size_t Index, class Env>
class rewrite_context : public detail::context_base<B, Index, Env> {
  using list_arg = detail::list_arg;

 public:
  using function_type = F;

  // No constructor: made as {{env}, &fn}, an aggregate, so a rewrite compiles one function less.

  constexpr const F& function() const noexcept { return *fn_; }
  static constexpr std::string_view function_name() noexcept { return F::name; }

  // The function as it would run with no rewrite at all. The origin is called here, not
  // through detail::run_origin, so that each rewrite that calls it compiles one function less.
  template <class... A>
  constexpr decltype(auto) origin(A&&... args) const {
    using kind = typename F::retarget_kind;
    using origin_context = rewrite_context<F, B, detail::origin_position<B>, Env>;
    if constexpr (
        std::is_same_v<kind, detail::function_kind> &&
        !requires(const origin_context& ctx) { fn_->origin(ctx, std::forward<A>(args)...); } &&
        requires { fn_->origin(std::forward<A>(args)...); }) {
      // A function's origin that takes no context, called as function_kind::call_origin would
      // call it: no origin context and no call_origin to compile for each rewrite that ends here.
      return fn_->origin(std::forward<A>(args)...);
    } else if constexpr (requires(const origin_context& ctx) {
                           kind::call_origin(*fn_, ctx, std::forward<A>(args)...);
                         }) {
      return kind::call_origin(*fn_, origin_context{{this->env_}, fn_}, std::forward<A>(args)...);
    } else {
      static_assert(detail::dependent_false<A...>,
                    "retarget: the origin of this rewritable cannot take these arguments");
      return detail::poisoned{};
    }
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
    if constexpr (Index == detail::origin_position<B>) {
      static_assert(detail::dependent_false<A...>,
                    "retarget: ctx.next() called from the origin, which has nothing below it");
      return detail::poisoned{};
    } else {
      return detail::run<
          F, B, detail::first_declared(detail::declared_in<F, fallback_chain_t<B>>, Index + 1)>(
          *fn_, this->env_, std::forward<A>(args)...);
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

  // Public for the aggregate's sake; rewrites read it through function().
  const F* fn_;
};

// Whether T is the context a rewrite receives: lets generic origins tell it from arguments.
template <class T>
inline constexpr bool is_rewrite_context_v = false;
template <class F, class B, std::size_t Index, class Env>
inline constexpr bool is_rewrite_context_v<rewrite_context<F, B, Index, Env>> = true;

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

// The origin of F, under the context of the origin's position: for a call that starts there,
// and for ctx.origin() of an origin that takes a context (one that takes none, ctx.origin()
// calls directly).
template <class F, class B, class Env, class... A>
RETARGET_ALWAYS_INLINE constexpr decltype(auto) run_origin(const F& fn, const Env& env,
                                                           A&&... args) {
  using kind = typename F::retarget_kind;
  using ctx_type = rewrite_context<F, B, origin_position<B>, Env>;
  if constexpr (requires(const ctx_type& ctx) {
                  kind::call_origin(fn, ctx, std::forward<A>(args)...);
                }) {
    return kind::call_origin(fn, ctx_type{{env}, &fn}, std::forward<A>(args)...);
  } else {
    static_assert(dependent_false<A...>,
                  "retarget: the origin of this rewritable cannot take these arguments");
    return poisoned{};
  }
}

// The candidate at position Index of F's selection for B (the origin after the chain's last
// backend). The backend and the rewrite are named here directly rather than through slot_at:
// a call then compiles no class of its own beyond its context.
template <class F, class B, std::size_t Index, class Env, class... A>
RETARGET_ALWAYS_INLINE constexpr decltype(auto) run(const F& fn, const Env& env, A&&... args) {
  if constexpr (Index == origin_position<B>) {
    return run_origin<F, B>(fn, env, std::forward<A>(args)...);
  } else {
    using kind = typename F::retarget_kind;
    using at = boost::mp11::mp_at_c<fallback_chain_t<B>, Index>;
    using rewrite = typename kind::template rewrite<F, at>;
    const rewrite_context<F, B, Index, Env> ctx{{env}, &fn};
    if constexpr (requires { rewrite::call(ctx, std::forward<A>(args)...); }) {
      if constexpr (Env::logs) env.record(kind::kind, F::name, B::name, at::name);
      try {
        return rewrite::call(ctx, std::forward<A>(args)...);
      } catch (...) {
        rethrow_from_rewrite(kind::kind, F::name, B::name, at::name);
      }
    } else {
      static_assert(dependent_false<A...>,
                    "retarget: the selected rewrite's call(ctx, ...) cannot take the arguments "
                    "the rewritable was called with");
      return poisoned{};
    }
  }
}

// The type whose name a rewritable takes: itself when it was given none, else void, whose name
// every named rewritable shares (so a named one compiles no type name of its own).
template <bool Named>
struct name_source {
  template <class T>
  using type = T;
};
template <>
struct name_source<true> {
  template <class>
  using type = void;
};

// The base of rewritable functions and symbolic ops: a name, a kind, and a call operator
// that takes the backend and the environment from its arguments.
template <class Derived, fixed_string Name, class Kind>
struct rewritable_base {
  using retarget_kind = Kind;
  using retarget_self = Derived;
  static constexpr std::string_view name =
      Name.size() != 0
          ? Name.view()
          : unqualified_type_name<typename name_source<Name.size() != 0>::template type<Derived>>();

  template <class... A>
  RETARGET_ALWAYS_INLINE constexpr decltype(auto) operator()(A&&... args) const {
    using B = backend_of_t<A...>;
    if constexpr (!Backend<B>)  // backend_of_t has said why; one error is enough
      return poisoned{};
    else
      return run<Derived, B, first_in<Derived, fallback_chain_t<B>>>(
          static_cast<const Derived&>(*this), env_of(args...), std::forward<A>(args)...);
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
using rewritable_of_kind = detail::rewritable_base<Derived, Name, Kind>;

}  // namespace retarget

#endif  // RETARGET_CORE_REWRITE_CONTEXT_HPP
