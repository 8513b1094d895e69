// The opencv_dnn backend: OpenCV 4.6's DNN module, in process (target retarget::opencv_dnn).
//
// OpenCV 4.6 refuses Resize in cubic mode and Resize whose scales are a graph input. This
// header ships the rewrite that makes the tutorial model run there: every nn::Upsample is
// replaced, for opencv_dnn, by a bilinear one with its constant scales. And custom-domain
// ops get a C++ kernel through opencv_layer, as plugins do for other engines.
#ifndef RETARGET_BACKEND_OPENCV_DNN_HPP
#define RETARGET_BACKEND_OPENCV_DNN_HPP

#include <cstring>
#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>
#include <opencv2/dnn/layer.hpp>
#include <retarget/backend/manager.hpp>
#include <retarget/backend/param.hpp>
#include <retarget/core/backend.hpp>
#include <retarget/core/module.hpp>
#include <retarget/ir/schema.hpp>
#include <retarget/trace/nn.hpp>
#include <string>
#include <vector>

namespace retarget::backend {

struct opencv_dnn_param {
  field<std::string, "The working directory: where the model files go."> work_dir{"."};
  file_field<".onnx", "File name of the model; .onnx is added when missing."> file_name{"end2end"};
};
BOOST_DESCRIBE_STRUCT(opencv_dnn_param, (), (work_dir, file_name))

namespace detail {

inline cv::Mat to_mat(const ir::tensor& t, const std::string& name) {
  if (t.type() != ir::dtype::f32)
    throw error("retarget: opencv_dnn: input '" + name + "' is " +
                std::string(to_string(t.type())) + "; OpenCV's DNN takes float32");
  const auto dims = t.dims();
  std::vector<int> sizes(dims.begin(), dims.end());
  if (sizes.empty()) sizes.push_back(1);
  cv::Mat m(static_cast<int>(sizes.size()), sizes.data(), CV_32F);
  std::memcpy(m.ptr(), t.proto().raw_data().data(), t.proto().raw_data().size());
  return m;
}

inline ir::tensor to_tensor(const cv::Mat& m) {
  cv::Mat f;
  m.convertTo(f, CV_32F);
  ir::dims_t dims;
  for (int i = 0; i < f.dims; ++i) dims.push_back(f.size[i]);
  const auto* p = reinterpret_cast<const std::byte*>(f.ptr());
  return ir::tensor::from_raw(ir::dtype::f32, dims, {p, f.total() * sizeof(float)});
}

}  // namespace detail

class opencv_dnn_wrapper {
 public:
  explicit opencv_dnn_wrapper(const std::filesystem::path& model) {
    // OpenCV logs the failure it then throws; the exception is enough, in retarget's words.
    const auto level = cv::utils::logging::getLogLevel();
    cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
    try {
      net_ = cv::dnn::readNetFromONNX(model.string());
    } catch (const cv::Exception& e) {
      cv::utils::logging::setLogLevel(level);
      throw error("retarget: opencv_dnn cannot load " + model.string() + ": " + e.what());
    }
    cv::utils::logging::setLogLevel(level);
    outputs_ = net_.getUnconnectedOutLayersNames();
  }

  tensor_map run(const tensor_map& inputs) {
    try {
      for (const auto& [name, t] : inputs) net_.setInput(detail::to_mat(t, name), name);
      std::vector<cv::Mat> results;
      net_.forward(results, outputs_);
      tensor_map out;
      for (std::size_t i = 0; i < outputs_.size(); ++i)
        out.emplace(outputs_[i], detail::to_tensor(results[i]));
      return out;
    } catch (const cv::Exception& e) {
      throw error(std::string("retarget: opencv_dnn: ") + e.what());
    }
  }

 private:
  cv::dnn::Net net_;
  std::vector<std::string> outputs_;
};

struct opencv_dnn_manager {
  using backend = backends::opencv_dnn;
  using param = opencv_dnn_param;

  static bool is_available() { return true; }  // linked in
  static std::string version() { return "OpenCV " CV_VERSION " DNN"; }
  static std::string check_env() {
    return "OpenCV " CV_VERSION ", DNN module linked in; runs on the CPU";
  }
  static file_list model_files(const param& p) {
    return {std::filesystem::path(*p.work_dir) / p.file_name.resolved()};
  }
  static file_list to_backend(const std::filesystem::path& onnx_file, const param& p) {
    return copy_model_into_place(onnx_file, model_files(p).front());
  }
  static opencv_dnn_wrapper build_wrapper(const file_list& files, const param&) {
    if (files.empty()) throw error("retarget: opencv_dnn needs the model file");
    return opencv_dnn_wrapper(files.front());
  }
  static param param_from_config(const boost::json::value& j, const std::string& where) {
    return from_json<param>(j, where);
  }
};

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

// OpenCV 4.6 has no cubic Resize: for opencv_dnn, Upsample resizes bilinearly (nearest stays
// nearest) with its constant scales, as the seeds' SRCNNWrapper does.
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

}  // namespace retarget::backend

template <>
struct retarget::module_rewrite<retarget::nn::Upsample, retarget::backends::opencv_dnn>
    : retarget::wrap_with<retarget::backend::opencv_dnn_upsample> {};

#endif  // RETARGET_BACKEND_OPENCV_DNN_HPP
