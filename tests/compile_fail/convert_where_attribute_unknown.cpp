// A pattern's attribute test names an attribute the op's schema does not have.
// expect: attribute name in where\(\) is not in the pattern op's schema
// page-section: Conversion rules
// page-title: An attribute test on an attribute the op does not have
// page-order: 52
// page-snippet:
// | constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v).where("transC"_i == 1);
// page-meaning:
// | `where()` tests the matched node's attributes; Gemm has `transA` and `transB`, no `transC`,
// | so no node could pass the test.
// page-fix:
// | Name an attribute of the op's schema (docs/reference lists them), or test it in `condition`.
#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v).where("transC"_i == 1);
#else
constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v).where("transB"_i == 1);
#endif

int main() { return pattern.tests.size() == 1 ? 0 : 1; }
