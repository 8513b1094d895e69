// The sections of a deploy config that retarget types itself, spelled as MMDeploy's:
// onnx_config (how the model is exported), codebase_config (what the model is) and
// partition_config (where it is cut, when the backend runs a part of it).
// backend_config is typed by its backend's manager.
#ifndef RETARGET_CONFIG_SECTIONS_HPP
#define RETARGET_CONFIG_SECTIONS_HPP

#include <boost/describe/class.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <retarget/options/field.hpp>
#include <string>
#include <vector>

namespace retarget::config {

// How the model is exported, spelled as MMDeploy's onnx_config.
struct onnx_config {
  options::field<std::string, "The intermediate representation: onnx."> type{"onnx"};
  options::field<std::int64_t, "The ONNX opset to export, 7 to 17."> opset_version{11};
  options::field<std::vector<std::string>, "Names of the model's inputs, in order."> input_names{
      std::vector<std::string>{"input"}};
  options::field<std::vector<std::string>, "Names of the model's outputs, in order."> output_names{
      std::vector<std::string>{"output"}};
  options::field<
      std::map<std::string, std::map<std::int64_t, std::string>>,
      "Per input or output name, its dynamic axes: {\"0\": \"batch\", \"2\": \"height\"}.">
      dynamic_axes;
  options::field<std::optional<std::vector<std::int64_t>>,
                 "The input's static size as [width, height]; null: the size of the test input.">
      input_shape;
  options::field<std::string, "File name of the exported model in the work dir."> save_file{
      "end2end.onnx"};
  options::field<bool, "Also list the weights as graph inputs, for engines that want them.">
      keep_initializers_as_inputs{false};
};
BOOST_DESCRIBE_STRUCT(onnx_config, (),
                      (type, opset_version, input_names, output_names, dynamic_axes, input_shape,
                       save_file, keep_initializers_as_inputs))

// What the model is, spelled as MMDeploy's codebase_config.
struct codebase_config {
  options::field<std::string, "The codebase the model comes from; tutorial: retarget's model zoo.">
      type{"tutorial"};
  options::field<std::string, "The model's task, e.g. SuperResolution."> task;
};
BOOST_DESCRIBE_STRUCT(codebase_config, (), (type, task))

// The part of the model the backend runs, spelled as an entry of MMDeploy's partition_cfg.
struct partition_part {
  options::field<std::string, "File name of the part the backend runs, in the work dir."> save_file{
      "partition0.onnx"};
  options::field<std::vector<std::string>,
                 "Where the part ends: the marks (or value names) it computes and the rest reads.">
      end;
};
BOOST_DESCRIBE_STRUCT(partition_part, (), (save_file, end))

// How the exported model is cut, spelled as MMDeploy's partition_config (its `type`, a
// preset of MMDeploy's codebases, is ignored): the backend runs the first part, ONNX Runtime
// the rest of the model.
struct partition_config {
  options::field<bool, "Export each trace::mark as a named value, for `end` to name."> apply_marks{
      true};
  options::field<std::vector<partition_part>,
                 "The parts: one, the part the backend runs; the rest of the model is the other.">
      partition_cfg;
};
BOOST_DESCRIBE_STRUCT(partition_config, (), (apply_marks, partition_cfg))

}  // namespace retarget::config

#endif  // RETARGET_CONFIG_SECTIONS_HPP
