// The opencv_dnn manager: OpenCV 4.6's DNN module, in process. It runs where retarget is built
// with OpenCV (the target retarget::opencv_dnn defines RETARGET_HAS_OPENCV_DNN and links
// OpenCV); elsewhere the manager is there but not available, and says why.
#ifndef RETARGET_BACKENDS_OPENCV_DNN_MANAGER_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_MANAGER_HPP

#include <filesystem>
#include <map>
#include <retarget/backend/manager.hpp>
#include <retarget/backends/opencv_dnn/backend.hpp>
#include <retarget/backends/opencv_dnn/param.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/options/json.hpp>
#include <set>
#include <string>
#include <vector>

#if RETARGET_HAS_OPENCV_DNN
#include <algorithm>
#include <cstring>
#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>
#endif

// Its param is read once, in retarget::compiled.
RETARGET_OPTIONS_READ_ONCE(retarget::backends::opencv_dnn_param);

namespace retarget::backends {

#if RETARGET_HAS_OPENCV_DNN

namespace detail {

// OpenCV's DNN takes and gives float32 Mats of any rank. A float64 input is given as float32,
// as OpenCV's own input layer would make it: the net computes in float32 whatever it is fed.
// Integers and bools are refused: OpenCV would compute with them as floats, which an integer
// op (a division, an overflow) does not.
inline cv::Mat to_mat(const ir::tensor& t, const std::string& name) {
  if (t.type() != ir::dtype::f32 && t.type() != ir::dtype::f64)
    throw error("retarget: opencv_dnn: input '" + name + "' is " +
                std::string(to_string(t.type())) + "; OpenCV's DNN takes float32 (or float64)");
  const auto dims = t.dims();
  std::vector<int> sizes(dims.begin(), dims.end());
  if (sizes.empty()) sizes.push_back(1);
  cv::Mat m(static_cast<int>(sizes.size()), sizes.data(), CV_32F);
  if (t.type() == ir::dtype::f64) {
    const auto values = ir::tensor_view(t).values<double>();
    if (values.size() != m.total())
      throw error("retarget: opencv_dnn: input '" + name + "' holds " +
                  std::to_string(values.size()) + " values for its dims' " +
                  std::to_string(m.total()));
    std::transform(values.begin(), values.end(), m.ptr<float>(),
                   [](double v) { return static_cast<float>(v); });
    return m;
  }
  if (const auto bytes = t.raw_bytes(); bytes.size() == m.total() * sizeof(float)) {
    std::memcpy(m.ptr(), bytes.data(), bytes.size());
    return m;
  }
  // Values in the typed field (float_data), as a hand-made tensor may hold them.
  const auto values = ir::tensor_view(t).values<float>();
  if (values.size() != m.total())
    throw error("retarget: opencv_dnn: input '" + name + "' holds " +
                std::to_string(values.size()) + " values for its dims' " +
                std::to_string(m.total()));
  std::memcpy(m.ptr(), values.data(), values.size() * sizeof(float));
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
    // A graph output that other nodes read too (an intermediate value asked for, as a
    // bisection does) is no unconnected layer: it is asked for by name, where a layer gives it.
    const auto stored = ir::read_model_file(model);
    // An input no node reads is not fed: OpenCV has no layer for it to go to.
    for (const auto& n : stored.nodes())
      for (const auto& in : n.inputs()) read_.insert(in);
    for (auto& declared : ir::outputs_of(stored)) {
      if (std::find(outputs_.begin(), outputs_.end(), declared.name) == outputs_.end() &&
          net_.getLayerId(declared.name) >= 0)
        outputs_.push_back(declared.name);
      declared_.emplace(declared.name, std::move(declared));
    }
  }

  retarget::backend::tensor_map run(const retarget::backend::tensor_map& inputs) {
    try {
      for (const auto& [name, t] : inputs)
        if (read_.count(name)) net_.setInput(detail::to_mat(t, name), name);
      std::vector<cv::Mat> results;
      net_.forward(results, outputs_);
      retarget::backend::tensor_map out;
      // OpenCV gives a 1-D output as [N, 1] and integers as floats: each output goes back in
      // the dims and type the model declares.
      for (std::size_t i = 0; i < outputs_.size(); ++i) {
        auto t = detail::to_tensor(results[i]);
        if (const auto d = declared_.find(outputs_[i]); d != declared_.end())
          t = ir::as_declared(d->second, std::move(t));
        out.emplace(outputs_[i], std::move(t));
      }
      return out;
    } catch (const cv::Exception& e) {
      throw error(std::string("retarget: opencv_dnn: ") + e.what());
    }
  }

 private:
  cv::dnn::Net net_;
  std::vector<std::string> outputs_;
  std::map<std::string, ir::model_output> declared_;
  std::set<std::string> read_;
};

#else

// Built without OpenCV: nothing can run, and the error says so.
struct opencv_dnn_wrapper {
  retarget::backend::tensor_map run(const retarget::backend::tensor_map&) {
    throw error("retarget: opencv_dnn: " + std::string(not_built_in));
  }
  static constexpr std::string_view not_built_in =
      "retarget was built without OpenCV's DNN module (link retarget::opencv_dnn)";
};

#endif

struct opencv_dnn_manager {
  using backend = backends::opencv_dnn;
  using param = opencv_dnn_param;

#if RETARGET_HAS_OPENCV_DNN
  static bool is_available() { return true; }  // linked in
  static std::string version() { return "OpenCV " CV_VERSION " DNN"; }
  static std::string check_env() {
    return "OpenCV " CV_VERSION ", DNN module linked in; runs on the CPU";
  }
#else
  static bool is_available() { return false; }
  static std::string version() { return "not built in"; }
  static std::string check_env() { return std::string(opencv_dnn_wrapper::not_built_in); }
#endif
  static retarget::backend::file_list model_files(const param& p) {
    return {std::filesystem::path(*p.work_dir) / p.file_name.resolved()};
  }
  static retarget::backend::file_list to_backend(const std::filesystem::path& onnx_file,
                                                 const param& p) {
    return retarget::backend::copy_model_into_place(onnx_file, model_files(p).front());
  }
  static opencv_dnn_wrapper build_wrapper(const retarget::backend::file_list& files, const param&) {
    if (files.empty()) throw error("retarget: opencv_dnn needs the model file");
#if RETARGET_HAS_OPENCV_DNN
    return opencv_dnn_wrapper(files.front());
#else
    throw error("retarget: opencv_dnn: " + std::string(opencv_dnn_wrapper::not_built_in));
#endif
  }
  static param param_from_config(const boost::json::value& j, const std::string& where) {
    return options::from_json<param>(j, where);
  }
};

}  // namespace retarget::backends

#endif  // RETARGET_BACKENDS_OPENCV_DNN_MANAGER_HPP
