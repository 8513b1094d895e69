// A rewrite declared for a backend tag that is not a Backend.
// expect: static assertion failed.*function_rewrite declared for a backend tag that is not a Backend
// page-section: Rewrites
// page-title: A function rewrite for a tag that is not a Backend
// page-order: 60
// page-snippet:
// | struct tensorrt_typo {};   // no name, no fallbacks
// | template <> struct retarget::function_rewrite<scale_fn, tensorrt_typo> { /* ... */ };
// page-meaning:
// | The second argument of a rewrite must be a backend tag.
// page-fix:
// | Use a tag from `retarget::backends` or one derived from `retarget::backend_tag`.
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
