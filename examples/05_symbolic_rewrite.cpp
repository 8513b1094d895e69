// Tutorial 05: a symbolic rewrite.
//
// A symbolic is the last step of an export: how one op becomes ONNX nodes. Seed 000 replaces
// PyTorch's symbolic of `squeeze` so that a squeeze with no dim names its axes, taken from the
// input's static shape. Here that is a default symbolic rewrite (for every backend), and a
// second one for opencv_dnn, whose ONNX importer (OpenCV 4.6) takes neither form of Squeeze
// that opset 17 allows, so it gets a Reshape to the static shape instead.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <opencv2/core/utils/logger.hpp>
#include <optional>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/retarget.hpp>
#include <string>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace ops = retarget::ops;
namespace rb = retarget::backend;
namespace rx = retarget::ir;
namespace symbolics = retarget::symbolics;
using namespace retarget::literals;
using retarget::trace::tensor;

// 1. The default symbolic rewrite: symbolic_rewrite<Op> with no backend. `call` takes the
// context, the graph, then the op's inputs — here those of symbolics::squeeze, the op behind
// ops::squeeze: a value and, optionally, the dims. A rewrite works on graph values (rx::value),
// which know their dtype and shape from ONNX shape inference.
template <>
struct retarget::symbolic_rewrite<symbolics::squeeze> {
  static rx::value call(const auto& ctx, rx::graph& g, const rx::value& x,
                        const std::optional<ops::ints>& dims = std::nullopt) {
    if (dims) return ctx.next(g, x, dims);  // the dims are given: the op's own symbolic
    ops::ints axes;                         // every dim whose static size is 1
    const auto shape = x.shape();
    for (std::size_t i = 0; i < shape.size(); ++i)
      if (shape[i].is_static() && shape[i].size == 1) axes.push_back(static_cast<std::int64_t>(i));
    return ctx.next(g, x, axes);
  }
};

// 2. A symbolic rewrite for one backend. OpenCV 4.6 needs Squeeze's axes as an attribute (opset
// 12 and before); from opset 13 they are an input. A squeeze of a tensor whose shape is static
// is a Reshape to the squeezed shape, which OpenCV takes at any opset. Otherwise, ctx.next
// hands the call down: to the default rewrite above.
template <>
struct retarget::symbolic_rewrite<symbolics::squeeze, bk::opencv_dnn> {
  static rx::value call(const auto& ctx, rx::graph& g, const rx::value& x,
                        const std::optional<ops::ints>& dims = std::nullopt) {
    const auto shape = x.static_shape();
    if (!shape) return ctx.next(g, x, dims);
    ops::ints squeezed;
    for (std::size_t i = 0; i < shape->size(); ++i) {
      const auto axis = static_cast<std::int64_t>(i);
      const bool dropped =
          (*shape)[i] == 1 && (!dims || std::count(dims->begin(), dims->end(), axis));
      if (!dropped) squeezed.push_back((*shape)[i]);
    }
    const auto target =
        g.constant(rx::tensor::of(squeezed, {static_cast<std::int64_t>(squeezed.size())}));
    return g.op("Reshape", x, target);
  }
};

static_assert(retarget::selected_rewrite_name<symbolics::squeeze, bk::opencv_dnn> == "opencv_dnn");
static_assert(retarget::selected_rewrite_name<symbolics::squeeze, bk::onnxruntime> == "default");

// The model: torch.softmax(x.squeeze(), -1). ops::squeeze(x) with no dims is torch's squeeze().
struct model {
  template <class B>
  tensor<B> operator()(const tensor<B>& x) const {
    return ops::softmax(ops::squeeze(x), -1);
  }
};

// What OpenCV says when it refuses a model: the assertion that failed.
std::string opencv_refusal(const rb::tensor_map& inputs, const std::filesystem::path& file) {
  try {
    bk::opencv_dnn_manager::build_wrapper({file}, {}).run(inputs);
    return "";
  } catch (const retarget::error& e) {
    const std::string marker = "Assertion failed) ";
    const auto line = tutorial::line_with(e.what(), marker);
    const auto begin = line.find(marker) + marker.size();
    return line.substr(begin, line.find(" in function") - begin);
  }
}

int main() {
  cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
  const tutorial::work_dir dir("tutorial-05");
  const rb::tensor_map inputs = {{"x", tutorial::load("tutorials/05_input.pb")}};
  bool ok = true;

  // 3. What the library's own symbolic emits: Squeeze with no axes, which ONNX allows and
  // OpenCV refuses. (Called directly, since every export now goes through the rewrites.)
  {
    rx::graph g(17);
    const auto x = g.input("x", rx::dtype::f32, {1, 3, 1, 4});
    g.output(g.op("Softmax", symbolics::squeeze::symbolic(g, x), "axis"_i = -1), "output");
    auto m = rx::make_model(std::move(g));
    rx::save(m, dir / "origin.onnx");
    const auto refusal = opencv_refusal(inputs, dir / "origin.onnx");
    std::printf("origin: %s\n  OpenCV DNN refuses it: %s\n", tutorial::op_types(m).c_str(),
                refusal.c_str());
    ok = ok && !refusal.empty();
  }

  // 4. The exports: onnxruntime gets the default rewrite, opencv_dnn its own.
  const retarget::input_spec input[] = {{"x", rx::dtype::f32, {1, 3, 1, 4}}};
  auto ort = retarget::export_onnx<bk::onnxruntime>(model{}, input);
  auto cv = retarget::export_onnx<bk::opencv_dnn>(model{}, input);
  for (auto* exported : {&ort, &cv}) {
    exported->model.check();
    const auto backend = *exported->model.metadata("retarget:backend");
    rx::save(exported->model, dir / (backend + ".onnx"));
    std::printf("%s: %s\n  %s\n  rewrites: %s\n", backend.c_str(),
                tutorial::op_types(exported->model).c_str(),
                tutorial::signature(exported->model).c_str(),
                tutorial::rewrites(*exported).c_str());
    // The Constant in front holds Squeeze's axes, or Reshape's shape.
    const auto constant = exported->model.node(0).attribute("value")->t();
    std::string values;
    for (const auto v : constant.values<std::int64_t>())
      values += (values.empty() ? "" : ", ") + std::to_string(v);
    std::printf("  %s's second input: [%s]\n", exported->model.node(1).op_type().c_str(),
                values.c_str());
  }
  const auto refusal = opencv_refusal(inputs, dir / "onnxruntime.onnx");
  std::printf("OpenCV DNN refuses the onnxruntime export too: %s\n", refusal.c_str());
  ok = ok && !refusal.empty() &&
       tutorial::rewrites(ort) == "symbolic squeeze: default rewrite, 1 call" &&
       tutorial::rewrites(cv) == "symbolic squeeze: opencv_dnn rewrite, 1 call";

  // 5. Each export on its engine, against PyTorch's softmax(x.squeeze(), -1).
  const auto reference = tutorial::load("tutorials/05_output.pb");
  auto opencv = bk::opencv_dnn_manager::build_wrapper({dir / "opencv_dnn.onnx"}, {});
  ok = tutorial::compare("opencv_dnn export on OpenCV DNN", opencv.run(inputs).at("output"),
                         reference) &&
       ok;
  const auto param = tutorial::onnxruntime_param(dir.path());
  if (!tutorial::onnxruntime_available(param)) return tutorial::skipped;
  auto session = bk::onnxruntime_manager::build_wrapper({dir / "onnxruntime.onnx"}, param);
  ok = tutorial::compare("onnxruntime export on ONNX Runtime", session.run(inputs).at("output"),
                         reference) &&
       ok;
  return tutorial::finish(ok);
}
