// A pattern op given more inputs than its schema allows.
// expect: pattern op is given more inputs than its schema allows
// page-section: Conversion rules
// page-title: A pattern op given more inputs than its schema allows
// page-order: 50
// page-snippet:
// | constexpr auto pattern = rc::op<"Relu">("x"_v, "y"_v);
// page-meaning:
// | The pattern gives the op more inputs than any opset's schema of it allows, so no node could
// | match.
// page-fix:
// | Drop the extra input; check the op's input order.
#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
constexpr auto pattern = rc::op<"Relu">("x"_v, "y"_v);
#else
constexpr auto pattern = rc::op<"Relu">("x"_v);
#endif

int main() { return pattern.op.size() == 4 ? 0 : 1; }
