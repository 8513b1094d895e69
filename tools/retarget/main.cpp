// The retarget command-line tool. Each command has --help; errors go to stderr as one line
// with a non-zero exit (2 for a mistake in the command line, 1 for anything else).
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <sstream>

#include "cli.hpp"

namespace cli {

namespace {

int backends(const backends_options&, arguments& args, std::ostream& out) {
  std::vector<std::string> forwarded{"backends"};
  for (auto& a : args.rest()) forwarded.push_back(std::move(a));
  return retarget::backend::backend_console<managers>(forwarded, out);
}

int backend(const backend_options&, arguments& args, std::ostream& out) {
  std::vector<std::string> forwarded{"backend"};
  for (auto& a : args.rest()) forwarded.push_back(std::move(a));
  return retarget::backend::backend_console<managers>(forwarded, out);
}

// A command of the table: its options are read from the arguments, then it runs.
template <class O, int (*Run)(const O&, arguments&, std::ostream&)>
constexpr command entry() {
  return {O::name, O::summary, help_of<O>, [](arguments& args, std::ostream& out) {
            const O options = retarget::options::from_command_line<O>(args);
            return Run(options, args, out);
          }};
}

constexpr command table[] = {
    entry<inspect_options, inspect>(), entry<check_options, check>(),
    entry<convert_options, convert>(), entry<compare_options, compare>(),
    entry<draw_options, draw>(),       entry<backends_options, backends>(),
    entry<backend_options, backend>(), entry<run_options, run>(),
    entry<deploy_options, deploy>(),
};

void print_help(std::ostream& out) {
  out << "usage: retarget COMMAND [--help] ...\n\n"
         "Export models to ONNX once, retarget them to many inference engines.\n\ncommands:\n";
  for (const auto& c : table)
    out << "  " << std::left << std::setw(10) << c.name << c.summary << "\n";
  out << "\nretarget COMMAND --help tells more about a command.\n";
}

int main_of(std::vector<std::string> argv, std::ostream& out) {
  if (argv.empty()) {
    print_help(std::cerr);
    return 2;
  }
  if (argv.front() == "--help" || argv.front() == "-h" || argv.front() == "help") {
    print_help(out);
    return 0;
  }
  if (argv.front() == "--version") {
    out << "retarget " << RETARGET_VERSION_STRING << "\n";
    return 0;
  }
  const std::string name = argv.front();
  for (const auto& c : table) {
    if (c.name != name) continue;
    arguments args(std::vector<std::string>(argv.begin() + 1, argv.end()));
    // `backend NAME COMMAND --help` is the backend console's own help.
    const bool wants_help = name == "backend"
                                ? argv.size() == 2 && (argv[1] == "--help" || argv[1] == "-h")
                                : args.flag("--help") || args.flag("-h");
    if (wants_help) {
      out << c.help();
      return 0;
    }
    return c.run(args, out);
  }
  std::vector<std::string_view> names;
  for (const auto& c : table) names.push_back(c.name);
  throw usage_error("retarget: unknown command '" + name + "' (closest: " +
                    retarget::join_names(retarget::closest_names(name, names)) + ")");
}

}  // namespace

const std::span<const command> commands = table;

void check_model(const retarget::ir::model& model, const fs::path& path) {
  retarget::ir::check_external_data(model, path);  // what load() read in is no longer external
  try {
    retarget::ir::check_structure(model);
  } catch (const retarget::error& e) {
    throw retarget::error(prefixed(path.string(), e));
  }
}

retarget::ir::model open_model(const fs::path& path, bool with_external_data) {
  auto model = with_external_data ? retarget::ir::load(path) : retarget::ir::read_model_file(path);
  check_model(model, path);
  return model;
}

std::pair<std::string, std::string> name_and_value(const std::string& item, std::string_view option,
                                                   std::string_view value) {
  const auto eq = item.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
    throw usage_error("retarget: " + std::string(option) + " '" + item +
                      "' is not NAME=" + std::string(value));
  return {item.substr(0, eq), item.substr(eq + 1)};
}

const retarget::ir::model_input& input_named(const std::vector<retarget::ir::model_input>& inputs,
                                             const std::string& name, std::string_view option,
                                             const fs::path& model_path) {
  const auto in = std::find_if(inputs.begin(), inputs.end(),
                               [&](const retarget::ir::model_input& i) { return i.name == name; });
  if (in == inputs.end()) {
    std::vector<std::string_view> names;
    for (const auto& i : inputs) names.push_back(i.name);
    throw usage_error(
        "retarget: " + std::string(option) + ": " + model_path.string() + " has no input '" + name +
        "' (closest: " + retarget::join_names(retarget::closest_names(name, names)) + ")");
  }
  return *in;
}

retarget::backend::tensor_map read_inputs(const retarget::ir::model& model,
                                          const fs::path& model_path,
                                          const std::vector<std::string>& items,
                                          std::string_view command) {
  const auto wanted = retarget::ir::inputs_of(model);
  retarget::backend::tensor_map given;
  for (const auto& item : items) {
    const auto [name, file] = name_and_value(item, "--input", "FILE.pb");
    const auto& in = input_named(wanted, name, "--input", model_path);
    auto t = retarget::ir::read_tensor_file(file);
    try {
      retarget::ir::check_fits(in, t, file, model_path);
    } catch (const retarget::error& e) {
      throw retarget::error(prefixed(command, e));
    }
    given.emplace(name, std::move(t));
  }
  return given;
}

std::string one_line(std::string text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\n') {
      out += text[i];
      continue;
    }
    while (i + 1 < text.size() && (text[i + 1] == ' ' || text[i + 1] == '\n')) ++i;
    if (!out.empty() && i + 1 < text.size()) out += ' ';
  }
  return out;
}

void check_writable(const fs::path& path) { retarget::ir::atomic_file probe(path); }

std::string prefixed(std::string_view prefix, const std::exception& e) {
  return "retarget: " + std::string(prefix) + ": " + std::string(retarget::reason_of(e));
}

std::string seconds(double s) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(s < 10 ? 2 : 1) << s << " s";
  return out.str();
}

std::string scientific(double v) {
  std::ostringstream out;
  out << std::scientific << std::setprecision(1) << v;
  return out.str();
}

}  // namespace cli

int main(int argc, char** argv) {
  try {
    return cli::main_of(std::vector<std::string>(argv + 1, argv + argc), std::cout);
  } catch (const cli::usage_error& e) {
    std::cout.flush();
    std::cerr << e.what() << " (see retarget --help)\n";
    return 2;
  } catch (const retarget::error& e) {  // engines' messages may end in a line break
    std::cout.flush();
    std::string_view what = e.what();
    while (!what.empty() && (what.back() == '\n' || what.back() == ' ')) what.remove_suffix(1);
    std::cerr << what << "\n";
    return 1;
  } catch (const std::filesystem::filesystem_error& e) {  // the path and the system's reason
    std::cout.flush();
    std::cerr << "retarget: " << (e.path1().empty() ? "" : e.path1().string() + ": ")
              << e.code().message() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << "retarget: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "retarget: " << cli::one_line(e.what()) << "\n";
    return 1;
  }
}
