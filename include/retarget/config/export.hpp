// What a deploy config's onnx_config means for an export: the inputs' specs (names, static
// sizes, dynamic axes) and the export options (the rest), which the export applies as it
// builds the model.
//
//   const auto cfg = retarget::config::load_deploy_config(path);
//   auto result = retarget::export_onnx<B>(model, {config::input_spec_for(cfg, 0, 1, f32, dims)},
//                                         config, config::export_options_for(cfg));
//   result.model.check();
#ifndef RETARGET_CONFIG_EXPORT_HPP
#define RETARGET_CONFIG_EXPORT_HPP

#include <algorithm>
#include <cstdint>
#include <retarget/config/deploy_config.hpp>
#include <retarget/core/closest_names.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/trace/export.hpp>
#include <string>
#include <vector>

namespace retarget::config {

// The spec of input `index`: its name from input_names, the test input's shape with
// input_shape's [width, height] as the last two dims, and dynamic_axes' names.
inline input_spec input_spec_for(const deploy_config& cfg, std::size_t index, std::size_t count,
                                 ir::dtype type, const std::vector<std::int64_t>& test_shape) {
  const auto& names = *cfg.onnx.input_names;
  if (names.size() != count)
    cfg.document.fail("onnx_config.input_names",
                      "lists " + std::to_string(names.size()) +
                          (names.size() == 1 ? " name" : " names") + ", but the model has " +
                          std::to_string(count) + (count == 1 ? " input" : " inputs"));
  input_spec spec{names[index], type, {}};
  for (auto d : test_shape) spec.shape.emplace_back(d);
  if (const auto& wh = *cfg.onnx.input_shape; wh && spec.shape.size() >= 2) {
    spec.shape[spec.shape.size() - 1] = (*wh)[0];
    spec.shape[spec.shape.size() - 2] = (*wh)[1];
  }
  if (const auto it = cfg.onnx.dynamic_axes->find(names[index]); it != cfg.onnx.dynamic_axes->end())
    for (const auto& [axis, name] : it->second) {
      if (axis < 0 || axis >= static_cast<std::int64_t>(spec.shape.size()))
        cfg.document.fail("onnx_config.dynamic_axes." + names[index] + "." + std::to_string(axis),
                          "is not an axis of input '" + names[index] + "', which has rank " +
                              std::to_string(spec.shape.size()));
      spec.shape[static_cast<std::size_t>(axis)] = name;
    }
  for (const auto& [name, axes] : *cfg.onnx.dynamic_axes)
    if (std::find(names.begin(), names.end(), name) == names.end() &&
        std::find(cfg.onnx.output_names->begin(), cfg.onnx.output_names->end(), name) ==
            cfg.onnx.output_names->end())
      cfg.document.fail("onnx_config.dynamic_axes." + name,
                        "names neither an input nor an output (closest: " +
                            retarget::join_names(retarget::closest_names(
                                name,
                                [&] {
                                  auto all = names;
                                  all.insert(all.end(), cfg.onnx.output_names->begin(),
                                             cfg.onnx.output_names->end());
                                  return all;
                                }())) +
                            ")");
  return spec;
}

// The opset, output names, the outputs' dynamic axes and keep_initializers_as_inputs, for
// the export itself to apply; an axis an output does not have is reported at its config key.
inline export_options export_options_for(const deploy_config& cfg) {
  export_options out;
  out.opset = static_cast<int>(*cfg.onnx.opset_version);
  out.output_names = *cfg.onnx.output_names;
  out.metadata.emplace_back("retarget:config", cfg.document.file().string());
  for (const auto& [name, axes] : *cfg.onnx.dynamic_axes)
    if (std::find(out.output_names.begin(), out.output_names.end(), name) != out.output_names.end())
      out.output_dynamic_axes.emplace(name, axes);
  out.initializers_as_inputs = *cfg.onnx.keep_initializers_as_inputs;
  out.apply_marks = cfg.partition && *cfg.partition->apply_marks;
  out.refuse = [document = cfg.document](const std::string& path, const std::string& problem) {
    const std::string option = "output_dynamic_axes.";
    document.fail(path.rfind(option, 0) == 0
                      ? "onnx_config.dynamic_axes." + path.substr(option.size())
                      : "onnx_config." + path,
                  problem);
  };
  return out;
}

}  // namespace retarget::config

#endif  // RETARGET_CONFIG_EXPORT_HPP
