// Two rewrites for the same (function, backend).
// expect: redefinition of .*function_rewrite<scale_fn, engines::tensorrt[,>]
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
