// What a call is made under: the deploy config the caller supplied and, optionally, the log
// that records which rewrites fired. Arguments carry it (a traced tensor refers to its
// export session) through dispatch_traits, or the caller passes it to retarget::call.
#ifndef RETARGET_CORE_REWRITE_ENV_HPP
#define RETARGET_CORE_REWRITE_ENV_HPP

#include <boost/mp11/algorithm.hpp>
#include <retarget/core/backend.hpp>
#include <retarget/core/rewrite_log.hpp>
#include <type_traits>

namespace retarget {

// The config of a call made without one.
struct no_config {};
inline constexpr no_config empty_config{};

template <class Config = no_config, class Log = no_log>
class rewrite_env {
 public:
  using config_type = Config;
  using log_type = Log;
  // Whether a call under this environment records its rewrites: without a log it does not even
  // name them, which a rewrite compiled for every call would otherwise pay for.
  static constexpr bool logs = !std::is_same_v<Log, no_log>;

  constexpr rewrite_env() noexcept requires std::is_same_v<Config, no_config>
      : config_(&empty_config), log_(nullptr) {}
  constexpr explicit rewrite_env(const Config& config, Log* log = nullptr) noexcept
      : config_(&config), log_(log) {}

  constexpr const Config& config() const noexcept { return *config_; }
  constexpr Log* log() const noexcept { return log_; }

  constexpr void record(rewrite_kind kind, std::string_view target, std::string_view backend,
                        std::string_view rewrite) const {
    if constexpr (logs)
      if (log_) log_->record(kind, target, backend, rewrite);
  }

 private:
  const Config* config_;
  Log* log_;
};

rewrite_env()->rewrite_env<>;
template <class Config>
rewrite_env(const Config&) -> rewrite_env<Config>;
template <class Config, class Log>
rewrite_env(const Config&, Log*) -> rewrite_env<Config, Log>;

namespace detail {
template <class T>
inline constexpr bool is_rewrite_env = false;
template <class C, class L>
inline constexpr bool is_rewrite_env<rewrite_env<C, L>> = true;
}  // namespace detail

// Specialize for a type that carries a backend (later layers do, for their tensors):
//   using backend = B;                          -- required
//   static auto env(const T&) -> rewrite_env<>; -- optional: the config and log it refers to
template <class T>
struct dispatch_traits {};

template <class T>
concept carries_backend = requires {
  typename dispatch_traits<std::remove_cvref_t<T>>::backend;
};

template <class T>
concept carries_env = carries_backend<T> && requires(const std::remove_cvref_t<T>& v) {
  dispatch_traits<std::remove_cvref_t<T>>::env(v);
};

namespace detail {

template <class T>
struct backend_of_one {
  using type = void;
};
template <carries_backend T>
struct backend_of_one<T> {
  using type = typename dispatch_traits<std::remove_cvref_t<T>>::backend;
};

template <class... Args>
struct backend_of_args {
  using carried = boost::mp11::mp_remove<
      boost::mp11::mp_unique<boost::mp11::mp_list<typename backend_of_one<Args>::type...>>, void>;
  static_assert(boost::mp11::mp_size<carried>::value <= 1,
                "retarget: the arguments of a call carry different backends");
  using type = boost::mp11::mp_eval_if_c<boost::mp11::mp_empty<carried>::value, default_backend,
                                         boost::mp11::mp_front, carried>;
};

}  // namespace detail

// The backend a call with these arguments is made for: the one its arguments carry, or the
// default backend when none does.
template <class... Args>
using backend_of_t = typename detail::backend_of_args<Args...>::type;

// The environment of the first argument that carries one, or an empty environment.
constexpr rewrite_env<> env_of() { return rewrite_env<>{}; }
template <class First, class... Rest>
constexpr auto env_of(const First& first, const Rest&... rest) {
  if constexpr (carries_env<First>)
    return dispatch_traits<std::remove_cvref_t<First>>::env(first);
  else
    return env_of(rest...);
}

}  // namespace retarget

#endif  // RETARGET_CORE_REWRITE_ENV_HPP
