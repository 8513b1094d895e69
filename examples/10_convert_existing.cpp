// Tutorial 10: retargeting a model that already exists.
//
// The model here was not written with retarget: torch.onnx.export wrote it (torchvision's
// MobileNetV2 at opset 13). OpenCV 4.6 refuses it as torch writes it. retarget::convert
// rebuilds it node by node for the opencv_dnn backend, through the backend's node rewrites
// and pattern rules, and says what it did. Then a backend tag of our own, which falls back to
// opencv_dnn, gets rules of our own, shown on a small graph built here.
//
//   example_10_convert_existing
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <retarget/backends/opencv_dnn.hpp>
// opencv_dnn's rules, named below as types (with retarget::compiled the package header only
// declares them: the library compiles them).
#include <retarget/backends/opencv_dnn/convert.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/convert/rule.hpp>
#include <retarget/ir.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <string>
#include <vector>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace rc = retarget::convert;
namespace rx = retarget::ir;
using namespace rc::literals;

// 1. A backend of our own: opencv_dnn with a few more rules. Everything it does not declare
// (node rewrites, the table of refusals) comes from opencv_dnn, the next in its chain.
struct my_opencv : retarget::backend_tag<"my_opencv", bk::opencv_dnn> {};
static_assert(rc::knows_refusals<my_opencv>);  // opencv_dnn's table, through the chain

// Relu(Relu(x)) is Relu(x): the outer Relu is rebuilt over x, and the inner one, which
// nothing reads any more, goes with the cleanup.
struct relu_of_relu : rc::rule<"relu_of_relu"> {
  static constexpr auto pattern = rc::op<"Relu">(rc::op<"Relu">("x"_v));
  static rx::value replace(rx::graph& g, const auto& m) { return g.op("Relu", m["x"_v]); }
};

// x + 0 is x, when the zero does not broadcast x to a larger shape.
struct add_of_zero : rc::rule<"add_of_zero"> {
  static constexpr auto pattern = rc::commutative(rc::op<"Add">("x"_v, "zero"_c));
  static rc::verdict condition(const auto& m) {
    const auto zero = rx::values_as_double(rx::tensor_view(m.graph().constant_data(m["zero"_c])));
    for (const double v : zero)
      if (v != 0) {
        char text[64];
        std::snprintf(text, sizeof text, "the constant holds %g, not only zeros", v);
        return rc::reject(text);
      }
    const auto& x = m["x"_v];
    if (!x.has_shape() || x.rank() < m["zero"_c].rank())
      return rc::reject("the zero may broadcast x to a larger shape");
    return true;
  }
  static rx::value replace(rx::graph&, const auto& m) { return m["x"_v]; }
};

// A rule set replaces the one further down the chain, so ours takes opencv_dnn's along by
// naming its set as an entry: its rules come after ours, whatever they are.
template <>
struct rc::rules_for<my_opencv>
    : rc::rule_set<relu_of_relu, add_of_zero, rc::rules_for<bk::opencv_dnn>> {};

// What the engine would refuse, node by node: opencv_dnn's table, reached through the chain.
void print_refusals(const char* when, const std::optional<std::vector<rc::refusal>>& refusals) {
  if (!refusals) {
    std::printf("%s: no table of refusals for this backend\n", when);
    return;
  }
  std::printf("%s: %zu nodes refused\n", when, refusals->size());
  constexpr std::size_t shown = 3;
  for (std::size_t i = 0; i < std::min(refusals->size(), shown); ++i) {
    const auto& r = (*refusals)[i];
    std::printf("  node %d %s: %s\n", r.index, r.node.c_str(), r.why.c_str());
  }
  if (refusals->size() > shown) std::printf("  ... and %zu more\n", refusals->size() - shown);
}

// A small graph: a Clip with its bounds as inputs, a Relu of a Relu, and an Add of a constant
// that is not zero.
rx::model small_graph() {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {1, 4});
  auto a =
      g.op("Clip", x, g.constant(rx::tensor::scalar(0.0f)), g.constant(rx::tensor::scalar(6.0f)));
  auto b = g.op("Relu", g.op("Relu", a));
  auto c = g.op("Add", b, g.constant(rx::tensor::of<float>({0.5f, 0.5f, 0.5f, 0.5f}, {4})));
  g.output(c, "y");
  return rx::make_model(std::move(g));
}

#if RETARGET_HAS_OPENCV_DNN
// The original on OpenCV: whether it loads, and OpenCV's own words when it does not.
bool opencv_loads(const std::filesystem::path& file) {
  try {
    bk::opencv_dnn_wrapper net(file);
    return true;
  } catch (const retarget::error& e) {
    std::printf("OpenCV on the original: %s\n",
                tutorial::line_with(e.what(), "parse error").c_str());
    return false;
  }
}

// The converted model on OpenCV's DNN module and on ONNX Runtime, with the same input.
int run_both(rx::model& converted) {
  const tutorial::work_dir dir("tutorial-10");
  rx::save(converted, dir / "mobilenet_v2_opencv.onnx");
  const auto ort_param = tutorial::onnxruntime_param(dir.path());
  if (!tutorial::onnxruntime_available(ort_param)) return tutorial::skipped;

  const auto input_name = rx::inputs_of(converted).at(0).name;
  const auto output_name = converted.output_names().at(0);
  const retarget::backend::tensor_map feeds{
      {input_name, tutorial::load("convert/mobilenet_v2_input.pb")}};

  bk::opencv_dnn_wrapper opencv(dir / "mobilenet_v2_opencv.onnx");
  const auto on_opencv = opencv.run(feeds).at(output_name);
  using ort = bk::onnxruntime_manager;
  auto session = ort::build_wrapper({dir / "mobilenet_v2_opencv.onnx"}, ort_param);
  const auto on_ort = session.run(feeds).at(output_name);

  // Relative to the largest magnitude of ONNX Runtime's output.
  double largest = 0;
  for (const double v : rx::values_as_double(on_ort)) largest = std::max(largest, std::abs(v));
  const double error = rx::max_abs_difference(on_opencv, on_ort);
  const double relative = error / std::max(largest, 1e-30);
  const bool ok = relative <= 1e-5;
  const auto dims = on_opencv.dims();
  std::printf(
      "on OpenCV %s and ONNX Runtime: output %s, max abs difference %.1e (%.1e of the "
      "largest output)%s\n",
      CV_VERSION, rx::to_string(std::vector<rx::dim>(dims.begin(), dims.end())).c_str(), error,
      relative, ok ? "" : "  <-- MISMATCH");
  return ok ? 0 : 1;
}
#endif

int convert_and_check();

int main() {
  try {
    return convert_and_check();
  } catch (const retarget::error& e) {  // a model that cannot be read, converted or run
    std::printf("error: %s\n", e.what());
    return 1;
  }
}

int convert_and_check() {
  // 2. The model as torch wrote it, and what OpenCV would refuse in it.
  const auto model = rx::load(tutorial::data("convert/mobilenet_v2_op13.onnx"));
  std::printf("mobilenet_v2_op13.onnx: %zu nodes, opset %d, %s\n", model.node_count(),
              model.opset().value_or(0), tutorial::signature(model).c_str());
  print_refusals("before", rc::refused_nodes<bk::opencv_dnn>(model));
#if RETARGET_HAS_OPENCV_DNN
  bool ok = !opencv_loads(tutorial::data("convert/mobilenet_v2_op13.onnx"));
#else
  bool ok = true;
#endif

  // 3. Converted for opencv_dnn: its rules, its node rewrites, folding and cleanup, to a
  // fixed point; the result passes ONNX's checker.
  auto [converted, report] = rc::convert<bk::opencv_dnn>(model);
  std::printf("%s", rc::to_string(report, /*explain=*/true).c_str());
  const auto after = rc::refused_nodes<bk::opencv_dnn>(converted);
  print_refusals("after", after);
  std::printf("metadata retarget:convert = %s\n",
              converted.metadata("retarget:convert").value_or("(none)").c_str());
  ok = ok && after && after->empty();

  // 4. Our own backend on a small graph: opencv_dnn's Clip rewrite runs (through the chain),
  // our first rule fires, and the second says why it did not.
  const auto small = small_graph();
  std::printf("\nsmall graph: %s\n", tutorial::op_types(small).c_str());
  auto mine = rc::convert<my_opencv>(small);
  std::printf("%s", rc::to_string(mine.report, /*explain=*/true).c_str());
  std::printf("converted: %s\n", tutorial::op_types(mine.model).c_str());
  for (std::size_t i = 0; i < mine.model.node_count(); ++i)
    if (const auto n = mine.model.node(i); !n.doc_string().empty())
      std::printf("  %s %s: %s\n", n.op_type().c_str(), n.output(0).c_str(),
                  n.doc_string().c_str());
  const auto fired = [&](const char* name) {
    for (const auto& r : mine.report.rules)
      if (r.name == name) return r.fired;
    return std::size_t{0};
  };
  ok = ok && fired("relu_of_relu") == 1 && fired("add_of_zero") == 0;

#if RETARGET_HAS_OPENCV_DNN
  // 5. The converted MobileNetV2 on OpenCV and ONNX Runtime.
  if (const int status = run_both(converted); status != 0) return status;
#else
  std::printf("OpenCV's DNN module is not linked in: the converted model is not run\n");
#endif
  return tutorial::finish(ok);
}
