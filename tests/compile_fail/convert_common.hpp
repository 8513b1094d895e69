// What the converter's compile-fail cases share: a backend tag and the pattern literals.
#ifndef RETARGET_TESTS_COMPILE_FAIL_CONVERT_COMMON_HPP
#define RETARGET_TESTS_COMPILE_FAIL_CONVERT_COMMON_HPP

#include <retarget/convert/convert.hpp>

using namespace retarget::literals;
using namespace retarget::convert::literals;
namespace rc = retarget::convert;
namespace rx = retarget::ir;

struct my_engine : retarget::backend_tag<"my_engine"> {};

#endif
