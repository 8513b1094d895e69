// A symbolic rewrite declared for a rewritable function: functions take function_rewrite.
// expect: static assertion failed.*symbolic_rewrite declared for a type that is not a symbolic op
// page-section: Rewrites
// page-title: A symbolic rewrite for a rewritable function
// page-order: 50
// page-snippet:
// | template <> struct retarget::symbolic_rewrite<scale_fn, bk::tensorrt> { /* ... */ };
// page-meaning:
// | The mirror image: `symbolic_rewrite` takes a `symbolic_op`.
// page-fix:
// | Use `retarget::function_rewrite<scale_fn, B>`.
#include "common.hpp"

#ifdef RETARGET_COMPILE_FAIL
template <>
struct retarget::symbolic_rewrite<scale_fn> {
#else
template <>
struct retarget::function_rewrite<scale_fn> {
#endif
  static int call(const auto&, int x) { return x; }
};

int main() {}
