// A rewrite whose call() cannot take the function's arguments.
// expect: static assertion failed.*selected rewrite's call\(ctx, \.\.\.\) cannot take the arguments
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
