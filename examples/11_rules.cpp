// Tutorial 11: pattern rules for an engine of your own.
//
// tinyengine is an imaginary engine: it has no LayerNormalization, no Gemm and no Erf (so no
// erf-GELU), and runs Softmax on the last axis only. A small transformer block at opset 17 has
// all four, and two GELUs written the two ways exporters write them. Five rules convert it
// (in tinyengine.hpp, the engine's package): each is one rule per thing to rewrite, whatever
// shape the exporter gave it (alternatives, optional inputs and attribute tests in the
// pattern), and the tanh GELU is a named approximation that runs only when asked for and that
// the report counts. The program checks every conversion on ONNX Runtime against the original
// model, and with the package's quirks that tinyengine would load it.
#include <cstdio>
#include <retarget/backend/manager.hpp>
#include <retarget/convert.hpp>
#include <retarget/ir.hpp>
#include <string>
#include <vector>

#include "tinyengine.hpp"
#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace rc = retarget::convert;
namespace rx = retarget::ir;

namespace {

// The model's output on ONNX Runtime for a fixed input.
rx::tensor run(rx::model m, const tutorial::work_dir& dir, const std::string& name) {
  const auto file = dir / (name + ".onnx");
  rx::save(m, file);
  std::vector<float> input;
  for (int i = 0; i < 32; ++i) input.push_back(static_cast<float>((i * 13 % 17) - 8) / 3.0f);
  auto p = tutorial::onnxruntime_param(dir.path() / name);
  return retarget::backend::run_on_engine<bk::onnxruntime_manager>(
             file, p, {{"x", rx::tensor::of<float>(input, {4, 8})}})
      .at("y");
}

// Whether tinyengine would load the model: none of its quirks is found on a node.
bool runs_on_tinyengine(const rx::model& m) { return rc::refused_nodes<tinyengine>(m)->empty(); }

// Prints how far a conversion's output is from the original's, and whether that is within
// the tolerance.
bool close_enough(const char* what, const rx::tensor& out, const rx::tensor& expected,
                  double tolerance) {
  const double error = rx::max_abs_difference(out, expected);
  std::printf("%s: max abs error vs the original %.1e%s\n", what, error,
              error <= tolerance ? "" : "  <-- MISMATCH");
  return error <= tolerance;
}

}  // namespace

int main() {
  tutorial::work_dir dir("rules");
  if (!tutorial::onnxruntime_available(tutorial::onnxruntime_param(dir.path())))
    return tutorial::skipped;
  const rx::model block = tiny::make_block();
  std::printf("the block: %s\n\n", tutorial::op_types(block).c_str());
  const rx::tensor expected = run(block, dir, "block");
  bool ok = true;

  // Exact: every rule but the approximation fires.
  auto [exact, report] = rc::convert<tinyengine>(block);
  std::printf("%s\n", rc::to_string(report, /*explain=*/true).c_str());
  ok &= runs_on_tinyengine(exact) && report.approximations.empty();
  ok &= close_enough("exact, on ONNX Runtime", run(exact, dir, "exact"), expected, 1e-6);

  // With the approximation asked for by name: the tanh GELU, counted by the report.
  auto [approximated, counted] =
      rc::convert<tinyengine>(block, {.approximations = {"gelu_as_tanh"}});
  std::printf("\n%s\n", rc::summary(counted).c_str());
  ok &= runs_on_tinyengine(approximated) && counted.approximations.count("gelu_as_tanh") == 1;
  ok &= close_enough("tanh GELU, on ONNX Runtime", run(approximated, dir, "tanh"), expected, 2e-3);
  std::printf("%s\n", ok ? "all checks passed" : "A CHECK FAILED");
  return ok ? 0 : 1;
}
