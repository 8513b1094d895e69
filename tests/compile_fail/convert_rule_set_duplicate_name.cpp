// Two rules of one rule set with the same name: the report could not tell them apart.
// expect: two rules of a rule_set share a name
// page-section: Conversion rules
// page-title: Two rules of one rule set with the same name
// page-order: 80
// page-snippet:
// | struct first : rc::rule<"drop_relu"> { /* ... */ };
// | struct second : rc::rule<"drop_relu"> { /* ... */ };
// | template <>
// | struct rc::rules_for<my_engine> : rc::rule_set<first, second> {};
// page-meaning:
// | The report names the rules that fired by their names; two rules with one name could not be told
// | apart.
// page-fix:
// | Give each rule of the set its own name.
#include "convert_common.hpp"

struct first : rc::rule<"drop_relu"> {
  static constexpr auto pattern = rc::op<"Relu">("x"_v);
  static rx::value replace(rx::graph&, const auto& m) { return m["x"_v]; }
};
#ifdef RETARGET_COMPILE_FAIL
struct second : rc::rule<"drop_relu"> {
#else
struct second : rc::rule<"drop_sigmoid"> {
#endif
  static constexpr auto pattern = rc::op<"Sigmoid">("x"_v);
  static rx::value replace(rx::graph&, const auto& m) { return m["x"_v]; }
};

template <>
struct rc::rules_for<my_engine> : rc::rule_set<first, second> {};

int main() {}
