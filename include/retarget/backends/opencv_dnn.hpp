// The opencv_dnn package: OpenCV 4.6's DNN module, in process. The tag and its rewrites need
// no OpenCV; the manager runs models where OpenCV is linked (target retarget::opencv_dnn),
// and custom-op kernels (layer.hpp) need OpenCV.
#ifndef RETARGET_BACKENDS_OPENCV_DNN_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_HPP

#include <retarget/backends/opencv_dnn/backend.hpp>
// The conversion package, which the tag only declares with retarget::compiled.
#include <retarget/backends/opencv_dnn/convert.hpp>
#include <retarget/backends/opencv_dnn/manager.hpp>
#include <retarget/backends/opencv_dnn/param.hpp>
#if RETARGET_HAS_OPENCV_DNN
#include <retarget/backends/opencv_dnn/layer.hpp>
#endif

#endif  // RETARGET_BACKENDS_OPENCV_DNN_HPP
