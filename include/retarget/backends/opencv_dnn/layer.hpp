// C++ kernels for custom-domain ops on OpenCV's DNN module, as plugins are for other engines.
// Needs OpenCV (the target retarget::opencv_dnn).
#ifndef RETARGET_BACKENDS_OPENCV_DNN_LAYER_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_LAYER_HPP

#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/dnn/layer.hpp>
#include <retarget/ir/schema.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::backends {

// A C++ kernel for a custom-domain op, as an OpenCV DNN layer. Derive from
// opencv_layer<Self>, give it
//   std::vector<int> output_shape(const std::vector<std::vector<int>>& input_shapes) const;
//   void compute(const std::vector<cv::Mat>& inputs, cv::Mat& output) const;
// and register it once for the op: opencv_layer<Self>::register_as("mydomain::AXPB").
// output_shape may be static, or read the layer's attributes and its constant inputs, which
// OpenCV hands to the layer as `blobs` rather than as inputs.
template <class Derived>
class opencv_layer : public cv::dnn::Layer {
 public:
  explicit opencv_layer(const cv::dnn::LayerParams& params) { setParamsFrom(params); }

  // OpenCV's ONNX importer names a custom-domain layer type "domain.Op".
  static void register_as(std::string_view op) {
    const auto [domain, type] = ir::split_op_name(op);
    const std::string layer_type =
        domain.empty() ? std::string(type) : std::string(domain) + "." + std::string(type);
    cv::dnn::LayerFactory::registerLayer(
        layer_type, [](cv::dnn::LayerParams& params) -> cv::Ptr<cv::dnn::Layer> {
          return cv::Ptr<cv::dnn::Layer>(new Derived(params));
        });
  }

  bool getMemoryShapes(const std::vector<cv::dnn::MatShape>& inputs, const int,
                       std::vector<cv::dnn::MatShape>& outputs,
                       std::vector<cv::dnn::MatShape>&) const override {
    std::vector<std::vector<int>> shapes(inputs.begin(), inputs.end());
    outputs.assign(1, static_cast<const Derived&>(*this).output_shape(shapes));
    return false;
  }

  void forward(cv::InputArrayOfArrays inputs_arr, cv::OutputArrayOfArrays outputs_arr,
               cv::OutputArrayOfArrays) override {
    std::vector<cv::Mat> inputs, outputs;
    inputs_arr.getMatVector(inputs);
    outputs_arr.getMatVector(outputs);
    static_cast<const Derived&>(*this).compute(inputs, outputs[0]);
  }
};

}  // namespace retarget::backends

#endif  // RETARGET_BACKENDS_OPENCV_DNN_LAYER_HPP
