// A rewrite declared for a backend tag that is not a Backend.
// expect: static assertion failed.*function_rewrite declared for a backend tag that is not a Backend
#include "common.hpp"

struct tensorrt_typo {};  // no name, no fallbacks

#ifdef RETARGET_COMPILE_FAIL
template <>
struct retarget::function_rewrite<scale_fn, tensorrt_typo> {
#else
template <>
struct retarget::function_rewrite<scale_fn, bk::tensorrt> {
#endif
  static int call(const auto&, int x) { return x; }
};

int main() {}
