// The console entry of backend managers, generated from their params:
//   retarget backends
//   retarget backend NAME check
//   retarget backend NAME convert --onnx-path MODEL.onnx [param options]
//   retarget backend NAME run --input name=FILE.pb ... [--output-dir DIR] [param options]
//   retarget backend NAME convert --help          (lists the param's fields and help texts)
#ifndef RETARGET_BACKEND_CONSOLE_HPP
#define RETARGET_BACKEND_CONSOLE_HPP

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <retarget/backend/manager.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/topology.hpp>
#include <retarget/options/command_line.hpp>
#include <string>
#include <vector>

namespace retarget::backend {

namespace detail {

template <class M>
int run_command(const std::string& command, options::arguments& args, std::ostream& out) {
  using P = typename M::param;
  const std::string backend_name(M::backend::name);
  const auto help = [&](const char* usage) {
    out << "usage: retarget backend " << backend_name << " " << usage << "\n\n"
        << backend_name << " options:\n"
        << options::help<P>();
    return 0;
  };
  const bool wants_help = args.flag("--help") + args.flag("-h") > 0;
  if (command == "check") {
    out << backend_name << ": " << (M::is_available() ? "available" : "not available") << ", "
        << M::version() << "\n"
        << M::check_env() << "\n";
    return M::is_available() ? 0 : 1;
  }
  if (command == "convert") {
    if (wants_help) return help("convert --onnx-path MODEL.onnx [options]");
    const auto onnx_path = args.required("--onnx-path", "MODEL.onnx");
    const auto files = M::to_backend(onnx_path, options::from_command_line<P>(args.rest()));
    for (const auto& f : files) out << f.string() << "\n";
    return 0;
  }
  if (command == "run") {
    if (wants_help) return help("run --input name=FILE.pb ... [--output-dir DIR] [options]");
    const auto inputs = args.all("--input");
    const auto output_dir = args.one("--output-dir");
    const P p = options::from_command_line<P>(args.rest());
    // An ONNX file the engine runs is checked as convert checks it, so that a bad one is named
    // by retarget, in one line, not by the engine; other files (an engine plan) must exist.
    const auto files = M::model_files(p);
    std::optional<ir::model> model;
    if (!files.empty() && files.front().extension() == ".onnx") {
      model = ir::read_model_file(files.front());
      ir::check_external_data(*model, files.front());
      try {
        ir::check_structure(*model);
      } catch (const error& e) {
        throw error("retarget: " + files.front().string() + ": " +
                    std::string(retarget::reason_of(e)));
      }
    }
    for (const auto& f : files)
      if (std::error_code ec; !std::filesystem::is_regular_file(f, ec))
        throw error("retarget: " + f.string() + " is not there: retarget backend " +
                    std::string(M::backend::name) + " convert makes it");
    const auto wanted = model ? ir::inputs_of(*model) : std::vector<ir::model_input>{};
    tensor_map feeds;
    for (const auto& in : inputs) {
      const auto eq = in.find('=');
      if (eq == std::string::npos)
        throw error("retarget: --input '" + in + "' is not name=FILE.pb");
      const auto name = in.substr(0, eq), file = in.substr(eq + 1);
      auto t = ir::read_tensor_file(file);
      for (const auto& w : wanted)
        if (w.name == name) ir::check_fits(w, t, file, files.front());
      feeds.emplace(name, std::move(t));
    }
    if (output_dir) make_folder(*output_dir);
    for (const auto& [name, t] : run_on_engine<M>({}, p, feeds, files)) {
      out << name << ": " << to_string(t.type()) << " " << ir::format_dims(t.dims()) << "\n";
      if (output_dir) ir::write_tensor_file(std::filesystem::path(*output_dir) / (name + ".pb"), t);
    }
    return 0;
  }
  throw error("retarget: unknown command '" + command + "' for backend " + backend_name +
              " (check, convert, run)");
}

}  // namespace detail

// Runs one command line; errors are retarget::error. Returns the exit status.
template <class Managers>
int backend_console(std::vector<std::string> args, std::ostream& out) {
  if (args.empty() || args.front() == "--help" || args.front() == "-h") {
    out << "usage: retarget backends\n       retarget backend NAME check|convert|run [--help] "
           "...\n\nbackends:";
    for (auto n : Managers::names()) out << " " << n;
    out << "\n";
    return args.empty() ? 2 : 0;
  }
  if (args.front() == "backends") {
    for (auto n : Managers::names())
      Managers::visit(n, [&](auto m) {
        using M = decltype(m);
        out << M::backend::name << ": " << (M::is_available() ? "available" : "not available")
            << ", " << M::version() << "\n";
        std::string report = M::check_env();
        for (std::size_t pos = 0; pos <= report.size();) {
          const auto nl = report.find('\n', pos);
          out << "    "
              << report.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) << "\n";
          if (nl == std::string::npos) break;
          pos = nl + 1;
        }
      });
    return 0;
  }
  if (args.front() == "backend") {
    if (args.size() < 3)
      throw error("retarget: usage: retarget backend NAME check|convert|run ...");
    const std::string name = args[1], command = args[2];
    options::arguments rest({args.begin() + 3, args.end()});
    return Managers::visit(
        name, [&](auto m) { return detail::run_command<decltype(m)>(command, rest, out); });
  }
  throw error("retarget: unknown command '" + args.front() + "' (backends, backend)");
}

// A main() for a console tool: errors go to stderr with a non-zero exit.
template <class Managers>
int backend_main(int argc, char** argv) {
  try {
    return backend_console<Managers>(std::vector<std::string>(argv + 1, argv + argc), std::cout);
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}

}  // namespace retarget::backend

#endif  // RETARGET_BACKEND_CONSOLE_HPP
