// A function rewrite declared for a symbolic op: ops take symbolic_rewrite.
// expect: static assertion failed.*function_rewrite declared for a type that is not a rewritable function
// page-section: Rewrites
// page-title: A function rewrite for a symbolic op
// page-order: 40
// page-snippet:
// | struct resize_op : retarget::symbolic_op<resize_op, "resize"> { /* symbolic(...) */ };
// | template <> struct retarget::function_rewrite<resize_op, bk::tensorrt> { /* ... */ };
// page-meaning:
// | Ops (types derived from `symbolic_op`) are rewritten at the symbolic: their rewrites receive
// | the graph.
// page-fix:
// | Use `retarget::symbolic_rewrite<resize_op, B>` with `call(ctx, g, ...)`. To rewrite a library
// | op before its symbolic, rewrite its function: `function_rewrite<ops::relu_fn, B>`.
#include "common.hpp"

#ifdef RETARGET_COMPILE_FAIL
template <>
struct retarget::function_rewrite<resize_op, bk::tensorrt> {
#else
template <>
struct retarget::symbolic_rewrite<resize_op, bk::tensorrt> {
#endif
  static int call(const auto&, int x) { return x; }
};

int main() {}
