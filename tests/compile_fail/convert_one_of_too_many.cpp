// rc::one_of given more values than a test holds.
// expect: rc::one_of allows at most 8 values
// page-section: Conversion rules
// page-title: rc::one_of with more than 8 values
// page-order: 55
// page-snippet:
// | rc::one_of("axis"_i, {0, 1, 2, 3, 4, 5, 6, 7, 8})
// page-meaning:
// | A test holds up to 8 allowed values, stored in the pattern's data.
// page-fix:
// | Test a range or a longer list in the rule's `condition`.
#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
constexpr auto pattern =
    rc::op<"Softmax">("x"_v).where(rc::one_of("axis"_i, {0, 1, 2, 3, 4, 5, 6, 7, 8}));
#else
constexpr auto pattern = rc::op<"Softmax">("x"_v).where(rc::one_of("axis"_i, {0, 1, 2, 3}));
#endif

int main() { return pattern.tests.size() == 1 ? 0 : 1; }
