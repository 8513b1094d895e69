// The onnxruntime backend tag. ONNX Runtime runs standard ONNX as it is, so the package has
// no rewrites; a backend that falls back to it gets the default rewrites.
#ifndef RETARGET_BACKENDS_ONNXRUNTIME_BACKEND_HPP
#define RETARGET_BACKENDS_ONNXRUNTIME_BACKEND_HPP

#include <retarget/core/backend.hpp>

namespace retarget::backends {

struct onnxruntime : backend_tag<"onnxruntime"> {};

}  // namespace retarget::backends

#endif  // RETARGET_BACKENDS_ONNXRUNTIME_BACKEND_HPP
