// A symbolic rewrite declared for a rewritable function: functions take function_rewrite.
// expect: static assertion failed.*symbolic_rewrite declared for a type that is not a symbolic op
#include "common.hpp"

#ifdef RETARGET_COMPILE_FAIL
template <>
struct retarget::symbolic_rewrite<scale_fn> {
#else
template <>
struct retarget::function_rewrite<scale_fn> {
#endif
  static int call(const auto&, int x) { return x; }
};

int main() {}
