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
#include <fstream>
#include <iostream>
#include <retarget/backend/manager.hpp>
#include <retarget/backend/param.hpp>
#include <retarget/ir/model_file.hpp>
#include <string>
#include <vector>

namespace retarget::backend {

namespace detail {

inline ir::tensor read_tensor_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  onnx::TensorProto proto;
  if (!in || !proto.ParseFromIstream(&in))
    throw error("retarget: " + path.string() + " is not an ONNX TensorProto file");
  return ir::tensor(std::move(proto));
}

// Takes "--name value" or "--name=value" out of args; nullopt when absent.
inline std::vector<std::string> take_all(std::vector<std::string>& args, const std::string& name) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size();) {
    if (args[i] == name && i + 1 < args.size()) {
      out.push_back(args[i + 1]);
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i),
                 args.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else if (args[i].starts_with(name + "=")) {
      out.push_back(args[i].substr(name.size() + 1));
      args.erase(args.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  return out;
}

template <class M>
int run_command(const std::string& command, std::vector<std::string> args, std::ostream& out) {
  using P = typename M::param;
  const std::string backend_name(M::backend::name);
  const auto help = [&](const char* usage) {
    out << "usage: retarget backend " << backend_name << " " << usage << "\n\n"
        << backend_name << " options:\n"
        << options_help<P>();
    return 0;
  };
  const bool wants_help = std::erase(args, "--help") + std::erase(args, "-h") > 0;
  if (command == "check") {
    out << backend_name << ": " << (M::is_available() ? "available" : "not available") << ", "
        << M::version() << "\n"
        << M::check_env() << "\n";
    return M::is_available() ? 0 : 1;
  }
  if (command == "convert") {
    if (wants_help) return help("convert --onnx-path MODEL.onnx [options]");
    const auto onnx_path = take_all(args, "--onnx-path");
    if (onnx_path.size() != 1) throw error("retarget: convert needs one --onnx-path MODEL.onnx");
    const auto files = M::to_backend(onnx_path.front(), parse_options<P>(args));
    for (const auto& f : files) out << f.string() << "\n";
    return 0;
  }
  if (command == "run") {
    if (wants_help) return help("run --input name=FILE.pb ... [--output-dir DIR] [options]");
    const auto inputs = take_all(args, "--input");
    const auto output_dir = take_all(args, "--output-dir");
    const P p = parse_options<P>(args);
    tensor_map feeds;
    for (const auto& in : inputs) {
      const auto eq = in.find('=');
      if (eq == std::string::npos)
        throw error("retarget: --input '" + in + "' is not name=FILE.pb");
      feeds.emplace(in.substr(0, eq), read_tensor_file(in.substr(eq + 1)));
    }
    auto wrapper = M::build_wrapper(M::model_files(p), p);
    for (const auto& [name, t] : wrapper.run(feeds)) {
      std::string dims;
      for (auto d : t.dims()) dims += (dims.empty() ? "" : ", ") + std::to_string(d);
      out << name << ": " << to_string(t.type()) << " [" << dims << "]\n";
      if (!output_dir.empty()) {
        std::filesystem::create_directories(output_dir.front());
        std::ofstream f(std::filesystem::path(output_dir.front()) / (name + ".pb"),
                        std::ios::binary);
        t.proto().SerializeToOstream(&f);
      }
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
    int status = 0;
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
    return status;
  }
  if (args.front() == "backend") {
    if (args.size() < 3)
      throw error("retarget: usage: retarget backend NAME check|convert|run ...");
    const std::string name = args[1], command = args[2];
    args.erase(args.begin(), args.begin() + 3);
    return Managers::visit(
        name, [&](auto m) { return detail::run_command<decltype(m)>(command, args, out); });
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
