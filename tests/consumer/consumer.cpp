// A program outside the project that uses retarget as a user would.
#include <cstdio>
#include <retarget/retarget.hpp>

inline constexpr struct twice_fn : retarget::rewritable<twice_fn, "twice"> {
  int origin(int x) const { return 2 * x; }
} twice;

template <>
struct retarget::function_rewrite<twice_fn, retarget::backends::tensorrt> {
  static int call(const auto& ctx, int x) { return ctx.origin(x) + 1; }
};

int main() {
  const int plain = twice(20);
  const int trt = retarget::call<retarget::backends::tensorrt10>(twice, 20);
  std::printf("twice: %d, for tensorrt10: %d\n", plain, trt);
  return plain == 40 && trt == 41 ? 0 : 1;
}
