// A pattern's attribute test reads an attribute as another kind than its schema's.
// expect: attribute kind in where\(\) does not match the pattern op's schema
// page-section: Conversion rules
// page-title: An attribute test of the wrong kind
// page-order: 53
// page-snippet:
// | constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v).where("alpha"_i == 1);
// page-meaning:
// | Gemm's `alpha` is a FLOAT; `_i` tests an INT. A test of another kind would never pass.
// page-fix:
// | Use the literal of the attribute's kind: `_i` for INT, `_f` for FLOAT, `_s` for STRING
// | (`"alpha"_f == 1.0f`).
#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v).where("alpha"_i == 1);
#else
constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_v).where("alpha"_f == 1.0f);
#endif

int main() { return pattern.tests.size() == 1 ? 0 : 1; }
