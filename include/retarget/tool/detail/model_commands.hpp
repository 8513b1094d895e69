// retarget inspect, check and draw: commands that read a model file.
#ifndef RETARGET_TOOL_DETAIL_MODEL_COMMANDS_HPP
#define RETARGET_TOOL_DETAIL_MODEL_COMMANDS_HPP

#include <fstream>
#include <iterator>
#include <retarget/ir/dot.hpp>
#include <retarget/ir/inspect.hpp>
#include <retarget/tool/detail/common.hpp>
#include <retarget/tool/detail/convert_command.hpp>

namespace retarget::tool::detail {

inline int inspect(const inspect_options&, arguments& args, std::ostream& out) {
  const fs::path path = one_model<inspect_options>(args);
  const auto model = retarget::ir::read_model_file(path);
  const auto summary = retarget::ir::summarize(model);
  // What is wrong with a model is said after what it holds, which helps to see why.
  const auto problem = [&]() -> std::string {
    try {
      check_model(model, path);
    } catch (const retarget::error& e) {
      return e.what();
    }
    return {};
  }();
  out << path.string() << ": " << retarget::ir::human_bytes(fs::file_size(path)) << " on disk";
  const auto files = model.external_data_files();
  const std::set<std::string> external(files.begin(), files.end());
  if (!external.empty()) {
    out << ", weights external in";
    for (const auto& e : external) out << " " << e;
  }
  out << "\n" << summary;
  if (problem.empty()) return 0;
  out.flush();
  throw retarget::error(problem);
}

template <class Managers>
int check(const check_options& o, arguments& args, std::ostream& out) {
  const fs::path path = one_model<check_options>(args);
  if (o.backend.value) return check_for_backend<Managers>(path, *o.backend.value, out);
  const auto model = open_model(path);
  try {
    model.check();
  } catch (const retarget::error& e) {
    throw retarget::error(one_line(prefixed(path.string() + " is not valid", e)));
  }
  out << path.string() << ": valid (ONNX checker and strict shape inference passed; "
      << model.node_count() << " nodes, opset " << model.opset().value_or(0) << ")\n";
  return 0;
}

inline int draw(const draw_options& o, arguments& args, std::ostream& out) {
  if (!o.output.value) throw usage_error("retarget: draw needs -o FILE.svg, FILE.png or FILE.dot");
  const fs::path path = one_model<draw_options>(args);
  const fs::path target = *o.output.value;
  const auto format = target.extension().string();
  if (format != ".svg" && format != ".png" && format != ".dot")
    throw usage_error("retarget: draw writes .svg, .png or .dot, not '" +
                      target.filename().string() + "'");
  check_writable(target);
  auto model = open_model(path, false);
  try {  // shapes on every edge where inference finds them; a picture without is still one
    model.infer_shapes();
  } catch (const retarget::error&) {
  }
  const std::string dot_text = retarget::ir::to_dot(model);
  if (format == ".dot") {
    write_file(target, dot_text);
  } else {
    const auto dot = retarget::backend::find_program("dot");
    if (dot.empty())
      throw retarget::error(
          "retarget: draw: Graphviz's dot is not on PATH (Debian: apt-get install graphviz), "
          "so only .dot can be written");
    const auto folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    retarget::backend::scratch_folder scratch(folder, "retarget-draw");
    write_file(scratch.path() / "graph.dot", dot_text);
    const auto picture = scratch.path() / ("graph" + format);
    const auto log = scratch.path() / "dot.log";
    if (retarget::backend::run_program({dot.string(), "-T" + format.substr(1), "-o",
                                        picture.string(), (scratch.path() / "graph.dot").string()},
                                       log.string()) != 0) {
      std::ifstream messages(log);
      throw retarget::error("retarget: draw: Graphviz's dot failed: " +
                            std::string(std::istreambuf_iterator<char>(messages), {}));
    }
    fs::rename(picture, target);
  }
  out << "wrote " << target.string() << " (" << retarget::ir::human_bytes(fs::file_size(target))
      << ")\n";
  return 0;
}

}  // namespace retarget::tool::detail

#endif  // RETARGET_TOOL_DETAIL_MODEL_COMMANDS_HPP
