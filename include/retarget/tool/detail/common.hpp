// What the retarget tool's commands share: argument handling, reading the model a command is
// given, and writing files so that a failure leaves nothing half-written.
#ifndef RETARGET_TOOL_DETAIL_COMMON_HPP
#define RETARGET_TOOL_DETAIL_COMMON_HPP

#include <unistd.h>  // isatty: a status line only on a terminal

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <ostream>
#include <retarget/backend.hpp>
#include <retarget/ir/atomic_file.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/topology.hpp>
#include <retarget/options.hpp>
#include <retarget/tool/commands.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retarget::tool::detail {

namespace fs = std::filesystem;

using retarget::options::arguments;
using retarget::options::usage_error;

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

// Writes a file under a temporary name and renames it into place.
inline void write_file(const fs::path& path, std::string_view bytes) {
  retarget::ir::atomic_file file(path);
  file.write(bytes.data(), bytes.size());
  file.commit();
}

// "retarget: PREFIX: REST" from an error "retarget: REST".
inline std::string prefixed(std::string_view prefix, const std::exception& e) {
  return "retarget: " + std::string(prefix) + ": " + std::string(retarget::reason_of(e));
}

// The checks every command makes of a model read from `path`: its external data, and a graph
// an engine could run (ir::check_structure); the error names the file.
inline void check_model(const retarget::ir::model& model, const fs::path& path) {
  retarget::ir::check_external_data(model, path);  // what load() read in is no longer external
  try {
    retarget::ir::check_structure(model);
  } catch (const retarget::error& e) {
    throw retarget::error(prefixed(path.string(), e));
  }
}

// The model in a file the user named, checked as above, with its external data read in unless
// `with_external_data` is false (inspect and draw read names, dims and sizes only).
inline retarget::ir::model open_model(const fs::path& path, bool with_external_data = true) {
  auto model = with_external_data ? retarget::ir::load(path) : retarget::ir::read_model_file(path);
  check_model(model, path);
  return model;
}

// "NAME=VALUE" from an option's item; a usage error naming the option when it is not.
inline std::pair<std::string, std::string> name_and_value(const std::string& item,
                                                          std::string_view option,
                                                          std::string_view value) {
  const auto eq = item.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
    throw usage_error("retarget: " + std::string(option) + " '" + item +
                      "' is not NAME=" + std::string(value));
  return {item.substr(0, eq), item.substr(eq + 1)};
}

// The model's input of that name; a usage error naming the closest when there is none.
inline const retarget::ir::model_input& input_named(
    const std::vector<retarget::ir::model_input>& inputs, const std::string& name,
    std::string_view option, const fs::path& model_path) {
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

// The tensors of --input NAME=FILE.pb items, each read and checked against the model's input
// (element type and static dims; the error names the file).
inline retarget::backend::tensor_map read_inputs(const retarget::ir::model& model,
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

// What a long command is doing, on one line of stderr rewritten in place (a few times a
// second), only when stderr is a terminal; the line is cleared before the command prints
// its results, and when it ends. A pipe or a file gets nothing.
class status_line {
 public:
  status_line() : on_terminal_(::isatty(2) != 0) {}
  status_line(const status_line&) = delete;
  status_line& operator=(const status_line&) = delete;
  ~status_line() { clear(); }

  bool on_terminal() const noexcept { return on_terminal_; }

  // Shows `text`, unless the line changed less than 200 ms ago (and `now` is not asked for).
  void show(const std::string& text, bool now = false) {
    if (!on_terminal_) return;
    const auto time = std::chrono::steady_clock::now();
    if (shown_ && !now && time - last_ < std::chrono::milliseconds(200)) return;
    last_ = time;
    shown_ = true;
    std::cerr << "\r\033[K" << text << std::flush;
  }
  void clear() {
    if (shown_) std::cerr << "\r\033[K" << std::flush;
    shown_ = false;
  }

 private:
  bool on_terminal_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// A message on one line: the lines of a multi-line one (ONNX's checker writes some) joined.
inline std::string one_line(std::string text) {
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

// Fails now, with the error the real write would give, when `path` cannot be written: a
// temporary file is created beside it and removed. Commands call it before the work, so that a
// bad -o is not found after a minute of converting.
inline void check_writable(const fs::path& path) { retarget::ir::atomic_file probe(path); }

// "0.42 s", "1.3e-07": numbers as the tool prints them.
inline std::string seconds(double s) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(s < 10 ? 2 : 1) << s << " s";
  return out.str();
}

inline std::string scientific(double v) {
  std::ostringstream out;
  out << std::scientific << std::setprecision(1) << v;
  return out.str();
}

}  // namespace retarget::tool::detail

#endif  // RETARGET_TOOL_DETAIL_COMMON_HPP
