// export_onnx: traces a model for a backend into a checked ONNX model, with the report of
// the rewrites that fired, which the model's metadata records too.
//
//   auto result = retarget::export_onnx<retarget::backends::tensorrt>(
//       model, {{"input", ir::dtype::f32, {1, 3, "height", "width"}}}, cfg,
//       {.output_names = {"output"}});
//   ir::save(result.model, "srcnn.onnx");
#ifndef RETARGET_TRACE_EXPORT_HPP
#define RETARGET_TRACE_EXPORT_HPP

#include <array>
#include <boost/mp11/algorithm.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <retarget/core/backend.hpp>
#include <retarget/core/closest_names.hpp>
#include <retarget/core/rewrite_env.hpp>
#include <retarget/ir/graph_interface.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/trace/session.hpp>
#include <retarget/trace/tensor.hpp>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget {

struct input_spec {
  std::string name;
  ir::dtype dtype = ir::dtype::f32;
  std::vector<ir::dim> shape;  // static sizes or named dynamic dims ({1, 3, "height", "width"})
};

struct export_options {
  int opset = ir::default_opset;               // 7 to 17
  std::vector<std::string> output_names = {};  // default: output, output_1, ...
  std::vector<std::pair<std::string, std::string>> metadata = {};
  // Names for dims of the outputs, by output name and axis ({"output": {{0, "batch"}}}):
  // the inputs' named dims need not reach the outputs through every op's inference.
  std::map<std::string, std::map<std::int64_t, std::string>> output_dynamic_axes = {};
  // Also lists the weights as graph inputs, for engines that want them.
  bool initializers_as_inputs = false;
  // trace::mark names the values it is given (a boundary a partition cuts at); off, a mark
  // leaves no trace in the model.
  bool apply_marks = false;
  // How an option the model cannot take is reported: path names the option
  // ("output_dynamic_axes.output.4"); the default throws retarget::error. A config's export
  // options report its own keys.
  std::function<void(const std::string& path, const std::string& problem)> refuse = {};
};

struct export_result {
  ir::model model;
  rewrite_log report;
};

// "function repeat: tensorrt rewrite, 2 calls; ..." — what the model's metadata records.
inline std::string to_string(const rewrite_log& log) {
  std::string out;
  for (const auto& r : log.records()) {
    if (!out.empty()) out += "; ";
    out += std::string(to_string(r.kind)) + " " + std::string(r.target) + ": " +
           std::string(r.rewrite) + " rewrite, " + std::to_string(r.count) +
           (r.count == 1 ? " call" : " calls");
  }
  return out;
}

namespace detail {

template <class B>
void collect_outputs(const trace::tensor<B>& t, std::vector<ir::value>& out) {
  out.push_back(t.value());
}
template <class T>
void collect_outputs(const T& many, std::vector<ir::value>& out) {
  if constexpr (requires { std::tuple_size<T>::value; })
    std::apply([&](const auto&... t) { (collect_outputs(t, out), ...); }, many);
  else
    for (const auto& t : many) collect_outputs(t, out);
}

[[noreturn]] inline void refuse(const export_options& options, const std::string& path,
                                const std::string& problem) {
  if (options.refuse) options.refuse(path, problem);
  throw error("retarget: export option " + path + " " + problem);
}

// The outputs' named dims and the weights as inputs, written while the graph is the
// exporter's own: a finished model is never patched.
inline void shape_outputs(ir::graph_base& graph, const export_options& options) {
  for (const auto& [name, axes] : options.output_dynamic_axes) {
    const auto rank = ir::output_rank(graph, name);
    if (!rank)
      refuse(options, "output_dynamic_axes." + name,
             "names no output (closest: " +
                 retarget::join_names(retarget::closest_names(name, ir::output_names(graph))) +
                 ")");
    for (const auto& [axis, dim_name] : axes) {
      if (axis < 0 || axis >= static_cast<std::int64_t>(*rank))
        refuse(options, "output_dynamic_axes." + name + "." + std::to_string(axis),
               "is not an axis of output '" + name + "', which has rank " + std::to_string(*rank));
      ir::name_output_dim(graph, name, axis, dim_name);
    }
  }
  if (options.initializers_as_inputs) ir::list_initializers_as_inputs(graph);
}

}  // namespace detail

template <Backend B, class Model, std::size_t N, class Config = no_config>
export_result export_onnx(const Model& model, const input_spec (&inputs)[N], const Config& cfg = {},
                          const export_options& options = {}) {
  if (options.opset < 7 || options.opset > ir::max_opset)
    throw error("retarget: export opset " + std::to_string(options.opset) +
                " is out of range: 7 to " + std::to_string(ir::max_opset));
  trace::session s(options.opset, std::is_same_v<Config, no_config> ? trace::config_ref{}
                                                                    : trace::config_ref(cfg));
  s.apply_marks(options.apply_marks);
  for (std::size_t i = 0; i < N; ++i) {
    if (inputs[i].name.empty())
      throw error("retarget: input " + std::to_string(i) + " has no name");
    for (std::size_t j = 0; j < i; ++j)
      if (inputs[i].name == inputs[j].name)
        throw error("retarget: input name '" + inputs[i].name + "' is used twice");
    for (std::size_t d = 0; d < inputs[i].shape.size(); ++d)
      if (inputs[i].shape[d].size < -1)
        throw error("retarget: input '" + inputs[i].name + "' dim " + std::to_string(d) + " is " +
                    std::to_string(inputs[i].shape[d].size) +
                    ": a size is at least 0; name a dynamic dim instead");
  }
  std::array<trace::tensor<B>, N> traced;
  for (std::size_t i = 0; i < N; ++i)
    traced[i] =
        trace::tensor<B>(s, s.graph().input(inputs[i].name, inputs[i].dtype, inputs[i].shape));
  const auto result = std::apply([&](const auto&... t) { return model(t...); }, traced);

  std::vector<ir::value> outputs;
  detail::collect_outputs(result, outputs);
  if (options.output_names.size() > outputs.size())
    throw error("retarget: " + std::to_string(options.output_names.size()) +
                " output names given for " + std::to_string(outputs.size()) +
                (outputs.size() == 1 ? " output" : " outputs"));
  for (std::size_t i = 0; i < options.output_names.size(); ++i) {
    const auto& name = options.output_names[i];
    for (std::size_t j = 0; j < i; ++j)
      if (name == options.output_names[j])
        throw error("retarget: output name '" + name + "' is used twice");
    for (const auto& in : inputs)  // an input returned as it is may keep its name
      if (name == in.name && outputs[i].name() != name)
        throw error("retarget: output name '" + name + "' is also an input's name");
  }
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    const std::string name = i < options.output_names.size() ? options.output_names[i]
                             : i == 0                        ? "output"
                                                             : "output_" + std::to_string(i);
    s.graph().output(outputs[i], name);
  }
  // Weights a symbolic stored folded (a Linear's, transposed) leave their originals unread.
  s.graph().prune_unused_initializers();
  detail::shape_outputs(s.graph(), options);
  ir::model_info info;
  info.metadata = options.metadata;
  info.metadata.emplace_back("retarget:backend", std::string(B::name));
  info.metadata.emplace_back("retarget:rewrites", to_string(s.log()));
  export_result out{ir::make_model(std::move(s.graph()), std::move(info)), s.log()};
  return out;
}

// The backend named at run time (from a config), among a compile-time list of backends.
template <class Backends, class Model, std::size_t N, class Config = no_config>
export_result export_onnx(std::string_view backend, const Model& model,
                          const input_spec (&inputs)[N], const Config& cfg = {},
                          const export_options& options = {}) {
  std::optional<export_result> result;
  std::vector<std::string_view> names;
  boost::mp11::mp_for_each<Backends>([&](auto tag) {
    using B = decltype(tag);
    names.push_back(B::name);
    if (!result && B::name == backend) result.emplace(export_onnx<B>(model, inputs, cfg, options));
  });
  if (!result)
    throw error("retarget: unknown backend '" + std::string(backend) + "' (closest: " +
                retarget::join_names(retarget::closest_names(backend, names)) + ")");
  return std::move(*result);
}

}  // namespace retarget

#endif  // RETARGET_TRACE_EXPORT_HPP
