// A module rewrite declared for a type that is not a rewritable module.
// expect: static assertion failed.*module_rewrite declared for a type that is not a rewritable module
// page-section: Modules
// page-title: A module rewrite for something that is not a module
// page-order: 10
// page-snippet:
// | struct plain_layer { int forward(int x) const { return x; } };
// | template <> struct retarget::module_rewrite<plain_layer> : retarget::wrap_with<wrapper> {};
// page-meaning:
// | Only types derived from `retarget::rewritable_module` go through module selection when called;
// | a rewrite of any other type would never run.
// page-fix:
// | Derive the module from `retarget::rewritable_module<Self, "Name">`.
#include "common.hpp"

struct plain_layer {
  int forward(int x) const { return x; }
};
struct wrapper {
  wrapper(const auto&, const auto&) {}
  int forward(int x) const { return x; }
};

#ifdef RETARGET_COMPILE_FAIL
template <>
struct retarget::module_rewrite<plain_layer> : retarget::wrap_with<wrapper> {};
#else
template <>
struct retarget::module_rewrite<upsample> : retarget::wrap_with<wrapper> {};
#endif

int main() {}
