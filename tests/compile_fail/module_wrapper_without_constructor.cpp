// A module wrapper that cannot be built from (module, cfg).
// expect: static assertion failed.*module wrapper cannot be constructed from \(module&, const config&
#include "common.hpp"

struct fast_upsample {
#ifdef RETARGET_COMPILE_FAIL
  explicit fast_upsample(const upsample&) {}  // forgot the config
#else
  fast_upsample(const upsample&, const auto&) {}
#endif
  int forward(int x) const { return x + 1; }
};

template <>
struct retarget::module_rewrite<upsample> : retarget::wrap_with<fast_upsample> {};

int main() {
  const upsample m;
  return m(1) == 2 ? 0 : 1;
}
