// Tutorial 06: a composite op.
//
// Seed 004 adds a C++ operator to PyTorch, my_add(a, b) = 2 * a + b, and gives it a symbolic
// built from two standard ONNX ops, Mul and Add, so that any engine runs it. Here is the same
// op in C++; its export runs on both ONNX Runtime and OpenCV DNN, unchanged.
#include <cstdio>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/retarget.hpp>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace rb = retarget::backend;
namespace rx = retarget::ir;
using retarget::trace::tensor;

// 1. The op: one symbolic, several nodes. The constant 2 takes the type of `a` (the seed writes
// torch.tensor([2]), an int64, which ONNX's Mul would refuse next to a float tensor).
struct my_add_op : retarget::symbolic_op<my_add_op, "my_add"> {
  static rx::value symbolic(rx::graph& g, const rx::value& a, const rx::value& b) {
    const auto two = g.constant(rx::tensor::scalar(2.0f));
    return g.op("Add", g.op("Mul", a, two), b);
  }
};

// 2. The function that models call, as the seed's MyAddFunction.apply.
template <class B>
tensor<B> my_add(const tensor<B>& a, const tensor<B>& b) {
  return retarget::trace::apply<my_add_op>(a, b);
}

struct model {
  template <class B>
  tensor<B> operator()(const tensor<B>& a, const tensor<B>& b) const {
    return my_add(a, b);
  }
};

int main() {
  const retarget::input_spec inputs[] = {{"a", rx::dtype::f32, {1, 3, 4, 4}},
                                         {"b", rx::dtype::f32, {1, 3, 4, 4}}};
  const tutorial::work_dir dir("tutorial-06");
  const rb::tensor_map values = {{"a", tutorial::load("tutorials/06_a.pb")},
                                 {"b", tutorial::load("tutorials/06_b.pb")}};
  const auto reference = tutorial::load("tutorials/06_output.pb");

  // The seed's int64 constant, tried on a graph of its own: ONNX's strict check refuses the
  // model, naming the node and the input.
  try {
    rx::graph g(17);
    const auto a = g.input("a", rx::dtype::f32, {1, 3, 4, 4});
    g.output(g.op("Mul", a, g.constant(rx::tensor::scalar(std::int64_t{2}))), "output");
    rx::make_model(std::move(g)).check();
    std::printf("an int64 2 was accepted\n");
    return tutorial::finish(false);
  } catch (const retarget::error& e) {
    std::printf("with torch.tensor([2]) as the seed writes it: %s\n", e.what());
  }

  // 3. The same op, exported for two engines: standard ops need no rewrite for either.
  auto cv = retarget::export_onnx<bk::opencv_dnn>(model{}, inputs);
  cv.model.check();
  std::printf("exported: %s\n  %s\n  rewrites: %s\n", tutorial::op_types(cv.model).c_str(),
              tutorial::signature(cv.model).c_str(), tutorial::rewrites(cv).c_str());
  rx::save(cv.model, dir / "my_add_opencv_dnn.onnx");
  auto opencv = bk::opencv_dnn_manager::build_wrapper({dir / "my_add_opencv_dnn.onnx"}, {});
  bool ok = tutorial::compare("OpenCV DNN", opencv.run(values).at("output"), reference, 1e-6);

  auto ort = retarget::export_onnx<bk::onnxruntime>(model{}, inputs);
  rx::save(ort.model, dir / "my_add_onnxruntime.onnx");
  const auto param = tutorial::onnxruntime_param(dir.path());
  if (!tutorial::onnxruntime_available(param)) return tutorial::skipped;
  auto session = bk::onnxruntime_manager::build_wrapper({dir / "my_add_onnxruntime.onnx"}, param);
  ok = tutorial::compare("ONNX Runtime", session.run(values).at("output"), reference, 1e-6) && ok;
  return tutorial::finish(ok && cv.report.empty());
}
