// Two rule sets for the same backend: which would run is not for the compiler to guess.
// expect: redefinition of .*rules_for<my_engine>
// page-section: Conversion rules
// page-title: Two rule sets for one backend
// page-order: 90
// page-snippet:
// | template <>
// | struct rc::rules_for<my_engine> : rc::rule_set<drop_relu> {};
// | template <>
// | struct rc::rules_for<my_engine> : rc::rule_set<> {};   // again
// page-meaning:
// | `rules_for<B>` is an explicit specialization, so a second one for the same backend is a second
// | definition of one class: which set would run is not for the compiler to guess.
// page-fix:
// | Keep one `rules_for<B>` and list every rule of the backend in its `rule_set`.
#include "convert_common.hpp"

struct drop_relu : rc::rule<"drop_relu"> {
  static constexpr auto pattern = rc::op<"Relu">("x"_v);
  static rx::value replace(rx::graph&, const auto& m) { return m["x"_v]; }
};

template <>
struct rc::rules_for<my_engine> : rc::rule_set<drop_relu> {};
#ifdef RETARGET_COMPILE_FAIL
template <>
struct rc::rules_for<my_engine> : rc::rule_set<> {};
#endif

int main() { return static_cast<int>(rc::rules_of_t<my_engine>::size) - 1; }
