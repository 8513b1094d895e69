// A module rewrite declared for a type that is not a rewritable module.
// expect: static assertion failed.*module_rewrite declared for a type that is not a rewritable module
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
