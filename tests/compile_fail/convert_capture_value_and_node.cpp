// One capture name used for a value and for a node in one pattern.
// expect: a capture name is used for a value and a node
// page-section: Conversion rules
// page-title: One capture name for a value and a node
// page-order: 62
// page-snippet:
// | static constexpr auto pattern = rc::op<"Relu">(rc::op<"Neg">("x"_v).as<"x">());
// page-meaning:
// | `m["x"_v]` would be a value and `m["x"_n]` a node: one name cannot be both.
// page-fix:
// | Give the node its own name (`.as<"neg">()`).
#include "convert_common.hpp"

struct relu_of_neg : rc::rule<"relu_of_neg"> {
#ifdef RETARGET_COMPILE_FAIL
  static constexpr auto pattern = rc::op<"Relu">(rc::op<"Neg">("x"_v).as<"x">());
#else
  static constexpr auto pattern = rc::op<"Relu">(rc::op<"Neg">("x"_v).as<"neg">());
#endif
  static rx::value replace(rx::graph& g, const auto& m) { return g.op("Relu", m["x"_v]); }
};

template <>
struct rc::rules_for<my_engine> : rc::rule_set<relu_of_neg> {};

// The rules as the engine takes them: their captures are read there.
int main() {
  return rc::detail::entries_of<rc::rules_for<my_engine>::checked_list>.size() == 1 ? 0 : 1;
}
