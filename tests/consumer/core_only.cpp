// A program that uses retarget's core only, found with find_package(retarget COMPONENTS core)
// on a configuration where ONNX and protobuf cannot be found at all.
#include <retarget/core.hpp>

struct my_engine : retarget::backend_tag<"my_engine"> {};
struct my_engine2 : retarget::backend_tag<"my_engine2", my_engine> {};

inline constexpr struct twice_fn : retarget::rewritable<twice_fn, "twice"> {
  int origin(int x) const { return 2 * x; }
} twice;

template <>
struct retarget::function_rewrite<twice_fn, my_engine> {
  static int call(const auto& ctx, int x) { return ctx.origin(x) + 1; }
};

int main() { return twice(20) == 40 && retarget::call<my_engine2>(twice, 20) == 41 ? 0 : 1; }
