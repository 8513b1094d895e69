// Deploy configs: JSON files with MMDeploy's sections, inheriting from `_base_` files.
//
//   // configs/super-resolution/super-resolution_onnxruntime_dynamic.json
//   { "_base_": ["./super-resolution_dynamic.json", "../_base_/backends/onnxruntime.json"] }
//
//   const auto cfg = retarget::config::load_deploy_config(path);
//   cfg.onnx.opset_version;                        // typed sections, defaults filled in
//   cfg.backend;                                   // "onnxruntime"
//   auto p = cfg.backend_param<rb::onnxruntime_manager>();   // the backend's own param
//
// `_base_` is a path or a list of paths relative to the file. Bases merge first, in order,
// then the file itself: objects merge key by key, anything else is replaced whole. Every
// error names the JSON path of the bad value and the file that set it.
#ifndef RETARGET_CONFIG_DEPLOY_CONFIG_HPP
#define RETARGET_CONFIG_DEPLOY_CONFIG_HPP

#include <algorithm>
#include <boost/describe/class.hpp>
#include <boost/json.hpp>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <retarget/backend/param.hpp>
#include <retarget/config/detail/merge.hpp>
#include <retarget/config/json_file.hpp>
#include <retarget/core/detail/edit_distance.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/trace/export.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::config {

using backend::field;
using backend::json_error;

// A config file with its `_base_` files merged in, and the file behind every value.
class config_document {
 public:
  config_document() = default;
  config_document(boost::json::object json, std::vector<std::filesystem::path> files,
                  detail::origin_map origin)
      : json_(std::move(json)), files_(std::move(files)), origin_(std::move(origin)) {}

  const boost::json::object& json() const noexcept { return json_; }
  // The file loaded, and every file it inherits from: bases first, the file itself last.
  const std::vector<std::filesystem::path>& files() const noexcept { return files_; }
  const std::filesystem::path& file() const { return files_.back(); }

  // The file that set the value at a JSON path ("onnx_config.opset_version").
  std::filesystem::path origin_of(const std::string& path) const {
    auto found = detail::origin_of(origin_, path);
    return found.empty() ? file() : found;
  }

  // The same error, with the file that set the bad value in front.
  [[noreturn]] void fail(const json_error& e) const {
    throw json_error(e.path(), e.problem(), origin_of(e.path()).string());
  }
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const {
    fail(json_error(path, problem));
  }

  // A top-level section as a described struct; an absent section gives the defaults.
  template <class T>
  T section(const std::string& key) const {
    static const boost::json::value empty = boost::json::object();
    const auto* value = json_.if_contains(key);
    try {
      return backend::detail::read_described<T>(value ? *value : empty, key);
    } catch (const json_error& e) {
      fail(e);
    }
  }

 private:
  boost::json::object json_;
  std::vector<std::filesystem::path> files_;
  detail::origin_map origin_;
};

namespace detail {

// Loads `file` and its bases into `out`. `chain` holds the files being loaded, to see cycles;
// `included_by` says who asked for this file ("a.json: _base_[1]"), for errors.
inline void load_into(const std::filesystem::path& file, const std::string& included_by,
                      std::vector<std::filesystem::path>& chain, boost::json::object& out,
                      origin_map& origin, std::vector<std::filesystem::path>& files) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (!std::filesystem::is_regular_file(status))
    throw error("retarget: " + (included_by.empty() ? std::string("config file ") : included_by + ": ") +
                file.string() +
                (!std::filesystem::exists(status)          ? " does not exist"
                 : std::filesystem::is_directory(status) ? " is a folder, not a file"
                                                          : " is not a regular file"));
  const auto identity = std::filesystem::weakly_canonical(file);
  if (std::find(chain.begin(), chain.end(), identity) != chain.end()) {
    std::string cycle;
    for (auto it = std::find(chain.begin(), chain.end(), identity); it != chain.end(); ++it)
      cycle += it->filename().string() + " → ";
    throw error("retarget: " + included_by + ": " + file.string() +
                " is already being loaded: the bases form a cycle (" + cycle +
                file.filename().string() + ")");
  }
  auto document = read_json_file(file);
  if (!document.is_object())
    throw error("retarget: " + file.string() + ": a config must be a JSON object, not " +
                std::string(backend::detail::json_kind(document)));
  auto& object = document.get_object();

  chain.push_back(identity);
  if (const auto* base = object.if_contains("_base_")) {
    std::vector<std::string> bases;
    if (base->is_string()) {
      bases.emplace_back(base->get_string());
    } else {
      try {
        bases = backend::detail::read_json<std::vector<std::string>>(*base, "_base_");
      } catch (const json_error&) {
        throw json_error("_base_",
                         "must be a path or a list of paths, not " +
                             std::string(backend::detail::json_kind(*base)),
                         file.string());
      }
    }
    for (std::size_t i = 0; i < bases.size(); ++i)
      load_into((file.parent_path() / bases[i]).lexically_normal(),
                file.string() + ": _base_[" + std::to_string(i) + "]", chain, out, origin, files);
    object.erase("_base_");
  }
  chain.pop_back();
  merge_into(out, object, file, origin);
  files.push_back(file);
}

}  // namespace detail

// A config file with its bases merged in. Errors: a missing file or base, a cycle of bases,
// a syntax error (with line and column), a `_base_` that is not a path or a list of paths.
inline config_document load_config(const std::filesystem::path& file) {
  boost::json::object json;
  detail::origin_map origin;
  std::vector<std::filesystem::path> chain, files;
  detail::load_into(file.lexically_normal(), {}, chain, json, origin, files);
  return config_document(std::move(json), std::move(files), std::move(origin));
}

// How the model is exported, spelled as MMDeploy's onnx_config.
struct onnx_config {
  field<std::string, "The intermediate representation: onnx."> type{"onnx"};
  field<std::int64_t, "The ONNX opset to export, 7 to 17."> opset_version{11};
  field<std::vector<std::string>, "Names of the model's inputs, in order."> input_names{
      std::vector<std::string>{"input"}};
  field<std::vector<std::string>, "Names of the model's outputs, in order."> output_names{
      std::vector<std::string>{"output"}};
  field<std::map<std::string, std::map<std::int64_t, std::string>>,
        "Per input or output name, its dynamic axes: {\"0\": \"batch\", \"2\": \"height\"}.">
      dynamic_axes;
  field<std::optional<std::vector<std::int64_t>>,
        "The input's static size as [width, height]; null: the size of the test input.">
      input_shape;
  field<std::string, "File name of the exported model in the work dir."> save_file{"end2end.onnx"};
  field<bool, "Also list the weights as graph inputs, for engines that want them.">
      keep_initializers_as_inputs{false};
};
BOOST_DESCRIBE_STRUCT(onnx_config, (),
                      (type, opset_version, input_names, output_names, dynamic_axes, input_shape,
                       save_file, keep_initializers_as_inputs))

// What the model is, spelled as MMDeploy's codebase_config.
struct codebase_config {
  field<std::string, "The codebase the model comes from; tutorial: retarget's model zoo.">
      type{"tutorial"};
  field<std::string, "The model's task, e.g. SuperResolution."> task;
};
BOOST_DESCRIBE_STRUCT(codebase_config, (), (type, task))

// A deploy config: the three sections, typed; backend_config is typed by its backend's
// manager (backend_param), since only the manager knows its param.
struct deploy_config {
  config_document document;
  config::onnx_config onnx;
  config::codebase_config codebase;
  std::string backend;  // backend_config.type

  const boost::json::object& backend_json() const {
    return document.json().at("backend_config").get_object();
  }

  template <class Manager>
  typename Manager::param backend_param() const {
    if (backend != Manager::backend::name)
      throw error("retarget: " + document.file().string() + ": backend_config.type is '" +
                  backend + "', not '" + std::string(Manager::backend::name) + "'");
    try {
      return Manager::param_from_config(document.json().at("backend_config"), "backend_config");
    } catch (const json_error& e) {
      document.fail(e);
    }
  }
};

inline deploy_config load_deploy_config(const std::filesystem::path& file) {
  deploy_config out;
  out.document = load_config(file);
  const auto& json = out.document.json();
  static constexpr std::string_view sections[] = {"onnx_config", "codebase_config",
                                                  "backend_config"};
  for (const auto& [key, value] : json)
    if (std::find(std::begin(sections), std::end(sections), key) == std::end(sections))
      out.document.fail(key, "is not a section of a deploy config (closest: " +
                                 retarget::detail::join_names(retarget::detail::closest_names(
                                     std::string_view(key), sections)) +
                                 ")");
  out.onnx = out.document.section<onnx_config>("onnx_config");
  out.codebase = out.document.section<codebase_config>("codebase_config");

  const auto& onnx = out.onnx;
  if (*onnx.type != "onnx")
    out.document.fail("onnx_config.type", "must be \"onnx\", not \"" + *onnx.type + "\"");
  if (*onnx.opset_version < 7 || *onnx.opset_version > ir::max_opset)
    out.document.fail("onnx_config.opset_version",
                      "is " + std::to_string(*onnx.opset_version) + ", out of the range 7 to " +
                          std::to_string(ir::max_opset));
  if (onnx.input_shape->has_value() && (*onnx.input_shape)->size() != 2)
    out.document.fail("onnx_config.input_shape",
                      "must be [width, height], not " + std::to_string((*onnx.input_shape)->size()) +
                          " numbers");

  const auto* backend = json.if_contains("backend_config");
  if (!backend) throw error("retarget: " + file.string() + ": backend_config is missing");
  if (!backend->is_object())
    out.document.fail("backend_config",
                      "must be an object, not " + std::string(backend::detail::json_kind(*backend)));
  const auto* type = backend->get_object().if_contains("type");
  if (!type) out.document.fail("backend_config", "has no type (the backend's name)");
  if (!type->is_string())
    out.document.fail("backend_config.type",
                      "must be a string, not " + std::string(backend::detail::json_kind(*type)));
  out.backend = std::string(type->get_string());
  return out;
}

// --- What an onnx_config means for an export ------------------------------------------------

// The spec of input `index`: its name from input_names, the test input's shape with
// input_shape's [width, height] as the last two dims, and dynamic_axes' names.
inline input_spec input_spec_for(const deploy_config& cfg, std::size_t index, std::size_t count,
                                 ir::dtype type, const std::vector<std::int64_t>& test_shape) {
  const auto& names = *cfg.onnx.input_names;
  if (names.size() != count)
    cfg.document.fail("onnx_config.input_names",
                      "lists " + std::to_string(names.size()) + (names.size() == 1 ? " name" : " names") +
                          ", but the model has " +
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
                            retarget::detail::join_names(retarget::detail::closest_names(
                                name, [&] {
                                  auto all = names;
                                  all.insert(all.end(), cfg.onnx.output_names->begin(),
                                             cfg.onnx.output_names->end());
                                  return all;
                                }())) +
                            ")");
  return spec;
}

inline export_options export_options_for(const deploy_config& cfg) {
  export_options out;
  out.opset = static_cast<int>(*cfg.onnx.opset_version);
  out.output_names = *cfg.onnx.output_names;
  out.metadata.emplace_back("retarget:config", cfg.document.file().string());
  return out;
}

// After the export: output dims named by dynamic_axes, and the weights listed as inputs when
// keep_initializers_as_inputs says so.
inline void finish_export(const deploy_config& cfg, ir::model& m) {
  auto& graph = *m.proto().mutable_graph();
  for (auto& output : *graph.mutable_output()) {
    const auto it = cfg.onnx.dynamic_axes->find(output.name());
    if (it == cfg.onnx.dynamic_axes->end()) continue;
    auto* shape = output.mutable_type()->mutable_tensor_type()->mutable_shape();
    for (const auto& [axis, name] : it->second) {
      if (axis < 0 || axis >= shape->dim_size())
        cfg.document.fail("onnx_config.dynamic_axes." + output.name() + "." + std::to_string(axis),
                          "is not an axis of output '" + output.name() + "', which has rank " +
                              std::to_string(shape->dim_size()));
      shape->mutable_dim(static_cast<int>(axis))->set_dim_param(name);
    }
  }
  if (*cfg.onnx.keep_initializers_as_inputs)
    for (const auto& init : graph.initializer()) {
      auto* input = graph.add_input();
      input->set_name(init.name());
      auto* tensor_type = input->mutable_type()->mutable_tensor_type();
      tensor_type->set_elem_type(init.data_type());
      auto* shape = tensor_type->mutable_shape();
      for (auto d : init.dims()) shape->add_dim()->set_dim_value(d);
    }
}

}  // namespace retarget::config

#endif  // RETARGET_CONFIG_DEPLOY_CONFIG_HPP
