// A module wrapper that cannot be built from (module, cfg).
// expect: static assertion failed.*module wrapper cannot be constructed from \(module&, const config&
// page-section: Modules
// page-title: A wrapper without the (module, config) constructor
// page-order: 30
// page-snippet:
// | struct fast_upsample {
// |   explicit fast_upsample(const upsample&);   // forgot the config
// |   int forward(int x) const;
// | };
// | template <> struct retarget::module_rewrite<upsample> : retarget::wrap_with<fast_upsample> {};
// page-meaning:
// | A wrapper is built as `W(module, cfg, extra...)`: the module (`const M&` when called as const),
// | the deploy config of the call (`retarget::no_config` when there is none; `trace::config_ref` in
// | an export), then the `wrap_with` extra arguments.
// page-fix:
// | Give the wrapper that constructor; `const auto&` for the config accepts any.
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
