// A module rewrite declared for a backend tag that is not a Backend.
// expect: static assertion failed.*module_rewrite declared for a backend tag that is not a Backend
// page-section: Modules
// page-title: A module rewrite for a tag that is not a Backend
// page-order: 20
// page-snippet:
// | template <>
// | struct retarget::module_rewrite<upsample, tensorrt_typo> : retarget::wrap_with<wrapper> {};
// page-meaning:
// | The second argument of `module_rewrite` must be a backend tag.
// page-fix:
// | Use a backend tag.
#include "common.hpp"

struct tensorrt_typo {};  // no name, no fallbacks
struct wrapper {
  wrapper(const auto&, const auto&) {}
  int forward(int x) const { return x; }
};

#ifdef RETARGET_COMPILE_FAIL
template <>
struct retarget::module_rewrite<upsample, tensorrt_typo> : retarget::wrap_with<wrapper> {};
#else
template <>
struct retarget::module_rewrite<upsample, bk::tensorrt> : retarget::wrap_with<wrapper> {};
#endif

int main() {}
