// A symbolic rewrite declared for a backend tag that is not a Backend.
// expect: static assertion failed.*symbolic_rewrite declared for a backend tag that is not a Backend
// page-section: Rewrites
// page-title: A symbolic rewrite for a tag that is not a Backend
// page-order: 70
// page-snippet:
// | template <> struct retarget::symbolic_rewrite<resize_op, tensorrt_typo> { /* ... */ };
// page-meaning:
// | As above, for symbolic rewrites.
// page-fix:
// | As above.
#include "common.hpp"

struct tensorrt_typo {};  // no name, no fallbacks

#ifdef RETARGET_COMPILE_FAIL
template <>
struct retarget::symbolic_rewrite<resize_op, tensorrt_typo> {
#else
template <>
struct retarget::symbolic_rewrite<resize_op, bk::tensorrt> {
#endif
  static int call(const auto&, int x) { return x; }
};

int main() {}
