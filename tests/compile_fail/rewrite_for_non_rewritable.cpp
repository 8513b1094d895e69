// A function rewrite declared for something that is not a rewritable function.
// expect: static assertion failed.*function_rewrite declared for a type that is not a rewritable function
// page-section: Rewrites
// page-title: A function rewrite for something that is not a rewritable function
// page-order: 30
// page-snippet:
// | struct not_rewritable { int operator()(int x) const { return x; } };
// | template <> struct retarget::function_rewrite<not_rewritable, bk::tensorrt> { /* ... */ };
// page-meaning:
// | The first argument of `function_rewrite` must derive from `retarget::rewritable`; a plain
// | function object has no origin to fall back to and no name to record.
// page-fix:
// | Derive the function object from `retarget::rewritable<Self, "name">` and give it `origin(...)`.
#include "common.hpp"

#ifdef RETARGET_COMPILE_FAIL
template <>
struct retarget::function_rewrite<not_rewritable, bk::tensorrt> {
  static int call(const auto&, int x) { return x; }
};
#else
template <>
struct retarget::function_rewrite<scale_fn, bk::tensorrt> {
  static int call(const auto&, int x) { return x; }
};
#endif

int main() {}
