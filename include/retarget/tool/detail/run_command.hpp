// retarget run: inference through a backend's wrapper, with a summary of each output.
#ifndef RETARGET_TOOL_DETAIL_RUN_COMMAND_HPP
#define RETARGET_TOOL_DETAIL_RUN_COMMAND_HPP

#include <fstream>
#include <iomanip>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/tool/detail/common.hpp>
#include <sstream>

namespace retarget::tool::detail {

inline std::string number(double v) {
  std::ostringstream out;
  out << std::setprecision(6) << v;
  return out.str();
}

template <class M>
int run_on(const fs::path& model_path, const std::vector<std::string>& inputs,
           const std::optional<std::string>& output_dir, typename M::param param,
           bool work_dir_given, std::ostream& out) {
  // Every input the model takes must be given, and nothing else.
  const auto model = open_model(model_path, false);  // the engine reads the weights
  auto feeds = read_inputs(model, model_path, inputs, "run");
  for (const auto& in : retarget::ir::inputs_of(model))
    if (!feeds.contains(in.name))
      throw usage_error("retarget: run: " + model_path.string() + " takes the input '" + in.name +
                        "': give --input " + in.name + "=FILE.pb");
  // The outputs' folder, made and tried before the run rather than after it.
  if (output_dir) {
    retarget::backend::make_folder(*output_dir);
    check_writable(fs::path(*output_dir) / "output.pb");
  }

  {
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
    return 0;
  }
}

template <class Managers>
int run(const run_options& o, arguments& args, std::ostream& out) {
  // The backend's own options (its param) are taken out before the model file is.
  return Managers::visit(o.backend.value, [&](auto manager) {
    using M = decltype(manager);
    const bool work_dir_given = args.has("--work-dir");
    auto param = retarget::options::from_command_line<typename M::param>(args);
    auto known = retarget::options::option_names<run_options>();
    for (auto& n : retarget::options::option_names<typename M::param>()) known.push_back(n);
    const auto files = args.positionals(known);
    if (files.size() != 1)
      throw usage_error("retarget: run takes one MODEL.onnx, got " + std::to_string(files.size()));
    return run_on<M>(files.front(), o.input.value, o.output_dir.value, std::move(param),
                     work_dir_given, out);
  });
}

}  // namespace retarget::tool::detail

#endif  // RETARGET_TOOL_DETAIL_RUN_COMMAND_HPP
