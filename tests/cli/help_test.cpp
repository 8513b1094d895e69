// The retarget tool's help and number options come from each command's options struct
// (retarget/tool/commands.hpp): `retarget COMMAND --help` prints what the struct generates and
// names every one of its options, `retarget --help` every command, and a bad number given to
// any number option is a usage error that names the option and the text, from the one reader
// of numbers (options::parse_number). The tool runs as a user runs it; docs/cli.md shows its
// help as it prints it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/mp11/algorithm.hpp>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <retarget/tool/commands.hpp>
#include <string>
#include <type_traits>
#include <vector>

extern char** environ;

namespace {

namespace fs = std::filesystem;
namespace ro = retarget::options;

struct outcome {
  int status = -1;
  std::string out, err;
};

std::string read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

outcome run_tool(const std::vector<std::string>& args) {
  static int calls = 0;
  const fs::path logs =
      fs::temp_directory_path() /
      ("retarget-help-test-" + std::to_string(::getpid()) + "-" + std::to_string(calls++));
  fs::create_directories(logs);
  std::string tool = RETARGET_CLI;
  std::vector<std::string> copies(args);
  std::vector<char*> argv{tool.data()};
  for (auto& a : copies) argv.push_back(a.data());
  argv.push_back(nullptr);
  const auto out_file = logs / "stdout", err_file = logs / "stderr";
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, tool.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  outcome result;
  if (spawned == 0) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out = read_all(out_file);
    result.err = read_all(err_file);
  } else {
    result.err = "cannot start " + tool;
  }
  fs::remove_all(logs);
  return result;
}

// The value a number option holds, or void: T, std::optional<T>, std::vector<T>.
template <class T>
struct number_of {
  using type = std::conditional_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, T, void>;
};
template <class T>
struct number_of<std::optional<T>> : number_of<T> {};
template <class T>
struct number_of<std::vector<T>> : number_of<T> {};

template <class F>
constexpr bool is_number_option = !std::is_void_v<typename number_of<typename F::value_type>::type>;

// Calls f(name, F) for each option of O, F its field type.
template <class O, class Fn>
void for_each_option(Fn&& f) {
  boost::mp11::mp_for_each<ro::detail::members_of<O>>([&](auto d) {
    using F = std::remove_cvref_t<decltype(std::declval<O&>().*d.pointer)>;
    f(ro::option_name(d.name), static_cast<F*>(nullptr));
  });
}

// A command line that reaches the option's reading: the option alone, after the command.
outcome with_option(std::string_view command, const std::string& option, const std::string& text) {
  return run_tool({std::string(command), option, text});
}

void expect_number_error(std::string_view command, const std::string& option,
                         const std::string& text, const std::string& expected) {
  const auto r = with_option(command, option, text);
  EXPECT_EQ(r.status, 2) << command << " " << option << " " << text << ": " << r.err;
  const std::string line =
      "retarget: option " + option + " expects " + expected + ", got '" + text + "'";
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')), line + " (see retarget --help)")
      << command << " " << option << " " << text;
  EXPECT_EQ(r.out, "");
}

TEST(cli_help, each_command_prints_its_generated_help_naming_every_option) {
  boost::mp11::mp_for_each<retarget::tool::command_options>([](auto command) {
    using O = decltype(command);
    SCOPED_TRACE(std::string(O::name));
    const auto r = run_tool({std::string(O::name), "--help"});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out, retarget::tool::help_of<O>());
    std::size_t options = 0;
    for_each_option<O>([&](const std::string& name, auto* field) {
      using F = std::remove_pointer_t<decltype(field)>;
      ++options;
      // Each option on a line of its own, after its short name when it has one.
      std::string label = "\n  ";
      if constexpr (ro::Option<F>)
        if (!F::short_name.empty()) label += std::string(F::short_name) + ", ";
      EXPECT_NE(
          r.out.find(label + name + (std::is_same_v<typename F::value_type, bool> ? "" : " ")),
          std::string::npos)
          << name << " is not in " << O::name << " --help:\n"
          << r.out;
      EXPECT_NE(r.out.find(std::string(F::help.substr(0, 20))), std::string::npos)
          << name << "'s help text is not in " << O::name << " --help";
    });
    EXPECT_EQ(options > 0, r.out.find("\noptions:\n") != std::string::npos);
  });
}

TEST(cli_help, the_tool_help_lists_every_command) {
  const auto r = run_tool({"--help"});
  EXPECT_EQ(r.status, 0);
  boost::mp11::mp_for_each<retarget::tool::command_options>([&](auto command) {
    using O = decltype(command);
    std::string line = "\n  " + std::string(O::name);
    line.resize(13, ' ');  // the name in a column of 10
    EXPECT_NE(r.out.find(line + std::string(O::summary) + "\n"), std::string::npos)
        << O::name << " is not in retarget --help:\n"
        << r.out;
  });
}

TEST(cli_help, a_bad_number_names_its_option_and_text) {
  std::size_t checked = 0;
  boost::mp11::mp_for_each<retarget::tool::command_options>([&](auto command) {
    using O = decltype(command);
    for_each_option<O>([&](const std::string& name, auto* field) {
      using F = std::remove_pointer_t<decltype(field)>;
      if constexpr (is_number_option<F>) {
        using T = typename number_of<typename F::value_type>::type;
        const std::string kind = std::is_integral_v<T> ? "an integer" : "a number";
        std::string range;
        if constexpr (requires { F::min; }) {
          range = F::max == std::numeric_limits<long long>::max()
                      ? " >= " + std::to_string(F::min)
                      : " from " + std::to_string(F::min) + " to " + std::to_string(F::max);
          expect_number_error(O::name, name, std::to_string(F::min - 1), kind + range);
          if (F::max != std::numeric_limits<long long>::max())
            expect_number_error(O::name, name, std::to_string(F::max + 1), kind + range);
        }
        expect_number_error(O::name, name, "twelve", kind + range);
        expect_number_error(O::name, name, "12abc", kind + range);
        ++checked;
      }
    });
  });
  // opset and max-passes of convert; seed, atol and rtol of compare; tolerance of deploy.
  EXPECT_EQ(checked, 6u);
}

// docs/cli.md shows the help of these commands in full, as `$ retarget COMMAND --help`.
TEST(cli_help, the_page_shows_the_help_as_the_tool_prints_it) {
  const std::string page = read_all(fs::path(RETARGET_SOURCE_DIR) / "docs/cli.md");
  std::size_t shown = 0;
  boost::mp11::mp_for_each<retarget::tool::command_options>([&](auto command) {
    using O = decltype(command);
    const std::string prompt = "$ retarget " + std::string(O::name) + " --help\n";
    const auto at = page.find(prompt);
    if (at == std::string::npos) return;
    ++shown;
    const auto r = run_tool({std::string(O::name), "--help"});
    EXPECT_EQ(page.substr(at + prompt.size(), r.out.size() + 3), r.out + "```")
        << "docs/cli.md shows another help of " << O::name << " than the tool prints:\n"
        << r.out;
  });
  EXPECT_GE(shown, 2u);  // convert and compare
}

}  // namespace
