// A function rewrite declared for something that is not a rewritable function.
// expect: static assertion failed.*function_rewrite declared for a type that is not a rewritable function
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
