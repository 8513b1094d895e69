// A string-keyed table with one name twice.
// expect: static assertion failed.*duplicate name in a string-keyed table
// page-section: String-keyed tables
// page-title: A duplicate name in a table
// page-order: 10
// page-snippet:
// | constexpr auto table = retarget::make_string_table<
// |     retarget::entry<"Conv", 1>, retarget::entry<"Relu", 2>, retarget::entry<"Conv", 3>>();
// page-meaning:
// | Two entries have the same name, so a lookup could not tell which one was meant.
// page-fix:
// | Remove or rename one.
#include "common.hpp"

#ifdef RETARGET_COMPILE_FAIL
using third = retarget::entry<"Conv", 3>;
#else
using third = retarget::entry<"Gemm", 3>;
#endif

constexpr auto table =
    retarget::make_string_table<retarget::entry<"Conv", 1>, retarget::entry<"Relu", 2>, third>();

int main() { return table.at("Conv") == 1 ? 0 : 1; }
