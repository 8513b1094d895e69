// What a deploy config or a command line sets for the opencv_dnn backend.
#ifndef RETARGET_BACKENDS_OPENCV_DNN_PARAM_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_PARAM_HPP

#include <boost/describe/class.hpp>
#include <retarget/options/field.hpp>
#include <string>

namespace retarget::backends {

struct opencv_dnn_param {
  options::field<std::string, "The working directory: where the model files go."> work_dir{"."};
  options::file_field<".onnx", "File name of the model; .onnx is added when missing."> file_name{
      "end2end"};
};
BOOST_DESCRIBE_STRUCT(opencv_dnn_param, (), (work_dir, file_name))

}  // namespace retarget::backends

#endif  // RETARGET_BACKENDS_OPENCV_DNN_PARAM_HPP
