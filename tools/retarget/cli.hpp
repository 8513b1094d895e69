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
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/topology.hpp>
#include <retarget/options.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands.hpp"

namespace cli {

namespace fs = std::filesystem;

// The engines retarget ships, the same list for every command.
using managers = retarget::backends::shipped;

using retarget::options::arguments;
using retarget::options::usage_error;

struct command {
  std::string_view name;
  std::string_view summary;  // one line, for `retarget --help`
  std::string (*help)();     // usage and options, for `retarget NAME --help`
  int (*run)(arguments&, std::ostream&);
};

// Each command, given its options (taken out of the arguments) and the arguments left.
int inspect(const inspect_options&, arguments&, std::ostream&);
int check(const check_options&, arguments&, std::ostream&);
int draw(const draw_options&, arguments&, std::ostream&);
int run(const run_options&, arguments&, std::ostream&);
int deploy(const deploy_options&, arguments&, std::ostream&);
int convert(const convert_options&, arguments&, std::ostream&);
int compare(const compare_options&, arguments&, std::ostream&);
int check_for_backend(const fs::path& model, const std::string& backend, std::ostream&);

// The one MODEL.onnx a command takes; a usage error naming the closest of its options for one
// it does not know.
template <class O>
std::string one_model(arguments& args) {
  const auto files = args.positionals(retarget::options::option_names<O>());
  if (files.size() != 1)
    throw usage_error("retarget: " + std::string(O::name) + " takes one MODEL.onnx, got " +
                      std::to_string(files.size()));
  return files.front();
}

extern const std::span<const command> commands;

// The model in a file the user named, checked as every command needs it: a whole ONNX model
// (with its external data read in, unless `with_external_data` is false: inspect and draw
// read names, dims and sizes only) whose graph an engine could run (ir::check_structure). Every
// error is one line that names the file.
retarget::ir::model open_model(const fs::path& path, bool with_external_data = true);
// The same checks on a model already read from `path`.
void check_model(const retarget::ir::model& model, const fs::path& path);

// "NAME=VALUE" from an option's item; a usage error naming the option when it is not.
std::pair<std::string, std::string> name_and_value(const std::string& item, std::string_view option,
                                                   std::string_view value);
// The model's input of that name; a usage error naming the closest when there is none.
const retarget::ir::model_input& input_named(const std::vector<retarget::ir::model_input>& inputs,
                                             const std::string& name, std::string_view option,
                                             const fs::path& model_path);
// The tensors of --input NAME=FILE.pb items, each read and checked against the model's input
// (element type and static dims; the error names the file).
retarget::backend::tensor_map read_inputs(const retarget::ir::model& model,
                                          const fs::path& model_path,
                                          const std::vector<std::string>& items,
                                          std::string_view command);

// A message on one line: the lines of a multi-line one (ONNX's checker writes some) joined.
std::string one_line(std::string text);

// Fails now, with the error the real write would give, when `path` cannot be written: a
// temporary file is created beside it and removed. Commands call it before the work, so that a
// bad -o is not found after a minute of converting.
void check_writable(const fs::path& path);

// "retarget: PREFIX: REST" from an error "retarget: REST".
std::string prefixed(std::string_view prefix, const std::exception& e);

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
