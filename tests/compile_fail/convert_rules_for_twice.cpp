// Two rule sets for the same backend: which would run is not for the compiler to guess.
// expect: redefinition of .*rules_for<my_engine>
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
