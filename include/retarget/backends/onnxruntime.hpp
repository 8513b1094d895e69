// The onnxruntime package: ONNX Runtime 1.30 through its official Node.js binding
// (onnxruntime-node), in a worker process (the package's worker/ folder).
#ifndef RETARGET_BACKENDS_ONNXRUNTIME_HPP
#define RETARGET_BACKENDS_ONNXRUNTIME_HPP

#include <retarget/backends/onnxruntime/backend.hpp>
#include <retarget/backends/onnxruntime/manager.hpp>
#include <retarget/backends/onnxruntime/param.hpp>

#endif  // RETARGET_BACKENDS_ONNXRUNTIME_HPP
