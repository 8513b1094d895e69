// What a deploy config or a command line sets for the onnxruntime backend.
#ifndef RETARGET_BACKENDS_ONNXRUNTIME_PARAM_HPP
#define RETARGET_BACKENDS_ONNXRUNTIME_PARAM_HPP

#include <boost/describe/class.hpp>
#include <retarget/options/field.hpp>
#include <string>

namespace retarget::backends {

struct onnxruntime_param {
  options::field<std::string, "The working directory: where the model files go."> work_dir{"."};
  options::file_field<".onnx", "File name of the model; .onnx is added when missing."> file_name{
      "end2end"};
  options::field<std::string,
                 "The folder of the ONNX Runtime worker (worker.js and its node_modules); "
                 "empty: $RETARGET_ORT_DIR, else the one installed with retarget">
      runtime_dir;
  options::field<std::string,
                 "ONNX Runtime's graph optimizations: all (its default), extended, basic or "
                 "disabled (each kernel as the model writes it)">
      graph_optimization{"all"};
};
BOOST_DESCRIBE_STRUCT(onnxruntime_param, (), (work_dir, file_name, runtime_dir, graph_optimization))

}  // namespace retarget::backends

#endif  // RETARGET_BACKENDS_ONNXRUNTIME_PARAM_HPP
