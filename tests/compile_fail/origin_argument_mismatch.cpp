// A rewritable called with arguments its origin does not take, and no rewrite in the way.
// expect: static assertion failed.*the origin of this rewritable cannot take these arguments
// page-section: Rewrites
// page-title: A rewritable called with arguments its origin does not take
// page-order: 90
// page-snippet:
// | inline constexpr struct scale_fn : retarget::rewritable<scale_fn, "scale"> {
// |   int origin(int x) const { return 2 * x; }
// | } scale;
// | scale(std::string("x"));   // no rewrite: the origin runs, and takes an int
// page-meaning:
// | Nothing rewrites this call (or a rewrite called `ctx.origin(...)`), and the origin cannot take
// | the arguments.
// page-fix:
// | Call it with what `origin` takes, or give `origin` an overload for these arguments.
#include <string>

#include "common.hpp"

int main() {
#ifdef RETARGET_COMPILE_FAIL
  return scale(std::string("x")) == 2 ? 0 : 1;
#else
  return scale(1) == 2 ? 0 : 1;
#endif
}
