// What the retarget tool's commands share: their table, argument handling, the backends it
// knows, and writing files so that a failure leaves nothing half-written.
#ifndef RETARGET_TOOLS_CLI_HPP
#define RETARGET_TOOLS_CLI_HPP

#include <filesystem>
#include <optional>
#include <ostream>
#include <retarget/backend.hpp>
#include <retarget/backends.hpp>
#include <retarget/ir/atomic_file.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/options.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cli {

namespace fs = std::filesystem;

// The engines retarget ships, the same list for every command.
using managers = retarget::backends::shipped;

using retarget::options::arguments;
using retarget::options::usage_error;

struct command {
  std::string_view name;
  std::string_view summary;  // one line, for `retarget --help`
  std::string_view help;     // usage and options, for `retarget NAME --help`
  int (*run)(arguments&, std::ostream&);
};

int inspect(arguments&, std::ostream&);
int check(arguments&, std::ostream&);
int draw(arguments&, std::ostream&);
int run(arguments&, std::ostream&);
int deploy(arguments&, std::ostream&);
int convert(arguments&, std::ostream&);
int compare(arguments&, std::ostream&);
int check_for_backend(const fs::path& model, const std::string& backend, std::ostream&);

extern const std::span<const command> commands;

// Writes a file under a temporary name and renames it into place.
inline void write_file(const fs::path& path, std::string_view bytes) {
  retarget::ir::atomic_file file(path);
  file.write(bytes.data(), bytes.size());
  file.commit();
}

// "0.42 s", "1.3e-07": numbers as the tool prints them.
std::string seconds(double s);
std::string scientific(double v);

}  // namespace cli

#endif  // RETARGET_TOOLS_CLI_HPP
