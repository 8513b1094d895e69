// Deploy configs: JSON files with MMDeploy's sections, inheriting from `_base_` files.
//
//   // configs/super-resolution/super-resolution_onnxruntime_dynamic.json
//   { "_base_": ["./super-resolution_dynamic.json", "../_base_/backends/onnxruntime.json"] }
//
//   const auto cfg = retarget::config::load_deploy_config(path);
//   cfg.onnx.opset_version;                        // typed sections, defaults filled in
//   cfg.backend;                                   // "onnxruntime"
//   auto p = cfg.backend_param<bk::onnxruntime_manager>();   // the backend's own param
//
// `_base_` inheritance is config/document.hpp's; the sections are config/sections.hpp's; what
// a config means for an export is config/export.hpp's. Every error names the JSON path of the
// bad value and the file that set it.
#ifndef RETARGET_CONFIG_DEPLOY_CONFIG_HPP
#define RETARGET_CONFIG_DEPLOY_CONFIG_HPP

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <retarget/config/document.hpp>
#include <retarget/config/sections.hpp>
#include <retarget/core/closest_names.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/options/json.hpp>
#include <string>
#include <string_view>

// Its sections are read once, in retarget::compiled.
RETARGET_OPTIONS_READ_ONCE(retarget::config::onnx_config);
RETARGET_OPTIONS_READ_ONCE(retarget::config::codebase_config);
RETARGET_OPTIONS_READ_ONCE(retarget::config::partition_config);

namespace retarget::config {

// A deploy config: the three sections, typed; backend_config is typed by its backend's
// manager (backend_param), since only the manager knows its param.
struct deploy_config {
  config_document document;
  config::onnx_config onnx;
  config::codebase_config codebase;
  std::optional<config::partition_config> partition;  // absent: the backend runs it whole
  std::string backend;                                // backend_config.type

  const boost::json::object& backend_json() const {
    return document.json().at("backend_config").get_object();
  }

  template <class Manager>
  typename Manager::param backend_param() const {
    if (backend != Manager::backend::name)
      throw error("retarget: " + document.file().string() + ": backend_config.type is '" + backend +
                  "', not '" + std::string(Manager::backend::name) + "'");
    try {
      return Manager::param_from_config(document.json().at("backend_config"), "backend_config");
    } catch (const options::json_error& e) {
      document.fail(e);
    }
  }
};

inline deploy_config load_deploy_config(const std::filesystem::path& file) {
  deploy_config out;
  out.document = load_config(file);
  const auto& json = out.document.json();
  static constexpr std::string_view sections[] = {"onnx_config", "codebase_config",
                                                  "backend_config", "partition_config"};
  for (const auto& [key, value] : json)
    if (std::find(std::begin(sections), std::end(sections), key) == std::end(sections))
      out.document.fail(
          key, "is not a section of a deploy config (closest: " +
                   retarget::join_names(retarget::closest_names(std::string_view(key), sections)) +
                   ")");
  out.onnx = out.document.section<onnx_config>("onnx_config");
  out.codebase = out.document.section<codebase_config>("codebase_config");
  if (json.contains("partition_config")) {
    out.partition = out.document.section<partition_config>("partition_config");
    const auto& parts = *out.partition->partition_cfg;
    if (parts.size() != 1)
      out.document.fail("partition_config.partition_cfg",
                        "lists " + std::to_string(parts.size()) +
                            " parts: one is run by the backend, the rest of the model is the "
                            "other");
    if (parts.front().end->empty())
      out.document.fail("partition_config.partition_cfg[0].end",
                        "is empty: name the marks the backend's part ends at");
  }

  const auto& onnx = out.onnx;
  if (*onnx.type != "onnx")
    out.document.fail("onnx_config.type", "must be \"onnx\", not \"" + *onnx.type + "\"");
  if (*onnx.opset_version < 7 || *onnx.opset_version > ir::max_opset)
    out.document.fail("onnx_config.opset_version", "is " + std::to_string(*onnx.opset_version) +
                                                       ", out of the range 7 to " +
                                                       std::to_string(ir::max_opset));
  if (onnx.input_shape->has_value() && (*onnx.input_shape)->size() != 2)
    out.document.fail(
        "onnx_config.input_shape",
        "must be [width, height], not " + std::to_string((*onnx.input_shape)->size()) + " numbers");

  const auto* backend = json.if_contains("backend_config");
  if (!backend) throw error("retarget: " + file.string() + ": backend_config is missing");
  if (!backend->is_object())
    out.document.fail("backend_config",
                      "must be an object, not " + std::string(options::json_kind(*backend)));
  const auto* type = backend->get_object().if_contains("type");
  if (!type) out.document.fail("backend_config", "has no type (the backend's name)");
  if (!type->is_string())
    out.document.fail("backend_config.type",
                      "must be a string, not " + std::string(options::json_kind(*type)));
  out.backend = std::string(type->get_string());
  return out;
}

}  // namespace retarget::config

#endif  // RETARGET_CONFIG_DEPLOY_CONFIG_HPP
