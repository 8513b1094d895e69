// A module wrapper whose forward is missing (here named run).
// expect: static assertion failed.*module wrapper has no forward\(\.\.\.\) that takes the module's arguments
// page-section: Modules
// page-title: A wrapper without forward
// page-order: 40
// page-snippet:
// | struct fast_upsample {
// |   fast_upsample(const upsample&, const auto&);
// |   int run(int x) const;   // not forward
// | };
// page-meaning:
// | The wrapper runs in place of the module's `forward`, with the same arguments.
// page-fix:
// | Give the wrapper a `forward` that takes what the module is called with.
#include "common.hpp"

struct fast_upsample {
  fast_upsample(const upsample&, const auto&) {}
#ifdef RETARGET_COMPILE_FAIL
  int run(int x) const { return x + 1; }  // not forward
#else
  int forward(int x) const { return x + 1; }
#endif
};

template <>
struct retarget::module_rewrite<upsample> : retarget::wrap_with<fast_upsample> {};

int main() {
  const upsample m;
  return m(1) == 2 ? 0 : 1;
}
