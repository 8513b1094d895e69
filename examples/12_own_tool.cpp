// Tutorial 12: a retarget tool of your own.
//
// The `retarget` command line knows the engines retarget ships. A user with an engine of their
// own (here tinyengine, whose package, tinyengine.hpp, holds its tag, rules, quirks and
// manager) gets the same command line with their engine in it from one call:
// retarget::tool::main over the shipped engines and theirs. `convert --backend tinyengine`
// then runs tinyengine's rules, `check --backend tinyengine` lists what its quirks find,
// `run` and `compare` run models on it, and `backends` lists it.
//
// Given arguments, this program is that tool:
//   example_12_own_tool backends
//   example_12_own_tool convert block.onnx --backend tinyengine -o tiny.onnx
// Without, it runs the tutorial: those commands on tinyengine's transformer block, in process
// (retarget::tool::run), each checked.
#include <cstdio>
#include <filesystem>
#include <retarget/backends/opencv_dnn.hpp>  // links OpenCV's DNN module: the tool runs it too
#include <retarget/ir.hpp>
#include <retarget/tool.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tinyengine.hpp"
#include "tutorial.hpp"

// 1. The tool's engines: retarget's own, then tinyengine.
using tools = retarget::tool::with_shipped<tiny::manager>;

namespace {

namespace fs = std::filesystem;

struct outcome {
  int code = 0;
  std::string out;
};

// One command line of the tool, run in process; prints it, then what it printed (an error as
// the tool prints it, on one line).
outcome tinyretarget(std::vector<std::string> args) {
  std::printf("$ tinyretarget");
  for (const auto& a : args) std::printf(" %s", a.c_str());
  std::printf("\n");
  std::ostringstream out;
  outcome r;
  try {
    r.code = retarget::tool::run<tools>(args, out);
  } catch (const retarget::options::usage_error& e) {
    out << e.what() << "\n";
    r.code = 2;
  } catch (const std::exception& e) {
    out << e.what() << "\n";
    r.code = 1;
  }
  r.out = out.str();
  std::printf("%s(exit status %d)\n\n", r.out.c_str(), r.code);
  return r;
}

// Whether the command ended with `code` and printed `text`; says so when not.
bool expect(const outcome& r, int code, const std::string& text) {
  const bool ok = r.code == code && r.out.find(text) != std::string::npos;
  if (!ok)
    std::printf("  <-- EXPECTED exit status %d and output with \"%s\"\n\n", code, text.c_str());
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  // 2. The tool itself: one call.
  if (argc > 1) return retarget::tool::main<tools>(argc, argv);

  // 3. The tutorial: the block and an input in a folder of their own, where the commands run.
  tutorial::work_dir dir("own-tool");
  if (!tutorial::onnxruntime_available(tutorial::onnxruntime_param(dir.path())))
    return tutorial::skipped;
  fs::current_path(dir.path());
  retarget::ir::save(tiny::make_block(), "block.onnx");
  std::vector<float> input;
  for (int i = 0; i < 32; ++i) input.push_back(static_cast<float>((i * 13 % 17) - 8) / 3.0f);
  retarget::ir::write_tensor_file("x.pb", retarget::ir::tensor::of<float>(input, {4, 8}));
  bool ok = true;

  // tinyengine is listed with the shipped engines.
  ok &= expect(tinyretarget({"backends"}), 0, "tinyengine: available, tinyengine 1.0");
  // What tinyengine refuses in the block, from its quirks; and the engine refusing it.
  ok &= expect(tinyretarget({"check", "block.onnx", "--backend", "tinyengine"}), 1,
               "tinyengine has no Gemm");
  ok &= expect(tinyretarget({"run", "block.onnx", "--backend", "tinyengine", "--input", "x=x.pb"}),
               1, "tinyengine cannot load");
  // Converted by its rules, the block loads and runs, and agrees with the original.
  ok &=
      expect(tinyretarget({"convert", "block.onnx", "--backend", "tinyengine", "-o", "tiny.onnx"}),
             0, "rule gelu_erf: fired 2x");
  ok &= expect(tinyretarget({"check", "tiny.onnx", "--backend", "tinyengine"}), 0,
               "tinyengine refuses no node");
  ok &= expect(tinyretarget({"run", "tiny.onnx", "--backend", "tinyengine", "--input", "x=x.pb"}),
               0, "y: float32 [4, 8]");
  ok &= expect(tinyretarget({"compare", "tiny.onnx", "--backends", "onnxruntime,tinyengine",
                             "--against", "block.onnx", "--atol", "1e-6"}),
               0, "2 of 2 engines agree");
  // The approximation, by name: offered by the rule that declares it, counted by the report.
  ok &= expect(tinyretarget({"convert", "block.onnx", "--backend", "tinyengine", "--approximate",
                             "gelu_as_tanh", "-o", "tanh.onnx"}),
               0, "approximation gelu_as_tanh (asked for): 26x");
  ok &= expect(tinyretarget({"convert", "block.onnx", "--backend", "tinyengine", "--approximate",
                             "gelu_as_tan", "-o", "tanh.onnx"}),
               2, "closest: gelu_as_tanh");
  std::printf("%s\n", ok ? "all checks passed" : "A CHECK FAILED");
  return ok ? 0 : 1;
}
