// What an engine will refuse in a model, listed node by node before it is ever loaded: each
// backend package declares its engine's table, and `retarget check --backend NAME` prints it
// for a model before and after conversion.
//
//   template <> struct retarget::convert::engine_refusals<my_engine> {
//     static void check(const refusal_context& model, std::vector<refusal>& out);
//   };
#ifndef RETARGET_CONVERT_REFUSALS_HPP
#define RETARGET_CONVERT_REFUSALS_HPP

#include <algorithm>
#include <boost/mp11/algorithm.hpp>
#include <optional>
#include <retarget/convert/fwd.hpp>
#include <retarget/core/backend.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/open_dims.hpp>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace retarget::convert {

struct refusal {
  int index = -1;    // the node's index in the main graph; -1 for what no node holds
  std::string node;  // "Clip '/features/0/Clip'", or "graph output 'y'"
  std::string why;
};

// "node 3 Clip '/features/0/Clip'", or "graph output 'y'": where a refusal is, as messages
// say it.
inline std::string where(const refusal& r) {
  return r.index < 0 ? r.node : "node " + std::to_string(r.index) + " " + r.node;
}

// The model as a table sees it (refusal_context, convert/fwd.hpp): the analyzed view (nodes,
// constants, inferred types), which copies no weight.

// Specialize for a backend as `: quirk_list<...>` (convert/quirk.hpp): its engine's quirks, from
// which its table of refusals, its approximations and its rules come.
template <class B>
struct quirks_for {
  using retarget_undeclared = void;
};

// Specialize for a backend: static constexpr std::string_view names[] = {...}, the inexact
// rewrites its package offers (convert::options::approximations takes them by name).
template <class B>
struct approximations {
  static constexpr std::span<const std::string_view> names = {};
};

// The approximations the backends of B's chain offer, B's own first.
template <Backend B>
std::vector<std::string_view> approximations_of() {
  std::vector<std::string_view> out;
  boost::mp11::mp_for_each<fallback_chain_t<B>>([&](auto backend) {
    using X = decltype(backend);
    // A package compiled into retarget::compiled offers them from there (its tag declares it).
    if constexpr (detail::has_compiled_package<X>)
      for (const auto& n : compiled_package<X>::approximation_names()) out.push_back(n);
    else if constexpr (requires { quirks_for<X>::approximation_names; })
      for (const auto& n : quirks_for<X>::approximation_names) out.push_back(n);
    // Rules that declare themselves approximations, where the package is not compiled.
    if constexpr (!detail::has_compiled_package<X> &&
                  requires { rules_for<X>::approximation_names; })
      for (const auto& n : rules_for<X>::approximation_names)
        if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    for (const auto& n : approximations<X>::names) out.push_back(n);
  });
  return out;
}

// Specialize for a backend: static void check(const refusal_context&, std::vector<refusal>&).
template <class B>
struct engine_refusals {
  using retarget_undeclared = void;
};

namespace detail {
template <class B>
using has_quirks = std::bool_constant < !requires {
  typename quirks_for<B>::retarget_undeclared;
}
> ;
template <class B>
using has_refusals = std::bool_constant < has_quirks<B>::value || !requires {
  typename engine_refusals<B>::retarget_undeclared;
}
> ;
}  // namespace detail

// Calls f with m as an engine meets it: as it is, or, when its inputs leave dims open (a
// dynamic batch), at each of ir::checked_sizes, since the engine meets them at a size (one copy
// whose weights the sized models share). The node indices are m's in each.
template <class F>
void as_the_engine_meets_it(const ir::model& m, F&& f) {
  const auto open = ir::open_dims(m);
  if (open.empty()) {
    f(m);
    return;
  }
  ir::model shared = m;
  shared.share_weights();
  for (const auto size : ir::checked_sizes) f(ir::with_sizes(shared, open, size));
}

// Whether some backend of B's chain declares what its engine refuses.
template <Backend B>
inline constexpr bool knows_refusals =
    boost::mp11::mp_any_of<fallback_chain_t<B>, detail::has_refusals>::value;

// Every node of m that B's engine (the first of its chain with a table) would refuse; nullopt
// when no backend of the chain has a table.
template <Backend B>
std::optional<std::vector<refusal>> refused_nodes(const ir::model& m) {
  using chain = fallback_chain_t<B>;
  if constexpr (!knows_refusals<B>) {
    return std::nullopt;
  } else {
    using first = boost::mp11::mp_at<chain, boost::mp11::mp_find_if<chain, detail::has_refusals>>;
    // Its quirks, when it declares them; its own table otherwise.
    using table = std::conditional_t<detail::has_quirks<first>::value, quirks_for<first>,
                                     engine_refusals<first>>;
    const auto check = [](const ir::model& model, std::vector<refusal>& out) {
      const refusal_context context(model);
      // A package compiled into retarget::compiled checks from there.
      if constexpr (detail::has_compiled_package<first>)
        compiled_package<first>::check(context, out);
      else
        table::check(context, out);
    };
    // What any size refuses is listed once.
    std::vector<refusal> out;
    as_the_engine_meets_it(m, [&](const ir::model& at) {
      std::vector<refusal> at_size;
      check(at, at_size);
      for (auto& r : at_size)
        if (std::none_of(out.begin(), out.end(), [&](const refusal& o) {
              return o.index == r.index && o.node == r.node && o.why == r.why;
            }))
          out.push_back(std::move(r));
    });
    return out;
  }
}

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_REFUSALS_HPP
