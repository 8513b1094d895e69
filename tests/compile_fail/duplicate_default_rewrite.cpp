// Two default rewrites for one function: once spelled with the default backend, once without.
// expect: redefinition of .*function_rewrite<scale_fn[,>]
#include "common.hpp"

template <>
struct retarget::function_rewrite<scale_fn> {
  static int call(const auto& ctx, int x) { return ctx.origin(x); }
};

#ifdef RETARGET_COMPILE_FAIL
template <>
struct retarget::function_rewrite<scale_fn, retarget::default_backend> {
  static int call(const auto&, int x) { return x; }
};
#endif

int main() { return scale(1) == 2 ? 0 : 1; }
