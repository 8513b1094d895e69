// The opencv_dnn backend tag and every rewrite retarget ships for it, active wherever the tag
// is visible. Needs no OpenCV: exporting for OpenCV's DNN module and running there are
// separate (the manager, in manager.hpp, links OpenCV).
//
// OpenCV 4.6 refuses Resize in cubic mode and Resize whose scales are a graph input, so every
// nn::Upsample becomes, for opencv_dnn, a bilinear one with its constant scales (nearest stays
// nearest), as the seeds' SRCNNWrapper does.
//
// The rewrites for existing models (convert.hpp, the conversion package) come with the tag
// header-only. With retarget::compiled they are compiled into the library: the tag declares
// them and their compiled entry points, so convert<opencv_dnn> and `check --backend` run every
// rule from a unit that includes only the tag, which stays light to include.
#ifndef RETARGET_BACKENDS_OPENCV_DNN_BACKEND_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_BACKEND_HPP

#include <retarget/core/backend.hpp>
#include <retarget/core/config.hpp>
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

#if defined(RETARGET_SEPARATE_COMPILATION)
#include <retarget/convert/fwd.hpp>

// The conversion package's specializations, declared in every unit that sees the tag and
// defined by convert.hpp, which src/compiled.cpp compiles.
template <>
struct retarget::convert::rules_for<retarget::backends::opencv_dnn>;
template <>
struct retarget::convert::quirks_for<retarget::backends::opencv_dnn>;
template <>
struct retarget::convert::node_rewrite<"Clip", retarget::backends::opencv_dnn, void>;
template <>
struct retarget::convert::node_rewrite<"LayerNormalization", retarget::backends::opencv_dnn, void>;
template <>
struct retarget::convert::node_rewrite<"Pad", retarget::backends::opencv_dnn, void>;
template <>
struct retarget::convert::node_rewrite<"Resize", retarget::backends::opencv_dnn, void>;

template <>
struct retarget::convert::compiled_package<retarget::backends::opencv_dnn> {
  // The ops of the node rewrites declared above, sorted: no other can be declared for the tag
  // (node_rewrite.hpp), and a test checks that the package defines these and no more.
  static constexpr std::string_view node_rewrite_ops[] = {"Clip", "LayerNormalization", "Pad",
                                                          "Resize"};
  static package_hooks hooks();
  static void check(const refusal_context& model, std::vector<refusal>& out);
  static std::span<const std::string_view> approximation_names();
};
#endif

#if defined(RETARGET_COMPILED_DEFINITIONS)
// The rewrites for existing models, active with the tag like those above.
#include <retarget/backends/opencv_dnn/convert.hpp>
#endif

#endif  // RETARGET_BACKENDS_OPENCV_DNN_BACKEND_HPP
