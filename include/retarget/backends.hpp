// The engines retarget ships, as one list that the tool's commands, `deploy` and
// `retarget backends` all read. Each engine's package (retarget/backends/NAME.hpp) holds its
// tag, every rewrite for it, its param, its manager and its runtime assets.
#ifndef RETARGET_BACKENDS_HPP
#define RETARGET_BACKENDS_HPP

#include <retarget/backend/manager.hpp>
#include <retarget/backends/onnxruntime.hpp>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/backends/tensorrt.hpp>

namespace retarget::backends {

// In the order they are listed. opencv_dnn is always listed; where retarget is built without
// OpenCV its manager reports that it is not available, and why.
using shipped = backend::manager_list<onnxruntime_manager, opencv_dnn_manager, tensorrt_manager>;

}  // namespace retarget::backends

#endif  // RETARGET_BACKENDS_HPP
