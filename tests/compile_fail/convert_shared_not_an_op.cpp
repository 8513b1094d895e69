// rc::shared given a capture rather than an op piece.
// expect: rc::shared takes an op piece
// page-section: Conversion rules
// page-title: rc::shared of something other than an op
// page-order: 57
// page-snippet:
// | constexpr auto pattern = rc::op<"Relu">(rc::shared("x"_v));
// page-meaning:
// | `rc::shared` lets an interior node of the match have readers outside it; a captured value
// | is not a node the match replaces, so it has nothing to allow.
// page-fix:
// | Put it around the op piece: `rc::shared(rc::op<"Neg">("x"_v))`.
#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
constexpr auto pattern = rc::op<"Relu">(rc::shared("x"_v));
#else
constexpr auto pattern = rc::op<"Relu">(rc::shared(rc::op<"Neg">("x"_v)));
#endif

int main() { return pattern.op.size() == 4 ? 0 : 1; }
