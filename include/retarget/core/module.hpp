// Module rewrites: for a module type and a backend, a wrapper type that replaces every
// instance of that module called under that backend, wherever it sits in the model tree.
// The wrapper is built from the module and the deploy config (plus any extra arguments the
// rewrite declares) and runs in place of the module's forward.
//
//   struct srcnn : retarget::rewritable_module<srcnn> { auto forward(auto x) const; ... };
//   template <> struct retarget::module_rewrite<srcnn, my_engine>
//       : retarget::wrap_with<srcnn_wrapper, 4> {};   // srcnn_wrapper(module, cfg, 4)
#ifndef RETARGET_CORE_MODULE_HPP
#define RETARGET_CORE_MODULE_HPP

#include <boost/mp11/algorithm.hpp>
#include <concepts>
#include <retarget/core/rewrite_context.hpp>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace retarget {

namespace detail {
template <class M, class... A>
constexpr decltype(auto) call_module(M& module, A&&... args);
}

// Derive a module from rewritable_module<Self> and give it forward(...); calling the module
// runs its backend's wrapper if one is declared, and forward otherwise.
template <class Derived, fixed_string Name = "">
struct rewritable_module {
  using retarget_module_self = Derived;
  static constexpr std::string_view module_name =
      Name.size() != 0 ? Name.view() : detail::unqualified_type_name<Derived>();

  template <class... A>
  constexpr decltype(auto) operator()(A&&... args) {
    return detail::call_module(static_cast<Derived&>(*this), std::forward<A>(args)...);
  }
  template <class... A>
  constexpr decltype(auto) operator()(A&&... args) const {
    return detail::call_module(static_cast<const Derived&>(*this), std::forward<A>(args)...);
  }
};

template <class M>
concept Module = requires {
  typename M::retarget_module_self;
}
&&std::is_same_v<typename M::retarget_module_self, M>;

// Specialize for (M, B), or (M) for the default, with `using wrapper = W;` and optionally
// `static constexpr auto arguments = std::tuple{...};` for W's extra constructor arguments.
namespace detail {
// Checked where a module_rewrite is named, so a declaration for the wrong kind of thing is one
// readable error rather than a constraint failure and its aftermath. Instantiated by the
// checks' outcome, not by the pair: every well-formed declaration shares one instantiation.
template <bool IsModule, bool IsBackend>
struct module_rewrite_target {
  static_assert(IsModule,
                "retarget: module_rewrite declared for a type that is not a rewritable module "
                "(derive it from retarget::rewritable_module)");
  static_assert(IsBackend,
                "retarget: module_rewrite declared for a backend tag that is not a Backend");
  using type = void;
};
}  // namespace detail

template <class M, class B = default_backend,
          class = typename detail::module_rewrite_target<Module<M>, Backend<B>>::type>
struct module_rewrite {
  using retarget_undeclared = void;
};

// The usual body of a module_rewrite: the wrapper type and its extra constructor arguments.
template <class Wrapper, auto... Extra>
struct wrap_with {
  using wrapper = Wrapper;
  static constexpr auto arguments = std::tuple(Extra...);
};

namespace detail {

template <class M>
struct module_slot_for {
  template <class B>
  using fn = rewrite_slot<module_rewrite<M, B>, B>;
};

// The module rewrites declared along B's chain, best first.
template <class M, class B>
using module_candidates_t =
    boost::mp11::mp_copy_if<boost::mp11::mp_transform_q<module_slot_for<M>, fallback_chain_t<B>>,
                            slot_is_declared>;

template <class R>
constexpr auto wrapper_arguments() {
  if constexpr (requires { R::arguments; })
    return R::arguments;
  else
    return std::tuple<>{};
}

template <class W, class M, class Config, class Args>
inline constexpr bool wrapper_constructible = false;
template <class W, class M, class Config, class... E>
inline constexpr bool wrapper_constructible<W, M, Config, std::tuple<E...>> =
    std::constructible_from<W, M&, const Config&, const E&...>;

// Stands for a config of any type: a wrapper constructible from it, and not from the config the
// call has, names its own config type (the usual slip: an export passes a config_ref).
struct any_config {
  template <class T>
  operator const T&() const;
};

template <class M, class... A>
constexpr decltype(auto) call_module(M& module, A&&... args) {
  using self = std::remove_const_t<M>;
  using B = backend_of_t<A...>;
  using candidates = module_candidates_t<self, B>;
  if constexpr (boost::mp11::mp_empty<candidates>::value) {
    return module.forward(std::forward<A>(args)...);
  } else {
    using slot = boost::mp11::mp_front<candidates>;
    using rewrite = typename slot::type;
    using wrapper = typename rewrite::wrapper;
    const auto env = env_of(args...);
    using config = std::remove_cvref_t<decltype(env.config())>;
    constexpr auto extra = wrapper_arguments<rewrite>();
    using extra_t = std::remove_cvref_t<decltype(extra)>;
    if constexpr (!wrapper_constructible<wrapper, M, config, extra_t> &&
                  wrapper_constructible<wrapper, M, any_config, extra_t>) {
      static_assert(dependent_false<M>,
                    "retarget: module wrapper takes the deploy config by its own type, but the "
                    "call passes another (an export passes a retarget::trace::config_ref): take "
                    "`const retarget::trace::config_ref& cfg` and read cfg.as<your_config>()");
      return poisoned{};
    } else if constexpr (!wrapper_constructible<wrapper, M, config, extra_t>) {
      static_assert(dependent_false<M>,
                    "retarget: module wrapper cannot be constructed from (module&, const config&, "
                    "extra arguments...); give it that constructor");
      return poisoned{};
    } else if constexpr (!requires(wrapper & w) { w.forward(std::forward<A>(args)...); }) {
      static_assert(dependent_false<M>,
                    "retarget: module wrapper has no forward(...) that takes the module's "
                    "arguments");
      return poisoned{};
    } else {
      if constexpr (decltype(env)::logs)
        env.record(rewrite_kind::module, self::module_name, B::name, slot::name);
      try {
        return std::apply(
            [&](const auto&... e) {
              wrapper w(module, env.config(), e...);
              return w.forward(std::forward<A>(args)...);
            },
            extra);
      } catch (...) {
        rethrow_from_rewrite(rewrite_kind::module, self::module_name, B::name, slot::name);
      }
    }
  }
}

}  // namespace detail

}  // namespace retarget

#endif  // RETARGET_CORE_MODULE_HPP
