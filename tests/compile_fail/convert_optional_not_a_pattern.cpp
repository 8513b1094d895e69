// rc::optional given something that is not a pattern piece.
// expect: rc::optional takes a pattern piece
// page-section: Conversion rules
// page-title: rc::optional of something other than a pattern
// page-order: 56
// page-snippet:
// | constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v, rc::optional("c"));
// page-meaning:
// | `rc::optional` makes a piece of the pattern match an absent input too; `"c"` is a string,
// | not a piece (a capture is `"c"_v`).
// page-fix:
// | Give it a capture or an op piece: `rc::optional("c"_v)`.
#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v, rc::optional("c"));
#else
constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v, rc::optional("c"_v));
#endif

int main() { return pattern.op.size() == 4 ? 0 : 1; }
