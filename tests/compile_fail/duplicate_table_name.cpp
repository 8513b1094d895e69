// A string-keyed table with one name twice.
// expect: static assertion failed.*duplicate name in a string-keyed table
#include "common.hpp"

constexpr auto table = retarget::make_string_table<
    retarget::entry<"Conv", 1>, retarget::entry<"Relu", 2>,
#ifdef RETARGET_COMPILE_FAIL
    retarget::entry<"Conv", 3>>();
#else
    retarget::entry<"Gemm", 3>>();
#endif

int main() { return table.at("Conv") == 1 ? 0 : 1; }
