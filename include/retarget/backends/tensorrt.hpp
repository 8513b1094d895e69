// The tensorrt package: TensorRT's ONNX dialect (tags and rewrites) and engine builds through
// trtexec where TensorRT is installed.
#ifndef RETARGET_BACKENDS_TENSORRT_HPP
#define RETARGET_BACKENDS_TENSORRT_HPP

#include <retarget/backends/tensorrt/backend.hpp>
#include <retarget/backends/tensorrt/manager.hpp>
#include <retarget/backends/tensorrt/param.hpp>

#endif  // RETARGET_BACKENDS_TENSORRT_HPP
