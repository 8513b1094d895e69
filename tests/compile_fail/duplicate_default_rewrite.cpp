// Two default rewrites for one function: once spelled with the default backend, once without.
// expect: redefinition of .*function_rewrite<scale_fn[,>]
// page-section: Rewrites
// page-title: Two default rewrites, spelled differently
// page-order: 20
// page-snippet:
// | template <> struct retarget::function_rewrite<scale_fn> { /* ... */ };
// | template <>
// | struct retarget::function_rewrite<scale_fn, retarget::default_backend> { /* ... */ };
// page-meaning:
// | `function_rewrite<F>` is `function_rewrite<F, default_backend>`: both are the default rewrite.
// page-fix:
// | Keep one default rewrite per function.
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
