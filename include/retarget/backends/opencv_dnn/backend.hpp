// The opencv_dnn backend tag and every rewrite retarget ships for it, active wherever the tag
// is visible. Needs no OpenCV: exporting for OpenCV's DNN module and running there are
// separate (the manager, in manager.hpp, links OpenCV).
//
// OpenCV 4.6 refuses Resize in cubic mode and Resize whose scales are a graph input, so every
// nn::Upsample becomes, for opencv_dnn, a bilinear one with its constant scales (nearest stays
// nearest), as the seeds' SRCNNWrapper does.
#ifndef RETARGET_BACKENDS_OPENCV_DNN_BACKEND_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_BACKEND_HPP

#include <retarget/core/backend.hpp>
#include <retarget/core/module.hpp>
#include <retarget/nn/upsample.hpp>

namespace retarget::backends {

struct opencv_dnn : backend_tag<"opencv_dnn"> {};

struct opencv_dnn_upsample {
  nn::Upsample replacement;
  opencv_dnn_upsample(const nn::Upsample& original, const auto&)
      : replacement([&] {
          auto o = original.options;
          if (o.mode == "bicubic") o.mode = "bilinear";
          return o;
        }()) {}
  template <class B>
  trace::tensor<B> forward(const trace::tensor<B>& x) const {
    return replacement.forward(x);
  }
};

}  // namespace retarget::backends

template <>
struct retarget::module_rewrite<retarget::nn::Upsample, retarget::backends::opencv_dnn>
    : retarget::wrap_with<retarget::backends::opencv_dnn_upsample> {};

// The rewrites for existing models, active with the tag like those above.
#include <retarget/backends/opencv_dnn/convert.hpp>

#endif  // RETARGET_BACKENDS_OPENCV_DNN_BACKEND_HPP
