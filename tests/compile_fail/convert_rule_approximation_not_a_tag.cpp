// A rule declares as its approximation a type that is not an approximation tag.
// expect: a rule's `approximation` is not an approximation tag
// page-section: Conversion rules
// page-title: A rule's approximation that is not a tag
// page-order: 86
// page-snippet:
// | struct gelu_tanh : rc::rule<"gelu_tanh"> {
// |   using approximation = float;
// page-meaning:
// | A rule that is an approximation runs only when the conversion names it; its tag gives that
// | name. Without one, it could neither be asked for nor counted.
// page-fix:
// | Declare a tag, `struct gelu_as_tanh : rc::approximation<"gelu_as_tanh"> {};`, and name it.
#include "convert_common.hpp"

struct silu_as_hard : rc::approximation<"silu_as_hard"> {};

struct hard_silu : rc::rule<"hard_silu"> {
#ifdef RETARGET_COMPILE_FAIL
  using approximation = float;
#else
  using approximation = silu_as_hard;
#endif
  static constexpr auto pattern = rc::op<"Mul">("x"_v, rc::op<"Sigmoid">("x"_v));
  static rx::value replace(rx::graph& g, const auto& m) {
    return g.op("Mul", m["x"_v], g.op("HardSigmoid", m["x"_v]));
  }
};

template <>
struct rc::rules_for<my_engine> : rc::rule_set<hard_silu> {};

int main() {
  return rc::detail::entries_of<rc::rules_for<my_engine>::checked_list>[0].approximation.empty();
}
