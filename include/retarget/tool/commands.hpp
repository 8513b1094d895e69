// The retarget tool's commands, each as a described struct of its options: from it come the
// command's parsing (options::from_command_line) and its --help (help_of), so that neither can
// drift from the options the command reads. The prose around the options (usage, about) is
// the command's own.
#ifndef RETARGET_TOOL_COMMANDS_HPP
#define RETARGET_TOOL_COMMANDS_HPP

#include <boost/describe/class.hpp>
#include <boost/mp11/list.hpp>
#include <cstdint>
#include <optional>
#include <retarget/ir/graph.hpp>
#include <retarget/options/command_line.hpp>
#include <retarget/options/field.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::tool {

template <class T, retarget::fixed_string Value, retarget::fixed_string Help,
          retarget::fixed_string Short = "">
using option = retarget::options::option<T, Value, Help, Short>;
template <retarget::fixed_string Help>
using switch_option = retarget::options::option<bool, "", Help>;
using retarget::options::bounded;
using retarget::options::required;

struct inspect_options {
  static constexpr std::string_view name = "inspect";
  static constexpr std::string_view summary =
      "what a model holds: opsets, inputs, outputs, ops, weights, rewrites";
  static constexpr std::string_view usage = "retarget inspect MODEL.onnx";
  static constexpr std::string_view about =
      "Prints the model's opsets, its inputs and outputs with their dims, how many nodes of each\n"
      "op it has (subgraphs included), its custom domains, its weights and their size, the\n"
      "backend it was exported for and the rewrite report retarget recorded in its metadata.\n"
      "External data is not read: its size comes from the model.\n";
};
BOOST_DESCRIBE_STRUCT(inspect_options, (), ())

struct check_options {
  static constexpr std::string_view name = "check";
  static constexpr std::string_view summary =
      "ONNX's full checker and strict shape inference; the exit status says";
  static constexpr std::string_view usage = "retarget check MODEL.onnx [--backend NAME]";
  static constexpr std::string_view about =
      "Runs ONNX's full model checker, then shape inference in its strict mode. Exit status 0\n"
      "when the model passes both, 1 with the checker's message when not.\n\n"
      "With --backend NAME, lists instead every node that backend's engine refuses, and why\n"
      "(exit status 1 when there is one), from the table its package keeps.\n";
  option<std::optional<std::string>, "NAME",
         "list the nodes this backend's engine refuses instead (a name `retarget backends` "
         "lists)">
      backend;
};
BOOST_DESCRIBE_STRUCT(check_options, (), (backend))

struct convert_options {
  static constexpr std::string_view name = "convert";
  static constexpr std::string_view summary =
      "rewrite an existing ONNX model for a backend or another opset, with a report";
  static constexpr std::string_view usage =
      "retarget convert MODEL.onnx (--backend NAME | --opset N | both) -o OUT.onnx\n"
      "                        [options]";
  static constexpr std::string_view about =
      "Rebuilds the model node by node through the checked emitter for the backend: folds\n"
      "constants, applies the backend's pattern rules to a fixed point and its node rewrites,\n"
      "removes dead nodes, checks the result, and writes it atomically. Prints what fired and\n"
      "what the engine still refuses.\n\n"
      "With --opset N, first moves the model to opset N, one step at a time, through ONNX's\n"
      "version converter and retarget's adapters. Every node that no adapter takes there is\n"
      "reported at once, before anything is converted (exit status 1, nothing written).\n\n"
      "A dynamic batch stays dynamic: the model is converted at two sizes and the results\n"
      "joined. --dim n=1 makes it static instead; --fix NAME=... makes an input a constant\n"
      "(a scale factor given as an input, say), so that what depends on it folds.\n\n"
      "With --partition, a model the engine cannot run whole is cut ahead of every node it\n"
      "refuses (or, with --partition-at, after the values named): OUT.onnx, the converted\n"
      "head, runs on the backend; OUT.rest.onnx on onnxruntime; OUT.pipeline.json runs the\n"
      "two as one model (retarget run, retarget compare); the pipeline file is written last.\n";
  option<std::optional<std::string>, "NAME", "a backend `retarget backends` lists"> backend;
  bounded<option<std::optional<int>, "N", "the opset of the default domain to convert to">,
          retarget::ir::min_opset, retarget::ir::max_opset>
      opset;
  option<std::optional<std::string>, "FILE", "where the converted model goes", "-o"> output;
  switch_option<"also every node where a rule did not fire, and why"> explain;
  switch_option<"convert and report, write nothing"> dry_run;
  option<std::vector<std::string>, "NAME",
         "allow an inexact rewrite by name (opencv_dnn: cubic_resize_as_linear); once per name">
      approximate;
  bounded<option<std::size_t, "N", "the bound of the fixed point">, 1, 9999> max_passes{8};
  option<std::vector<std::string>, "NAME=FILE.pb|V1,V2,...",
         "make input NAME a constant of that value before converting; once per input">
      fix;
  option<std::vector<std::string>, "NAME=N",
         "give the open dim NAME (its name, or INPUT:AXIS) the size N before converting; once "
         "per dim">
      dim;
  switch_option<
      "cut the model ahead of the nodes the backend's engine refuses; the rest runs on "
      "onnxruntime">
      partition;
  option<std::vector<std::string>, "VALUE",
         "cut after this value instead: the backend runs what computes the values named, "
         "onnxruntime the rest; once per value">
      partition_at;
};
BOOST_DESCRIBE_STRUCT(convert_options, (),
                      (backend, opset, output, explain, dry_run, approximate, max_passes, fix, dim,
                       partition, partition_at))

struct compare_options {
  static constexpr std::string_view name = "compare";
  static constexpr std::string_view summary =
      "engines against each other, or a model against its original; --bisect";
  static constexpr std::string_view usage =
      "retarget compare MODEL.onnx --backends A,B,... [--against OTHER.onnx] [options]";
  static constexpr std::string_view about =
      "Runs the model on each engine, on the same inputs, and compares every output with the\n"
      "reference: the first engine on the model, or with --against, the first engine on\n"
      "OTHER.onnx (the original of a converted model, say). Prints each output's largest\n"
      "absolute and relative error and where the largest is. Exit status 1 when an output is\n"
      "outside the tolerance (NaN and Inf never pass) or an engine cannot run the model.\n\n"
      "MODEL may be a pipeline file (retarget convert --partition writes one): its parts run on\n"
      "their engines, against --against OTHER.onnx on the one engine --backends names.\n";
  required<option<std::string, "A,B,...",
                  "the engines (as `retarget backends` names them); the first one runs the "
                  "reference">>
      backends;
  option<std::optional<std::string>, "OTHER.onnx",
         "the reference model, run on the first engine; then every engine runs MODEL">
      against;
  option<std::vector<std::string>, "NAME=FILE.pb",
         "an input from a TensorProto file; once per input">
      input;
  option<std::vector<std::string>, "NAME=1x3x224x224",
         "the dims of a generated input (its dynamic dims need them)">
      shape;
  option<std::uint64_t, "N",
         "the seed of generated inputs: floats uniform in [-1, 1), integers in [0, 10), bools">
      seed{0};
  bounded<option<double, "A", "an element passes when |a - r| <= A + R * |r|">, 0> atol{1e-4};
  bounded<option<double, "R", "the relative part R of the tolerance, as --atol says">, 0> rtol{
      1e-3};
  switch_option<
      "for an engine that differs: expose the intermediate values as outputs and name the "
      "first node (in the model's order) whose output diverges, with its inputs' errors and "
      "its own; values an engine cannot give are listed and skipped">
      bisect;
};
BOOST_DESCRIBE_STRUCT(compare_options, (),
                      (backends, against, input, shape, seed, atol, rtol, bisect))

struct draw_options {
  static constexpr std::string_view name = "draw";
  static constexpr std::string_view summary = "a picture of the graph, through Graphviz";
  static constexpr std::string_view usage =
      "retarget draw MODEL.onnx -o FILE.svg|FILE.png|FILE.dot";
  static constexpr std::string_view about =
      "Draws the graph: inputs, nodes with their attributes and weights, outputs, and each edge\n"
      "with its shape where the model knows it. .svg and .png need Graphviz's dot; .dot writes\n"
      "the Graphviz source itself.\n";
  option<std::optional<std::string>, "FILE", "where the picture goes; its suffix picks the format",
         "-o">
      output;
};
BOOST_DESCRIBE_STRUCT(draw_options, (), (output))

struct backends_options {
  static constexpr std::string_view name = "backends";
  static constexpr std::string_view summary =
      "each backend: available or not, its version and its environment";
  static constexpr std::string_view usage = "retarget backends";
  static constexpr std::string_view about =
      "For each backend retarget knows: whether it is available here, its version, and what\n"
      "its manager found in the environment (or what is missing).\n";
};
BOOST_DESCRIBE_STRUCT(backends_options, (), ())

// Its options are the backend's param, read by the backend console (backend/console.hpp).
struct backend_options {
  static constexpr std::string_view name = "backend";
  static constexpr std::string_view summary =
      "one backend's own check, convert and run, with its param as options";
  static constexpr std::string_view usage = "retarget backend NAME check|convert|run [--help] ...";
  static constexpr std::string_view about =
      "The backend manager's console: `check` reports its environment, `convert` turns an ONNX\n"
      "file into the backend's files, `run` runs them; `--help` after the command lists the\n"
      "backend's param as options.\n";
};
BOOST_DESCRIBE_STRUCT(backend_options, (), ())

struct run_options {
  static constexpr std::string_view name = "run";
  static constexpr std::string_view summary =
      "inference through a backend; prints each output's shape and statistics";
  static constexpr std::string_view usage =
      "retarget run MODEL.onnx --backend NAME --input NAME=FILE.pb ... [options]\n"
      "       retarget run PIPELINE.json --input NAME=FILE.pb ... [--output-dir DIR]";
  static constexpr std::string_view about =
      "Converts the model for the backend in a scratch folder, runs it on the inputs (ONNX\n"
      "TensorProto files) through the backend's wrapper, and prints each output's name, dtype,\n"
      "shape, min, max, mean and standard deviation. The backend's param is taken as options\n"
      "too (see retarget backend NAME convert --help).\n\n"
      "A pipeline file (retarget convert --partition writes one) runs its parts in order, each\n"
      "on the engine it names.\n";
  option<std::optional<std::string>, "NAME",
         "a backend `retarget backends` lists (a pipeline names its own)">
      backend;
  option<std::vector<std::string>, "NAME=FILE", "an input as a TensorProto file; once per input">
      input;
  option<std::optional<std::string>, "DIR", "also write each output there as NAME.pb"> output_dir;
};
BOOST_DESCRIBE_STRUCT(run_options, (), (backend, input, output_dir))

struct deploy_options {
  static constexpr std::string_view name = "deploy";
  static constexpr std::string_view summary =
      "export a zoo model by a deploy config, convert it, run it, compare";
  static constexpr std::string_view usage =
      "retarget deploy CONFIG.json... --model NAME --work-dir DIR [--skip-unavailable]\n"
      "                       [--compare A,B,...]";
  static constexpr std::string_view about =
      "For each deploy config: exports the zoo model as its onnx_config says, with the rewrites\n"
      "of its backend, converts it with the backend's manager, runs it on the model's test\n"
      "input and compares the outputs with PyTorch's. The files go to DIR (DIR/CONFIG-NAME when\n"
      "several configs are given) with a summary.json, only when every stage passed: a failed\n"
      "deploy leaves DIR as it was. Several configs end with a table.\n";
  required<option<std::string, "NAME", "the zoo model: srcnn">> model;
  required<option<std::string, "DIR", "where the files go">> work_dir;
  bounded<option<double, "X", "the largest absolute error that passes">, 0> tolerance{1e-4};
  switch_option<
      "a config whose backend is not available here is exported only (the ONNX file in that "
      "backend's dialect) instead of failing">
      skip_unavailable;
  option<std::string, "A,B,...",
         "also run the exported model on these engines and compare them with the backend's "
         "outputs (as retarget compare does); a difference beyond the tolerance fails the deploy">
      compare;
};
BOOST_DESCRIBE_STRUCT(deploy_options, (), (model, work_dir, tolerance, skip_unavailable, compare))

// Every command, in the order `retarget --help` lists them.
using command_options = boost::mp11::mp_list<inspect_options, check_options, convert_options,
                                             compare_options, draw_options, backends_options,
                                             backend_options, run_options, deploy_options>;

// `retarget COMMAND --help`: the usage, what the command does, and its options.
template <class O>
std::string help_of() {
  std::string out = "usage: " + std::string(O::usage) + "\n\n" + std::string(O::about);
  const std::string options = retarget::options::help<O>();
  if (!options.empty()) out += "\noptions:\n" + options;
  return out;
}

}  // namespace retarget::tool

#endif  // RETARGET_TOOL_COMMANDS_HPP
