// where() given something that is not an attribute test.
// expect: where\(\) takes attribute tests
// page-section: Conversion rules
// page-title: where() given something that is not an attribute test
// page-order: 54
// page-snippet:
// | constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v).where("transB"_i = 1);
// page-meaning:
// | `"transB"_i = 1` is an attribute to write (what `g.op` takes); a pattern tests one with `==`.
// page-fix:
// | Write the test with `==`, or with `rc::one_of("name"_i, {...})`.
#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v).where("transB"_i = 1);
#else
constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v).where("transB"_i == 1);
#endif

int main() { return pattern.tests.size() == 1 ? 0 : 1; }
