// The retarget command line, as a library: `retarget::tool::main<Managers>(argc, argv)` is the
// whole `retarget` tool (inspect, check, convert, compare, draw, backends, backend, run and
// deploy) over the engines Managers lists. The `retarget` program is it over the shipped
// engines; a user's tool adds theirs, with their tags, rules and quirks:
//
//   int main(int argc, char** argv) {
//     return retarget::tool::main<retarget::tool::with_shipped<tinyengine_manager>>(argc, argv);
//   }
#ifndef RETARGET_TOOL_COMMAND_LINE_HPP
#define RETARGET_TOOL_COMMAND_LINE_HPP

#include <algorithm>
#include <array>
#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/list.hpp>
#include <iomanip>
#include <iostream>
#include <retarget/backend/console.hpp>
#include <retarget/backends.hpp>
#include <retarget/tool/commands.hpp>
#include <retarget/tool/detail/common.hpp>
#include <retarget/tool/detail/compare_command.hpp>
#include <retarget/tool/detail/convert_command.hpp>
#include <retarget/tool/detail/deploy_command.hpp>
#include <retarget/tool/detail/model_commands.hpp>
#include <retarget/tool/detail/run_command.hpp>
#include <retarget/version.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::tool {

// The engines retarget ships (backends::shipped), then the user's: a backend::manager_list,
// whose checks name a manager's missing piece, or two engines of one name, at compile time.
template <class... Managers>
using with_shipped = boost::mp11::mp_push_back<backends::shipped, Managers...>;

namespace detail {

struct command {
  std::string_view name;
  std::string_view summary;  // one line, for `retarget --help`
  std::string (*help)();     // usage and options, for `retarget NAME --help`
  int (*run)(arguments&, std::ostream&);
};

// A command of the table: its options are read from the arguments, then it runs.
template <class O, int (*Run)(const O&, arguments&, std::ostream&)>
constexpr command entry() {
  return {O::name, O::summary, help_of<O>, [](arguments& args, std::ostream& out) {
            const O options = retarget::options::from_command_line<O>(args);
            return Run(options, args, out);
          }};
}

// `retarget backends` and `retarget backend NAME ...`: the backend console over the same
// engines, given the command's name and the arguments after it.
template <class Managers, class O>
int console(const O&, arguments& args, std::ostream& out) {
  std::vector<std::string> forwarded{std::string(O::name)};
  for (auto& a : args.rest()) forwarded.push_back(std::move(a));
  return retarget::backend::backend_console<Managers>(forwarded, out);
}

// The commands in the order `retarget --help` lists them; deploy only where there are models
// to export.
template <class Managers, class Models>
constexpr auto table() {
  std::array<command, 8> common{
      entry<inspect_options, inspect>(),
      entry<check_options, check<Managers>>(),
      entry<convert_options, convert<Managers>>(),
      entry<compare_options, compare<Managers>>(),
      entry<draw_options, draw>(),
      entry<backends_options, console<Managers, backends_options>>(),
      entry<backend_options, console<Managers, backend_options>>(),
      entry<run_options, run<Managers>>(),
  };
  if constexpr (boost::mp11::mp_empty<Models>::value) {
    return common;
  } else {
    std::array<command, 9> all{};
    std::copy(common.begin(), common.end(), all.begin());
    all.back() = entry<deploy_options, deploy<Managers, Models>>();
    return all;
  }
}

template <class T>
struct is_manager_list : std::false_type {};
template <class... M>
struct is_manager_list<backend::manager_list<M...>> : std::true_type {};

template <class Table>
void print_help(const Table& commands, std::ostream& out) {
  out << "usage: retarget COMMAND [--help] ...\n\n"
         "Export models to ONNX once, retarget them to many inference engines.\n\ncommands:\n";
  for (const auto& c : commands)
    out << "  " << std::left << std::setw(10) << c.name << c.summary << "\n";
  out << "\nretarget COMMAND --help tells more about a command.\n";
}

// The command line of `args` on Managers' engines, as tool::run says.
template <class Managers, class Models>
int run_command_line(std::vector<std::string> args, std::ostream& out) {
  static constexpr auto commands = table<Managers, Models>();
  if (args.empty()) {
    print_help(commands, std::cerr);
    return 2;
  }
  if (args.front() == "--help" || args.front() == "-h" || args.front() == "help") {
    print_help(commands, out);
    return 0;
  }
  if (args.front() == "--version") {
    out << "retarget " << RETARGET_VERSION_STRING << "\n";
    return 0;
  }
  const std::string name = args.front();
  for (const auto& c : commands) {
    if (c.name != name) continue;
    arguments rest(std::vector<std::string>(args.begin() + 1, args.end()));
    // `backend NAME COMMAND --help` is the backend console's own help.
    const bool wants_help = name == "backend"
                                ? args.size() == 2 && (args[1] == "--help" || args[1] == "-h")
                                : rest.flag("--help") || rest.flag("-h");
    if (wants_help) {
      out << c.help();
      return 0;
    }
    return c.run(rest, out);
  }
  std::vector<std::string_view> names;
  for (const auto& c : commands) names.push_back(c.name);
  throw usage_error("retarget: unknown command '" + name + "' (closest: " +
                    retarget::join_names(retarget::closest_names(name, names)) + ")");
}

}  // namespace detail

// One command line: `args` without the program's name. What the command prints goes to
// `out`; a mistake in the command line throws options::usage_error, anything else
// retarget::error (or the standard library's errors). Returns the command's exit code.
template <class Managers, class Models = boost::mp11::mp_list<>>
int run(std::vector<std::string> args, std::ostream& out) {
  static_assert(detail::is_manager_list<Managers>::value,
                "retarget: tool::main and tool::run take a backend::manager_list of engines: "
                "retarget::tool::with_shipped<your_manager>");
  if constexpr (detail::is_manager_list<Managers>::value)
    return detail::run_command_line<Managers, Models>(std::move(args), out);
  else
    return 2;
}

// The whole tool: runs the command line of argv on Managers' engines (and deploys Models'
// models, as `retarget deploy` does), printing to stdout; an error is one line on stderr and
// exit code 2 for a mistake in the command line, 1 for anything else.
template <class Managers, class Models = boost::mp11::mp_list<>>
int main(int argc, char** argv) {
  try {
    return run<Managers, Models>(std::vector<std::string>(argv + 1, argv + argc), std::cout);
  } catch (const options::usage_error& e) {
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
    std::cerr << "retarget: " << detail::one_line(e.what()) << "\n";
    return 1;
  }
}

}  // namespace retarget::tool

#endif  // RETARGET_TOOL_COMMAND_LINE_HPP
