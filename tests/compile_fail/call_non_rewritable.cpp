// retarget::call with a plain function object.
// expect: static assertion failed.*retarget::call needs a rewritable
// page-section: Calls
// page-title: `retarget::call` on a plain function object
// page-order: 20
// page-snippet:
// | inline constexpr not_rewritable fn;
// | retarget::call<bk::tensorrt>(fn, 1);
// page-meaning:
// | `retarget::call` dispatches rewritables; a plain callable has no rewrites to select.
// page-fix:
// | Derive it from `retarget::rewritable` (or `symbolic_op`), or call it directly.
#include "common.hpp"

#ifdef RETARGET_COMPILE_FAIL
inline constexpr not_rewritable fn;
#else
inline constexpr auto& fn = scale;
#endif

int main() { return retarget::call<bk::tensorrt>(fn, 1) > 0 ? 0 : 1; }
