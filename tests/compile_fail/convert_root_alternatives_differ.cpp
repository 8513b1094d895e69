// A rule whose pattern is rc::either of two ops that differ at the root.
// expect: a rule's pattern has no one op at its root
// page-section: Conversion rules
// page-title: Alternatives at a rule's root with different ops
// page-order: 85
// page-snippet:
// | static constexpr auto pattern = rc::either(rc::op<"Relu">("x"_v), rc::op<"Sigmoid">("x"_v));
// page-meaning:
// | The engine tries a rule at the nodes of its root op; alternatives at the root must share it.
// page-fix:
// | Write one rule per root op, or move the alternatives below a common root.
#include "convert_common.hpp"

struct either_root : rc::rule<"either_root"> {
#ifdef RETARGET_COMPILE_FAIL
  static constexpr auto pattern = rc::either(rc::op<"Relu">("x"_v), rc::op<"Sigmoid">("x"_v));
#else
  static constexpr auto pattern =
      rc::either(rc::op<"Relu">(rc::op<"Neg">("x"_v)), rc::op<"Relu">("x"_v));
#endif
  static rx::value replace(rx::graph&, const auto& m) { return m["x"_v]; }
};

template <>
struct rc::rules_for<my_engine> : rc::rule_set<either_root> {};

int main() {}
