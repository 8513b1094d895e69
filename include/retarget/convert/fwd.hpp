// What a backend's tag needs to name its conversion package without including it: the
// templates a package specializes (declared here once; convert/rule.hpp, node_rewrite.hpp and
// refusals.hpp define them), and compiled_package, through which a package compiled into
// retarget::compiled is reached.
//
// With retarget::compiled, a tag declares its package's specializations and its compiled
// entry points; the package's header defines them, and src/compiled.cpp, which includes it,
// compiles them once. convert<B> and `check --backend` then work from a unit that sees only
// the tag, every rule active, and the specializations are the same in every unit (the tag
// declares them all), so no unit can see the backend without its rules. A node rewrite for
// such a backend other than the package's does not compile (node_rewrite.hpp): the library's
// conversion could not run it.
#ifndef RETARGET_CONVERT_FWD_HPP
#define RETARGET_CONVERT_FWD_HPP

#include <retarget/core/fixed_string.hpp>
#include <span>
#include <string_view>
#include <vector>

namespace retarget::ir {
class model_view;
}

namespace retarget::convert {

// Specialized by a package: its pattern rules (rule.hpp), its engine's quirks (quirk.hpp),
// the node rewrite of op Op (node_rewrite.hpp; the third parameter, defaulted there, checks the
// op, and is void).
template <class B>
struct rules_for;
template <class B>
struct quirks_for;
template <fixed_string Op, class B, class>
struct node_rewrite;

struct refusal;
// The model as a table of refusals sees it (refusals.hpp).
using refusal_context = ir::model_view;

namespace detail {
struct backend_hooks;
}
// A package's rules and node rewrites, as the conversion engine calls them.
using package_hooks = detail::backend_hooks;

// Specialize for a backend whose package is compiled into retarget::compiled, declaring:
//   static constexpr std::string_view node_rewrite_ops[] = {...};   // its node rewrites' ops
//   static package_hooks hooks();   // its rules and node rewrites, for convert<B>
//   static void check(const refusal_context&, std::vector<refusal>&);   // quirks_for<B>::check
//   static std::span<const std::string_view> approximation_names();
// defined where the package is included (src/compiled.cpp).
template <class B>
struct compiled_package {
  using retarget_undeclared = void;
};

namespace detail {
template <class B>
inline constexpr bool has_compiled_package = !requires {
  typename compiled_package<B>::retarget_undeclared;
};
// Whether the definition of T is visible here: false for a specialization a tag declares
// whose package this unit does not include.
template <class T>
inline constexpr bool defined_here = requires {
  sizeof(T);
};
}  // namespace detail

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_FWD_HPP
