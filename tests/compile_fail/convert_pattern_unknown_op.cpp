// A pattern whose op no ONNX schema has.
// expect: pattern op name is unknown to the ONNX schemas
// page-section: Conversion rules
// page-title: A pattern op no ONNX schema has
// page-order: 40
// page-snippet:
// | static constexpr auto pattern = rc::op<"Reluu">("x"_v);
// page-meaning:
// | Each op of a rule's pattern is checked against the ONNX schemas when the pattern is written; no
// | opset has an op of that name, so the pattern could never match.
// page-fix:
// | Fix the op name (`rc::op<"Relu">`) ([convert/rule](reference/convert/rule.md)).
#include "convert_common.hpp"

struct fuse : rc::rule<"fuse"> {
#ifdef RETARGET_COMPILE_FAIL
  static constexpr auto pattern = rc::op<"Reluu">("x"_v);
#else
  static constexpr auto pattern = rc::op<"Relu">("x"_v);
#endif
  static rx::value replace(rx::graph&, const auto& m) { return m["x"_v]; }
};

int main() { return static_cast<int>(rc::rule_set<fuse>::size) - 1; }
