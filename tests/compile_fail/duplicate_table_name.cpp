// A string-keyed table with one name twice.
// expect: static assertion failed.*duplicate name in a string-keyed table
#include "common.hpp"

#ifdef RETARGET_COMPILE_FAIL
using third = retarget::entry<"Conv", 3>;
#else
using third = retarget::entry<"Gemm", 3>;
#endif

constexpr auto table =
    retarget::make_string_table<retarget::entry<"Conv", 1>, retarget::entry<"Relu", 2>, third>();

int main() { return table.at("Conv") == 1 ? 0 : 1; }
