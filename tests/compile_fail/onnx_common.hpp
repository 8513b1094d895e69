// What the emitter's compile-fail cases share.
#ifndef RETARGET_TESTS_COMPILE_FAIL_ONNX_COMMON_HPP
#define RETARGET_TESTS_COMPILE_FAIL_ONNX_COMMON_HPP

#include <retarget/ir.hpp>

using namespace retarget::literals;
namespace rx = retarget::ir;

#endif
