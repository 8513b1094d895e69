// OpenCV 4.6 against ONNX's own backend test models (Debian's libonnx-testdata): every model
// with a test data set runs on OpenCV's DNN module as written and after
// retarget::convert::convert<opencv_dnn>, and its outputs are compared with the test's expected
// ones (ONNX's tolerance: |a - e| <= 1e-7 + 1e-3 |e|). Each run is classified, and what
// `retarget check --backend opencv_dnn` said of the model beforehand is set beside it: a model
// that fails or gives wrong numbers while check named no node is a silent failure.
//
//   retarget_opencv_conformance DATA_ROOT [--results FILE] [--table FILE] [--check FILE]
//                               [--check-table FILE] [--only SUBSTRING] [--why]
//
// --results writes one line per model ("node/test_abs  written=right  converted=right"),
// --table the Markdown page (docs/opencv-conformance.md); --check compares the results with a
// file written before and fails on any model whose classes differ, naming it, and
// --check-table fails when the page is not the one this run gives; --why prints what each model
// that does not run right after convert met (its first refusal, or OpenCV's error). OpenCV runs
// each model in a child process (fork), so a crash or a hang (60 s) is a failure of that
// model, not of the harness; the parent never calls OpenCV.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/backends/opencv_dnn/quirks.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/opencv_child.hpp"
#include "support/strict.hpp"

namespace fs = std::filesystem;
namespace ir = retarget::ir;
using retarget::backends::opencv_dnn;

using retarget_test::one_line;
using retarget_test::run_in_child;

namespace {

// What OpenCV did with one model.
enum class outcome { right, wrong_values, wrong_shape, fails, convert_fails, not_tensors };

std::string_view name_of(outcome o) {
  switch (o) {
    case outcome::right:
      return "right";
    case outcome::wrong_values:
      return "wrong-values";
    case outcome::wrong_shape:
      return "wrong-shape";
    case outcome::fails:
      return "fails";
    case outcome::convert_fails:
      return "convert-fails";
    case outcome::not_tensors:
      return "not-tensors";
  }
  return "?";
}

struct run_result {
  outcome what = outcome::fails;
  bool refused = false;  // check --backend named a node
  std::string detail;    // the first line of the error, the first refusal, or where it differs
};

struct case_result {
  std::string name;
  std::set<std::string> ops;
  run_result written, converted;
};

// ONNX's backend tests compare with numpy's assert_allclose(rtol=1e-3, atol=1e-7), where a NaN
// expected and given passes, as an infinity of the same sign does: ir::difference, made to
// check one engine against another, never passes them, and tests such as node/test_isnan
// expect them.
std::string differs(const ir::tensor& got, const ir::tensor& expected) {
  if (got.dims() != expected.dims())
    return "dims " + ir::format_dims(got.dims()) + ", expected " + ir::format_dims(expected.dims());
  const auto a = ir::values_as_double(ir::tensor_view(got));
  const auto e = ir::values_as_double(ir::tensor_view(expected));
  for (std::size_t i = 0; i < e.size(); ++i) {
    if (std::isnan(e[i]) && std::isnan(a[i])) continue;
    if (std::isinf(e[i]) && a[i] == e[i]) continue;
    if (!(std::abs(a[i] - e[i]) <= 1e-7 + 1e-3 * std::abs(e[i])))
      return "element " + std::to_string(i) + " is " + std::to_string(a[i]) + ", expected " +
             std::to_string(e[i]);
  }
  return {};
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

run_result run_model(const fs::path& model_file, const ir::model& m,
                     const retarget::backend::tensor_map& inputs,
                     const std::vector<ir::tensor>& expected, const fs::path& scratch) {
  run_result r;
  if (const auto refused = retarget::convert::refused_nodes<opencv_dnn>(m);
      refused && !refused->empty()) {
    r.refused = true;
    r.detail = "refused: node " + std::to_string(refused->front().index) + " " +
               refused->front().node + ": " + refused->front().why;
  }
  // An output OpenCV does not compute (a Dropout's mask, MaxPool's indices) holds whatever its
  // memory held, which may come out right by chance (a mask of nonzero garbage read as
  // booleans) in one run of the harness and not in another: it is never called right.
  namespace quirks = retarget::backends::opencv_dnn_convert::quirks;
  if (!retarget::convert::quirk_sites<quirks::second_output_not_computed>(m).empty()) {
    r.what = outcome::wrong_values;
    return r;
  }
  const auto outputs = ir::outputs_of(m);
  std::vector<std::string> names;
  for (const auto& o : outputs) names.push_back(o.name);
  if (const auto error = run_in_child(model_file, inputs, names, scratch); !error.empty()) {
    r.what = outcome::fails;
    if (!r.refused) r.detail = error;
    return r;
  }
  // Twice: an output OpenCV does not compute (a Dropout's mask) is whatever its memory held,
  // and an answer that changes from run to run is a wrong one.
  const auto again = scratch.string() + "-again";
  const auto error = run_in_child(model_file, inputs, names, again);
  for (std::size_t i = 0; error.empty() && i < names.size(); ++i) {
    const auto name = "output_" + std::to_string(i) + ".pb";
    if (fs::exists(scratch / name) != fs::exists(fs::path(again) / name) ||
        (fs::exists(scratch / name) &&
         read_file(scratch / name) != read_file(fs::path(again) / name))) {
      r.what = outcome::wrong_values;
      if (!r.refused) r.detail = "output '" + names[i] + "' differs between two runs";
      return r;
    }
  }
  if (!error.empty()) {
    r.what = outcome::fails;
    if (!r.refused) r.detail = "the second run: " + error;
    return r;
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto file = scratch / ("output_" + std::to_string(i) + ".pb");
    if (!fs::exists(file)) {
      r.what = outcome::fails;
      if (!r.refused) r.detail = "no output '" + names[i] + "'";
      return r;
    }
    const auto got = ir::read_tensor_file(file);
    if (const auto why = differs(got, expected[i]); !why.empty()) {
      r.what = got.dims() != expected[i].dims() ? outcome::wrong_shape : outcome::wrong_values;
      if (!r.refused) r.detail = "output '" + names[i] + "': " + why;
      return r;
    }
  }
  r.what = outcome::right;
  return r;
}

// Sequences and optionals have no element type here; strings and complex numbers no values.
bool numeric(ir::dtype t) {
  return t != ir::dtype::undefined && t != ir::dtype::string && t != ir::dtype::c64 &&
         t != ir::dtype::c128;
}

std::optional<case_result> run_case(const fs::path& root, const fs::path& folder,
                                    const fs::path& scratch) {
  case_result c;
  c.name = fs::relative(folder, root).generic_string();
  const auto data = folder / "test_data_set_0";
  if (!fs::exists(data)) return std::nullopt;
  auto m = ir::load(folder / "model.onnx");
  for (const auto& n : m.nodes())
    if (n.op_type() != "Constant") c.ops.insert(n.op_type());
  // input_K.pb is the model's K-th input, output_K.pb its K-th output; OpenCV takes no
  // sequence, optional or string.
  retarget::backend::tensor_map inputs;
  std::vector<ir::tensor> expected;
  bool tensors = true;
  const auto declared_inputs = ir::inputs_of(m);
  for (std::size_t k = 0; k < declared_inputs.size(); ++k) {
    const auto file = data / ("input_" + std::to_string(k) + ".pb");
    if (!numeric(declared_inputs[k].type) || !fs::exists(file)) {
      tensors = false;
      break;
    }
    inputs.emplace(declared_inputs[k].name, ir::read_tensor_file(file));
  }
  const auto declared_outputs = ir::outputs_of(m);
  for (std::size_t k = 0; tensors && k < declared_outputs.size(); ++k) {
    const auto file = data / ("output_" + std::to_string(k) + ".pb");
    if (!numeric(declared_outputs[k].type) || !fs::exists(file)) tensors = false;
    if (tensors) expected.push_back(ir::read_tensor_file(file));
  }
  if (!tensors) {
    c.written.what = c.converted.what = outcome::not_tensors;
    return c;
  }
  c.written = run_model(folder / "model.onnx", m, inputs, expected, scratch / "run");
  try {
    auto [converted, report] = retarget::convert::convert<opencv_dnn>(std::move(m));
    const auto file = scratch / "converted.onnx";
    ir::save(converted, file);
    c.converted = run_model(file, converted, inputs, expected, scratch / "run");
  } catch (const retarget::error& e) {
    c.converted.what = outcome::convert_fails;
    c.converted.detail = one_line(e.what(), scratch);
  }
  return c;
}

// The classes a results line gives a model: "written=right converted=named". How a model that
// check names goes wrong is left out: OpenCV's answer for an output it does not compute (a
// Dropout's mask) is whatever its memory held, a crash on one run and wrong numbers the next.
std::string classes(const run_result& r) {
  if (r.what == outcome::right) return r.refused ? "right+refused" : "right";
  if (r.what == outcome::not_tensors || r.what == outcome::convert_fails)
    return std::string(name_of(r.what));
  return r.refused ? "named" : std::string(name_of(r.what)) + "+silent";
}

std::string results_line(const case_result& c) {
  return c.name + "  written=" + classes(c.written) + "  converted=" + classes(c.converted);
}

// The rows of the totals table, in the terms.
struct totals {
  std::map<std::string, int> written, converted;
  void add(const case_result& c) {
    ++written[row_of(c.written)];
    ++converted[row_of(c.converted)];
  }
  static std::string row_of(const run_result& r) {
    const std::string named = "fails or gives wrong numbers, and check said so";
    switch (r.what) {
      case outcome::right:
        return r.refused ? "right, though check named a node" : "right";
      case outcome::wrong_values:
        return r.refused ? named : "wrong values, nothing said so";
      case outcome::wrong_shape:
        return r.refused ? named : "wrong shape, nothing said so";
      case outcome::fails:
        return r.refused ? named : "fails, check said nothing";
      case outcome::convert_fails:
        return "convert stops with an error";
      case outcome::not_tensors:
        return "not numeric tensors (sequences, optionals, strings)";
    }
    return "?";
  }
};

bool silent(const run_result& r) {
  return !r.refused && (r.what == outcome::wrong_values || r.what == outcome::wrong_shape ||
                        r.what == outcome::fails);
}

std::string table_of(const std::vector<case_result>& cases) {
  totals t;
  for (const auto& c : cases) t.add(c);
  std::ostringstream out;
  out << "# OpenCV 4.6 on ONNX's backend test models\n\n"
         "<!-- Generated by tests/conformance/opencv_dnn.cpp (scripts/dev conformance); do not "
         "edit. -->\n\n"
         "Every model of Debian's libonnx-testdata with a test data set ("
      << cases.size()
      << " models) run on OpenCV 4.6's DNN module, as written and after `retarget convert "
         "--backend opencv_dnn`, against the test's expected outputs (|a - e| <= 1e-7 + "
         "1e-3 |e|, ONNX's own tolerance). \"check\" is `retarget check --backend opencv_dnn` "
         "on the model OpenCV ran: a model that fails or gives wrong numbers while check named "
         "no node is a silent failure.\n\n"
         "| | as written | after convert |\n| --- | ---: | ---: |\n";
  // Every row, a zero too: the silent ones are what the table is for.
  const std::string rows[] = {"right",
                              "right, though check named a node",
                              "wrong values, nothing said so",
                              "wrong shape, nothing said so",
                              "fails, check said nothing",
                              "fails or gives wrong numbers, and check said so",
                              "convert stops with an error",
                              "not numeric tensors (sequences, optionals, strings)"};
  for (const auto& row : rows)
    out << "| " << row << " | " << (t.written.count(row) ? t.written.at(row) : 0) << " | "
        << (t.converted.count(row) ? t.converted.at(row) : 0) << " |\n";

  // Per op: the models holding it (a node test holds one op; a model may count for several).
  struct per_op {
    int models = 0, written_right = 0, converted_right = 0, named = 0, silent = 0;
  };
  std::map<std::string, per_op> ops;
  for (const auto& c : cases) {
    if (c.written.what == outcome::not_tensors) continue;
    for (const auto& op : c.ops) {
      auto& o = ops[op];
      ++o.models;
      o.written_right += c.written.what == outcome::right;
      o.converted_right += c.converted.what == outcome::right;
      o.named += c.converted.what != outcome::right && !silent(c.converted);
      o.silent += silent(c.converted);
    }
  }
  out << "\n## Per op\n\nThe models that hold the op (Constant left out), and after convert how "
         "many OpenCV runs right, how many retarget names (check refuses a node, or convert "
         "stops with an error) and how many go wrong silently.\n\n"
         "| op | models | right as written | right after convert | named | silent |\n"
         "| --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const auto& [op, o] : ops)
    out << "| " << op << " | " << o.models << " | " << o.written_right << " | " << o.converted_right
        << " | " << o.named << " | " << o.silent << " |\n";

  out << "\n## Silent failures after convert\n\n";
  int n = 0;
  for (const auto& c : cases)
    if (silent(c.converted))
      out << "- `" << c.name << "`: " << name_of(c.converted.what) << ": " << c.converted.detail
          << "\n",
          ++n;
  if (n == 0) out << "None.\n";
  return out.str();
}

// Written whole or not at all: a temporary file renamed into place.
void write_file(const fs::path& path, const std::string& text) {
  const auto partial = fs::path(path.string() + ".partial");
  std::ofstream(partial) << text;
  fs::rename(partial, path);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: retarget_opencv_conformance DATA_ROOT [--results FILE] [--table FILE] "
                 "[--check FILE] [--check-table FILE] [--only SUBSTRING] [--why]\n";
    return 2;
  }
  const fs::path root = argv[1];
  std::optional<fs::path> results_file, table_file, check_file, check_table;
  std::string only;
  bool why = false;  // --why: what each model not right after convert met
  for (int i = 2; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--why") {
      why = true;
      --i;
      continue;
    }
    if (i + 1 == argc) {
      std::cerr << "retarget_opencv_conformance: " << flag << " needs a value\n";
      return 2;
    }
    if (flag == "--results")
      results_file = argv[i + 1];
    else if (flag == "--table")
      table_file = argv[i + 1];
    else if (flag == "--check")
      check_file = argv[i + 1];
    else if (flag == "--check-table")
      check_table = argv[i + 1];
    else if (flag == "--only")
      only = argv[i + 1];
    else {
      std::cerr << "retarget_opencv_conformance: unknown option " << flag << "\n";
      return 2;
    }
  }
  if (!fs::exists(root)) {
    return retarget_test::skip_status("libonnx-testdata",
                                      "no ONNX backend test data at " + root.string());
  }
  std::vector<fs::path> folders;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.path().filename() == "model.onnx") {
      const auto folder = e.path().parent_path();
      if (only.empty() ||
          fs::relative(folder, root).generic_string().find(only) != std::string::npos)
        folders.push_back(folder);
    }
  std::sort(folders.begin(), folders.end());

  const auto scratch =
      fs::temp_directory_path() / ("retarget-conformance-" + std::to_string(getpid()));
  std::vector<case_result> cases;
  int broken = 0;  // models the harness itself could not read or compare
  for (const auto& folder : folders) {
    try {
      if (auto c = run_case(root, folder, scratch)) cases.push_back(std::move(*c));
    } catch (const std::exception& e) {
      std::cerr << folder.string() << ": " << one_line(e.what(), scratch) << "\n";
      ++broken;
    }
  }
  fs::remove_all(scratch);

  std::ostringstream lines;
  for (const auto& c : cases) lines << results_line(c) << "\n";
  if (results_file) write_file(*results_file, lines.str());
  if (table_file) write_file(*table_file, table_of(cases));

  totals t;
  for (const auto& c : cases) t.add(c);
  std::cout << cases.size() << " models\n";
  for (const auto& [row, count] : t.converted)
    std::cout << "  after convert: " << row << ": " << count << "\n";
  for (const auto& c : cases)
    if (silent(c.converted) || (why && c.converted.what != outcome::right))
      std::cout << "  " << (silent(c.converted) ? "silent" : classes(c.converted)) << ": " << c.name
                << ": " << c.converted.detail << "\n";

  if (broken) {
    std::cout << broken << " models could not be read or compared\n";
    return 1;
  }
  int stale = 0;
  if (check_table && read_file(*check_table) != table_of(cases)) {
    std::cout << check_table->string()
              << " is not what this run gives; regenerate it with scripts/dev conformance\n";
    stale = 1;
  }
  if (!check_file) return stale;
  std::map<std::string, std::string> before;
  std::ifstream in(*check_file);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) before[line.substr(0, line.find(' '))] = line;
  int changed = 0;
  for (const auto& c : cases) {
    const auto now = results_line(c);
    const auto it = before.find(c.name);
    if (it == before.end() || it->second != now) {
      std::cout << "changed: " << now
                << "\n   was: " << (it == before.end() ? "(not there)" : it->second) << "\n";
      ++changed;
    }
  }
  if (changed)
    std::cout << changed << " models changed class; if the change is meant, regenerate "
              << check_file->string() << " with scripts/dev conformance\n";
  return changed || stale ? 1 : 0;
}
