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

int backends(arguments& args, std::ostream& out) {
  std::vector<std::string> forwarded{"backends"};
  for (auto& a : args.rest()) forwarded.push_back(std::move(a));
  return retarget::backend::backend_console<managers>(forwarded, out);
}

int backend(arguments& args, std::ostream& out) {
  std::vector<std::string> forwarded{"backend"};
  for (auto& a : args.rest()) forwarded.push_back(std::move(a));
  return retarget::backend::backend_console<managers>(forwarded, out);
}

constexpr command table[] = {
    {"inspect", "what a model holds: opsets, inputs, outputs, ops, weights, rewrites",
     "usage: retarget inspect MODEL.onnx\n\n"
     "Prints the model's opsets, its inputs and outputs with their dims, how many nodes of each\n"
     "op it has (subgraphs included), its custom domains, its weights and their size, the\n"
     "backend it was exported for and the rewrite report retarget recorded in its metadata.\n"
     "External data is not read: its size comes from the model.\n",
     inspect},
    {"check", "ONNX's full checker and strict shape inference; the exit status says",
     "usage: retarget check MODEL.onnx [--backend NAME]\n\n"
     "Runs ONNX's full model checker, then shape inference in its strict mode. Exit status 0\n"
     "when the model passes both, 1 with the checker's message when not.\n\n"
     "With --backend NAME, lists instead every node that backend's engine refuses, and why\n"
     "(exit status 1 when there is one), from the table its package keeps.\n",
     check},
    {"convert", "rewrite an existing ONNX model for a backend or another opset, with a report",
     "usage: retarget convert MODEL.onnx (--backend NAME | --opset N | both) -o OUT.onnx\n"
     "                        [options]\n\n"
     "Rebuilds the model node by node through the checked emitter for the backend: folds\n"
     "constants, applies the backend's pattern rules to a fixed point and its node rewrites,\n"
     "removes dead nodes, checks the result, and writes it atomically. Prints what fired and\n"
     "what the engine still refuses.\n\n"
     "With --opset N, first moves the model to opset N, one step at a time, through ONNX's\n"
     "version converter and retarget's adapters. Every node that no adapter takes there is\n"
     "reported at once, before anything is converted (exit status 1, nothing written).\n\n"
     "options:\n"
     "  --backend NAME        onnxruntime, opencv_dnn or tensorrt\n"
     "  --opset N             the opset of the default domain to convert to (1 to 17)\n"
     "  -o, --output FILE     where the converted model goes\n"
     "  --explain             also each rule that never fired, and its closest partial match\n"
     "  --dry-run             convert and report, write nothing\n"
     "  --approximate NAME    allow an inexact rewrite by name (opencv_dnn:\n"
     "                        cubic_resize_as_linear); once per name\n"
     "  --max-passes N        the bound of the fixed point (default 8)\n",
     convert},
    {"compare", "engines against each other, or a model against its original; --bisect",
     "usage: retarget compare MODEL.onnx --backends A,B,... [--against OTHER.onnx] [options]\n\n"
     "Runs the model on each engine, on the same inputs, and compares every output with the\n"
     "reference: the first engine on the model, or with --against, the first engine on\n"
     "OTHER.onnx (the original of a converted model, say). Prints each output's largest\n"
     "absolute and relative error and where the largest is. Exit status 1 when an output is\n"
     "outside the tolerance (NaN and Inf never pass) or an engine cannot run the model.\n\n"
     "options:\n"
     "  --backends A,B,...       the engines (onnxruntime, opencv_dnn, tensorrt); the first\n"
     "                           one runs the reference\n"
     "  --against OTHER.onnx     the reference model, run on the first engine; then every\n"
     "                           engine runs MODEL\n"
     "  --input NAME=FILE.pb     an input from a TensorProto file; once per input\n"
     "  --shape NAME=1x3x224x224 the dims of a generated input (its dynamic dims need them)\n"
     "  --seed N                 the seed of generated inputs (default 0): floats uniform in\n"
     "                           [-1, 1), integers in [0, 10), bools\n"
     "  --atol A, --rtol R       an element passes when |a - r| <= A + R * |r| (default\n"
     "                           1e-4 and 1e-3)\n"
     "  --bisect                 for an engine that differs: expose the intermediate values\n"
     "                           as outputs and name the first node (in the model's order)\n"
     "                           whose output diverges, with its inputs' errors and its own;\n"
     "                           values an engine cannot give are listed and skipped\n",
     compare},
    {"draw", "a picture of the graph, through Graphviz",
     "usage: retarget draw MODEL.onnx -o FILE.svg|FILE.png|FILE.dot\n\n"
     "Draws the graph: inputs, nodes with their attributes and weights, outputs, and each edge\n"
     "with its shape where the model knows it. .svg and .png need Graphviz's dot; .dot writes\n"
     "the Graphviz source itself.\n\n"
     "options:\n"
     "  -o, --output FILE   where the picture goes; its suffix picks the format\n",
     draw},
    {"backends", "each backend: available or not, its version and its environment",
     "usage: retarget backends\n\n"
     "For each backend retarget knows: whether it is available here, its version, and what\n"
     "its manager found in the environment (or what is missing).\n",
     backends},
    {"backend", "one backend's own check, convert and run, with its param as options",
     "usage: retarget backend NAME check|convert|run [--help] ...\n\n"
     "The backend manager's console: `check` reports its environment, `convert` turns an ONNX\n"
     "file into the backend's files, `run` runs them; `--help` after the command lists the\n"
     "backend's param as options.\n",
     backend},
    {"run", "inference through a backend; prints each output's shape and statistics",
     "usage: retarget run MODEL.onnx --backend NAME --input NAME=FILE.pb ... [options]\n\n"
     "Converts the model for the backend in a scratch folder, runs it on the inputs (ONNX\n"
     "TensorProto files) through the backend's wrapper, and prints each output's name, dtype,\n"
     "shape, min, max, mean and standard deviation.\n\n"
     "options:\n"
     "  --backend NAME      onnxruntime, opencv_dnn or tensorrt\n"
     "  --input NAME=FILE   an input as a TensorProto file; once per input\n"
     "  --output-dir DIR    also write each output there as NAME.pb\n"
     "  other options       the backend's param (see retarget backend NAME convert --help)\n",
     run},
    {"deploy", "export a zoo model by a deploy config, convert it, run it, compare",
     "usage: retarget deploy CONFIG.json... --model NAME --work-dir DIR [--skip-unavailable]\n"
     "                       [--compare A,B,...]\n\n"
     "For each deploy config: exports the zoo model as its onnx_config says, with the rewrites\n"
     "of its backend, converts it with the backend's manager, runs it on the model's test\n"
     "input and compares the outputs with PyTorch's. The files go to DIR (DIR/CONFIG-NAME when\n"
     "several configs are given) with a summary.json, only when every stage passed: a failed\n"
     "deploy leaves DIR as it was. Several configs end with a table.\n\n"
     "options:\n"
     "  --model NAME        the zoo model: srcnn\n"
     "  --work-dir DIR      where the files go\n"
     "  --tolerance X       the largest absolute error that passes (default 1e-4)\n"
     "  --skip-unavailable  a config whose backend is not available here is exported only\n"
     "                      (the ONNX file in that backend's dialect) instead of failing\n"
     "  --compare A,B,...   also run the exported model on these engines and compare them\n"
     "                      with the backend's outputs (as retarget compare does); a\n"
     "                      difference beyond the tolerance fails the deploy\n",
     deploy},
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
      out << c.help;
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
  std::string_view what = e.what();
  if (what.starts_with("retarget: ")) what.remove_prefix(10);
  return "retarget: " + std::string(prefix) + ": " + std::string(what);
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
