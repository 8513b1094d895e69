// ctx.next() called from an origin, which has nothing below it.
// expect: static assertion failed.*ctx.next\(\) called from the origin
// page-section: Rewrites
// page-title: `ctx.next()` from an origin
// page-order: 100
// page-snippet:
// | int origin(const auto& ctx, int x) const { return ctx.next(x) / 2; }
// page-meaning:
// | An origin is the last candidate: there is nothing below it for `next` to reach.
// page-fix:
// | In an origin, compute the result directly; `ctx.next` belongs in rewrites.
#include "common.hpp"

inline constexpr struct half_fn : retarget::rewritable<half_fn, "half"> {
  int origin(const auto& ctx, int x) const {
#ifdef RETARGET_COMPILE_FAIL
    return ctx.next(x) / 2;
#else
    return static_cast<int>(ctx.backend_name().size()) * 0 + x / 2;
#endif
  }
} half;

int main() { return half(4) == 2 ? 0 : 1; }
