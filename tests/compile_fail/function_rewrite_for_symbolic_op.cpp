// A function rewrite declared for a symbolic op: ops take symbolic_rewrite.
// expect: static assertion failed.*function_rewrite declared for a type that is not a rewritable function
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
