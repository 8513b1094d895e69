// A rewrite whose call() cannot take the function's arguments.
// expect: static assertion failed.*selected rewrite's call\(ctx, \.\.\.\) cannot take the arguments
// page-section: Rewrites
// page-title: A rewrite whose call cannot take the function's arguments
// page-order: 80
// page-snippet:
// | template <> struct retarget::function_rewrite<scale_fn, bk::tensorrt> {
// |   static int call(const auto& ctx, int x, int y) { return ctx.origin(x) + y; }  // one too many
// | };
// | retarget::call<bk::tensorrt>(scale, 1);
// page-meaning:
// | The rewrite selected for this call has a `call(ctx, ...)` that cannot be called with the
// | arguments the rewritable was called with: a wrong parameter type or count, or a missing `ctx`
// | first parameter.
// page-fix:
// | Give `call` the context first, then the function's parameters (`static R call(const auto& ctx,
// | Args... args)`). The same message appears when `ctx.next(...)` or `ctx.origin(...)` reaches a
// | rewrite with the wrong arguments.
#include "common.hpp"

template <>
struct retarget::function_rewrite<scale_fn, bk::tensorrt> {
#ifdef RETARGET_COMPILE_FAIL
  static int call(const auto& ctx, int x, int y) { return ctx.origin(x) + y; }  // one too many
#else
  static int call(const auto& ctx, int x) { return ctx.origin(x); }
#endif
};

int main() { return retarget::call<bk::tensorrt>(scale, 1) == 2 ? 0 : 1; }
