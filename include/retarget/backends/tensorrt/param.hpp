// What a deploy config or a command line sets for the tensorrt backend: the builder's settings
// and the range of input shapes, spelled as in MMDeploy's TensorRT configs.
#ifndef RETARGET_BACKENDS_TENSORRT_PARAM_HPP
#define RETARGET_BACKENDS_TENSORRT_PARAM_HPP

#include <boost/describe/class.hpp>
#include <cstdint>
#include <map>
#include <retarget/options/field.hpp>
#include <string>
#include <vector>

namespace retarget::backends {

// The builder's settings, spelled as in MMDeploy's TensorRT configs.
struct tensorrt_common_config {
  options::field<bool, "Build the engine in FP16."> fp16_mode{false};
  options::field<std::int64_t, "The builder's workspace, in bytes."> max_workspace_size{
      std::int64_t{1} << 30};
};
BOOST_DESCRIBE_STRUCT(tensorrt_common_config, (), (fp16_mode, max_workspace_size))

// The range of shapes an engine accepts for one input.
struct tensorrt_input_shape {
  std::vector<std::int64_t> min_shape, opt_shape, max_shape;
};
BOOST_DESCRIBE_STRUCT(tensorrt_input_shape, (), (min_shape, opt_shape, max_shape))

struct tensorrt_model_input {
  std::map<std::string, tensorrt_input_shape> input_shapes;
};
BOOST_DESCRIBE_STRUCT(tensorrt_model_input, (), (input_shapes))

struct tensorrt_param {
  options::field<std::string, "The working directory: where the engine goes."> work_dir{"."};
  options::file_field<".engine",
                      "File name of the serialized engine; .engine is added when missing.">
      file_name{"end2end"};
  options::field<tensorrt_common_config, "Builder settings: fp16_mode, max_workspace_size (bytes).">
      common_config;
  options::field<std::vector<tensorrt_model_input>,
                 "Per model: input_shapes, each input's min_shape, opt_shape and max_shape.">
      model_inputs;
};

BOOST_DESCRIBE_STRUCT(tensorrt_param, (), (work_dir, file_name, common_config, model_inputs))

}  // namespace retarget::backends

#endif  // RETARGET_BACKENDS_TENSORRT_PARAM_HPP
