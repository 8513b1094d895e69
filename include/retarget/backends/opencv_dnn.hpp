// The opencv_dnn package: OpenCV 4.6's DNN module, in process. The tag and its rewrites need
// no OpenCV; the manager runs models where OpenCV is linked (target retarget::opencv_dnn),
// and custom-op kernels (layer.hpp) need OpenCV.
#ifndef RETARGET_BACKENDS_OPENCV_DNN_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_HPP

#include <retarget/backends/opencv_dnn/backend.hpp>
// The conversion package. With retarget::compiled the tag declares it and the library defines
// it, so that every unit of the package's users does not compile its rules again; a unit that
// converts for a backend of one's own which falls back to opencv_dnn includes it (convert<B>
// says so where it is missing).
#if !defined(RETARGET_SEPARATE_COMPILATION)
#include <retarget/backends/opencv_dnn/convert.hpp>
#endif
#include <retarget/backends/opencv_dnn/manager.hpp>
#include <retarget/backends/opencv_dnn/param.hpp>
#if RETARGET_HAS_OPENCV_DNN
#include <retarget/backends/opencv_dnn/layer.hpp>
#endif

#endif  // RETARGET_BACKENDS_OPENCV_DNN_HPP
