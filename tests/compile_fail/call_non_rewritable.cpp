// retarget::call with a plain function object.
// expect: static assertion failed.*retarget::call needs a rewritable
#include "common.hpp"

#ifdef RETARGET_COMPILE_FAIL
inline constexpr not_rewritable fn;
#else
inline constexpr auto& fn = scale;
#endif

int main() { return retarget::call<bk::tensorrt>(fn, 1) > 0 ? 0 : 1; }
