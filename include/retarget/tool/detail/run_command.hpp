// retarget run: inference through a backend's wrapper, with a summary of each output.
#ifndef RETARGET_TOOL_DETAIL_RUN_COMMAND_HPP
#define RETARGET_TOOL_DETAIL_RUN_COMMAND_HPP

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <retarget/backend/pipeline.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/tool/detail/common.hpp>
#include <set>
#include <sstream>

namespace retarget::tool::detail {

inline std::string number(double v) {
  std::ostringstream out;
  out << std::setprecision(6) << v;
  return out.str();
}

// Every input the model takes must be given, and nothing else.
inline retarget::backend::tensor_map run_inputs(const retarget::ir::model& model,
                                                const fs::path& model_path,
                                                const std::vector<std::string>& inputs) {
  auto feeds = read_inputs(model, model_path, inputs, "run");
  for (const auto& in : retarget::ir::inputs_of(model))
    if (!feeds.contains(in.name))
      throw usage_error("retarget: run: " + model_path.string() + " takes the input '" + in.name +
                        "': give --input " + in.name + "=FILE.pb");
  return feeds;
}

// The outputs' folder, made and tried before the run rather than after it.
inline void prepare_output_dir(const std::optional<std::string>& output_dir) {
  if (!output_dir) return;
  retarget::backend::make_folder(*output_dir);
  check_writable(fs::path(*output_dir) / "output.pb");
}

// Each output's line, and its file in output_dir.
inline void print_outputs(const retarget::backend::tensor_map& outputs,
                          const std::optional<std::string>& output_dir, std::ostream& out) {
  for (const auto& [name, t] : outputs) {
    out << name << ": " << to_string(t.type()) << " " << retarget::ir::format_dims(t.dims());
    try {
      const auto s = retarget::ir::statistics(t);
      out << "  min " << number(s.min) << "  max " << number(s.max) << "  mean " << number(s.mean)
          << "  std " << number(s.stddev);
      if (s.non_finite) out << "  non-finite " << s.non_finite;
    } catch (const retarget::error&) {  // strings: no statistics
    }
    out << "\n";
    if (output_dir)
      write_file(fs::path(*output_dir) / (name + ".pb"), retarget::ir::tensor_to_bytes(t));
  }
  if (output_dir) out << "wrote " << outputs.size() << " outputs to " << *output_dir << "\n";
}

template <class M>
int run_on(const fs::path& model_path, const std::vector<std::string>& inputs,
           const std::optional<std::string>& output_dir, typename M::param param,
           bool work_dir_given, std::ostream& out) {
  const auto model = open_model(model_path, false);  // the engine reads the weights
  const auto feeds = run_inputs(model, model_path, inputs);
  prepare_output_dir(output_dir);
  if (!M::is_available())
    throw retarget::error("retarget: run: backend " + std::string(M::backend::name) +
                          " is not available here (see retarget backends)");
  retarget::backend::scratch_folder scratch(fs::temp_directory_path(), "retarget-run");
  if (!work_dir_given) param.work_dir = scratch.path().string();
  const auto outputs = [&] {
    try {
      return retarget::backend::run_on_engine<M>(model_path, param, feeds);
    } catch (const retarget::error& e) {  // engines' messages may run over several lines
      throw retarget::error(one_line(e.what()));
    }
  }();
  print_outputs(outputs, output_dir, out);
  return 0;
}

// A pipeline file: its parts in order, each on its engine. The inputs are the first part's
// and whatever a later part reads that no part before it gives.
template <class Managers>
int run_pipeline_file(const fs::path& file, const std::vector<std::string>& inputs,
                      const std::optional<std::string>& output_dir, std::ostream& out) {
  namespace rb = retarget::backend;
  const auto p = rb::read_pipeline(file);
  for (const auto& part : p.parts) Managers::visit(part.engine, [](auto) {});  // unknown names
  rb::tensor_map feeds;
  std::set<std::string> given;  // by the parts before
  for (const auto& part : p.parts) {
    const auto model_path = file.parent_path() / part.model;
    const auto model = open_model(model_path, false);
    for (const auto& in : retarget::ir::inputs_of(model)) {
      if (given.contains(in.name) || feeds.contains(in.name)) continue;
      const auto item = std::find_if(inputs.begin(), inputs.end(), [&](const std::string& i) {
        return i.starts_with(in.name + "=");
      });
      if (item == inputs.end())
        throw usage_error("retarget: run: " + file.string() + " takes the input '" + in.name +
                          "' (" + part.model + " reads it): give --input " + in.name + "=FILE.pb");
      feeds.merge(read_inputs(model, model_path, {*item}, "run"));
    }
    for (const auto& name : model.output_names()) given.insert(name);
  }
  for (const auto& item : inputs)
    if (const auto name = item.substr(0, item.find('=')); !feeds.contains(name))
      throw usage_error("retarget: run: " + file.string() + " takes no input '" + name + "'");
  prepare_output_dir(output_dir);
  rb::scratch_folder scratch(fs::temp_directory_path(), "retarget-run");
  const auto outputs = [&] {
    try {
      return rb::run_pipeline<Managers>(p, file, feeds, scratch.path());
    } catch (const retarget::error& e) {
      throw retarget::error(one_line(e.what()));
    }
  }();
  out << file.filename().string() << ": " << p.parts.size() << " parts on " << rb::engines_of(p)
      << "\n";
  print_outputs(outputs, output_dir, out);
  return 0;
}

template <class Managers>
int run(const run_options& o, arguments& args, std::ostream& out) {
  if (!o.backend.value) {
    const fs::path file = one_model<run_options>(args);
    if (!retarget::backend::is_pipeline_file(file))
      throw usage_error("retarget: run " + file.string() +
                        " needs --backend NAME (only a pipeline file names its own engines)");
    return run_pipeline_file<Managers>(file, o.input.value, o.output_dir.value, out);
  }
  // The backend's own options (its param) are taken out before the model file is.
  return Managers::visit(*o.backend.value, [&](auto manager) {
    using M = decltype(manager);
    const bool work_dir_given = args.has("--work-dir");
    auto param = retarget::options::from_command_line<typename M::param>(args);
    auto known = retarget::options::option_names<run_options>();
    for (auto& n : retarget::options::option_names<typename M::param>()) known.push_back(n);
    const auto files = args.positionals(known);
    if (files.size() != 1)
      throw usage_error("retarget: run takes one MODEL.onnx, got " + std::to_string(files.size()));
    if (retarget::backend::is_pipeline_file(files.front()))
      throw usage_error("retarget: run " + files.front() +
                        ": a pipeline names the engine of each part; drop --backend");
    return run_on<M>(files.front(), o.input.value, o.output_dir.value, std::move(param),
                     work_dir_given, out);
  });
}

}  // namespace retarget::tool::detail

#endif  // RETARGET_TOOL_DETAIL_RUN_COMMAND_HPP
