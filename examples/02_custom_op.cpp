// Tutorial 02: a custom op whose scales are a graph input.
//
// Seeds 002 and 004 want the upscale factor of SRCNN to be chosen at run time, not fixed in
// the model. PyTorch's interpolate takes numbers, so they write an op of their own,
// NewInterpolate, whose symbolic emits ONNX's Resize with the scales as a tensor, and a model,
// StrangeSuperResolutionNet, that takes the factor as a second input. Here is the same in C++:
// one model file, run on ONNX Runtime with factor 3 and then factor 2.
#include <cstdio>
#include <retarget/retarget.hpp>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace nn = retarget::nn;
namespace rb = retarget::backend;
namespace rx = retarget::ir;
using namespace retarget::literals;  // "mode"_s, "cubic_coeff_a"_f, "value"_t ...
using retarget::trace::tensor;

// 1. The op. A type deriving from symbolic_op with a static symbolic(g, inputs...): how the op
// becomes ONNX nodes in graph g. Op name, attribute names, attribute kinds and the number of
// inputs are checked against ONNX's Resize schema at compile time.
struct new_interpolate : retarget::symbolic_op<new_interpolate, "NewInterpolate"> {
  static rx::value symbolic(rx::graph& g, const rx::value& input, const rx::value& scales) {
    return g.op("Resize", input, g.op("Constant", "value"_t = rx::empty_f32), scales,
                "coordinate_transformation_mode"_s = "pytorch_half_pixel",
                "cubic_coeff_a"_f = -0.75f, "mode"_s = "cubic", "nearest_mode"_s = "floor");
  }
};

// 2. The model, with the factor as its second input. trace::apply<Op>(args...) is
// NewInterpolate.apply(...): it runs the op's symbolic (or a backend's rewrite of it, see
// tutorial 05) on the traced tensors.
struct strange_super_resolution_net
    : retarget::rewritable_module<strange_super_resolution_net, "StrangeSuperResolutionNet"> {
  nn::Conv2d conv1{"conv1", 3, 64, {9, 9}, {.padding = {4}}};
  nn::Conv2d conv2{"conv2", 64, 32, {1, 1}};
  nn::Conv2d conv3{"conv3", 32, 3, {5, 5}, {.padding = {2}}};
  nn::ReLU relu;

  template <class B>
  tensor<B> forward(const tensor<B>& x, const tensor<B>& upscale_factor) const {
    const auto upsampled = retarget::trace::apply<new_interpolate>(x, upscale_factor);
    return conv3(relu(conv2(relu(conv1(upsampled)))));
  }
};

int main() {
  strange_super_resolution_net model;  // SRCNN's weights, as in tutorial 01
  for (auto* conv : {&model.conv1, &model.conv2, &model.conv3}) {
    conv->weight.load(tutorial::data("srcnn/" + conv->weight.name() + ".pb"));
    conv->bias->load(tutorial::data("srcnn/" + conv->bias->name() + ".pb"));
  }

  // 3. Two inputs: the image and the factor, a float tensor of 4 scales ([1, 1, 3, 3]).
  auto exported = retarget::export_onnx<bk::onnxruntime>(
      model, {{"input", rx::dtype::f32, {1, 3, 16, 16}}, {"factor", rx::dtype::f32, {4}}},
      retarget::no_config{}, {.output_names = {"output"}});
  exported.model.check();
  std::printf("exported: %s\n", tutorial::op_types(exported.model).c_str());
  std::printf("  %s\n", tutorial::signature(exported.model).c_str());

  // The Resize node, as the symbolic wrote it.
  for (std::size_t i = 0; i < exported.model.node_count(); ++i) {
    const auto node = exported.model.node(i);
    if (node.op_type() != "Resize") continue;
    std::printf("  Resize(%s, %s, %s)\n", node.input(0).c_str(), node.input(1).c_str(),
                node.input(2).c_str());
    for (const auto& a : node.attributes()) {
      const std::string name(a.name());
      if (a.kind() == rx::attr_type::string)
        std::printf("    %s = \"%s\"\n", name.c_str(), a.s().c_str());
      if (a.kind() == rx::attr_type::float_)
        std::printf("    %s = %g\n", name.c_str(), static_cast<double>(a.f()));
    }
  }

  // 4. One model file, two factors: the output size follows the factor given at run time.
  const tutorial::work_dir dir("tutorial-02");
  rx::save(exported.model, dir / "srcnn2.onnx");
  const auto param = tutorial::onnxruntime_param(dir.path());
  if (!tutorial::onnxruntime_available(param)) return tutorial::skipped;
  auto session = bk::onnxruntime_manager::build_wrapper({dir / "srcnn2.onnx"}, param);
  const auto input = tutorial::load("srcnn/input.pb");

  const auto x3 = session.run({{"input", input}, {"factor", tutorial::load("srcnn/factor.pb")}});
  const auto x2 =
      session.run({{"input", input}, {"factor", tutorial::load("tutorials/02_factor2.pb")}});

  // 5. PyTorch's outputs of the seeds' model for the same factors.
  bool ok = tutorial::compare("factor [1, 1, 3, 3]", x3.at("output"),
                              tutorial::load("srcnn/output_bicubic.pb"));
  ok = tutorial::compare("factor [1, 1, 2, 2]", x2.at("output"),
                         tutorial::load("tutorials/02_output_factor2.pb")) &&
       ok;
  return tutorial::finish(ok);
}
