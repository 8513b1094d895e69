// Two rewrites for the same (function, backend).
// expect: redefinition of .*function_rewrite<scale_fn, engines::tensorrt[,>]
// page-section: Rewrites
// page-title: Two rewrites for one function and backend
// page-order: 10
// page-snippet:
// | template <> struct retarget::function_rewrite<scale_fn, bk::tensorrt> { /* ... */ };
// | template <> struct retarget::function_rewrite<scale_fn, bk::tensorrt> { /* ... */ };  // again
// page-meaning:
// | A rewrite is an explicit specialization, so a second one for the same `(function, backend)` is
// | a second definition of one class. Where MMDeploy would let the later registration win, retarget
// | refuses to compile. The same holds for `symbolic_rewrite` and `module_rewrite`.
// page-fix:
// | Keep one. If both should run, make one of them the rewrite of a backend further down the chain
// | (`tensorrt10` and `tensorrt`) and call `ctx.next(...)` from the first.
#include "common.hpp"

template <>
struct retarget::function_rewrite<scale_fn, bk::tensorrt> {
  static int call(const auto& ctx, int x) { return ctx.origin(x); }
};

#ifdef RETARGET_COMPILE_FAIL
template <>
struct retarget::function_rewrite<scale_fn, bk::tensorrt> {
  static int call(const auto&, int x) { return x; }
};
#else
template <>
struct retarget::function_rewrite<scale_fn, bk::tensorrt10> {
  static int call(const auto&, int x) { return x; }
};
#endif

int main() { return retarget::call<bk::tensorrt>(scale, 1) == 2 ? 0 : 1; }
