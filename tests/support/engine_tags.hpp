// Engine tags for the tests of core/, which knows no engine: the same names and fallbacks as
// the shipped packages declare, without pulling in their rewrites, ONNX or the tracer.
#ifndef RETARGET_TESTS_SUPPORT_ENGINE_TAGS_HPP
#define RETARGET_TESTS_SUPPORT_ENGINE_TAGS_HPP

#include <retarget/core/backend.hpp>

namespace engines {

using retarget::backends::default_;
struct onnxruntime : retarget::backend_tag<"onnxruntime"> {};
struct opencv_dnn : retarget::backend_tag<"opencv_dnn"> {};
struct tensorrt : retarget::backend_tag<"tensorrt"> {};
struct tensorrt10 : retarget::backend_tag<"tensorrt10", tensorrt> {};

}  // namespace engines

#endif  // RETARGET_TESTS_SUPPORT_ENGINE_TAGS_HPP
