// A pattern op given more inputs than its schema allows.
// expect: pattern op is given more inputs than its schema allows
#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
constexpr auto pattern = rc::op<"Relu">("x"_v, "y"_v);
#else
constexpr auto pattern = rc::op<"Relu">("x"_v);
#endif

int main() { return pattern.op.size() == 4 ? 0 : 1; }
