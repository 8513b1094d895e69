// Tutorial 01: a first export.
//
// The super-resolution model of the seeds (SRCNN: a bicubic x3 upsampler, then three
// convolutions), written in C++, exported to ONNX for ONNX Runtime, run there, and compared
// with what PyTorch computes for the same weights and the same image.
#include <cstdio>
#include <retarget/retarget.hpp>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace nn = retarget::nn;
namespace rb = retarget::backend;
namespace rx = retarget::ir;
using retarget::trace::tensor;

// 1. The model. A module derives from rewritable_module (so that later tutorials can rewrite
// it) and has a forward over traced tensors. tensor<B> is a value of the graph being
// exported for backend B.
struct srcnn : retarget::rewritable_module<srcnn, "SRCNN"> {
  nn::Upsample img_upsampler{{.scale_factor = {3}, .mode = "bicubic"}};
  nn::Conv2d conv1{"conv1", 3, 64, {9, 9}, {.padding = {4}}};
  nn::Conv2d conv2{"conv2", 64, 32, {1, 1}};
  nn::Conv2d conv3{"conv3", 32, 3, {5, 5}, {.padding = {2}}};
  nn::ReLU relu;

  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return conv3(relu(conv2(relu(conv1(img_upsampler(x))))));
  }
};

int main() {
  // 2. The weights PyTorch initialized (tools/make_srcnn_reference.py wrote them as ONNX
  // TensorProto files).
  srcnn model;
  for (auto* conv : {&model.conv1, &model.conv2, &model.conv3}) {
    conv->weight.load(tutorial::data("srcnn/" + conv->weight.name() + ".pb"));
    conv->bias->load(tutorial::data("srcnn/" + conv->bias->name() + ".pb"));
  }

  // 3. The export. The input has a name, a type and dims; "height" and "width" are dynamic
  // (torch.onnx.export's dynamic_axes). The backend is a type: the compiler selects its
  // rewrites (none yet).
  auto exported = retarget::export_onnx<bk::onnxruntime>(
      model, {{"input", rx::dtype::f32, {1, 3, "height", "width"}}}, retarget::no_config{},
      {.output_names = {"output"}});
  exported.model.check();  // ONNX's checker and strict shape inference
  std::printf("exported for onnxruntime: %s\n", tutorial::op_types(exported.model).c_str());
  std::printf("  %s\n", tutorial::signature(exported.model).c_str());
  std::printf("  rewrites: %s\n", tutorial::rewrites(exported).c_str());

  const tutorial::work_dir dir("tutorial-01");
  rx::save(exported.model, dir / "srcnn.onnx");  // written atomically
  std::printf("saved srcnn.onnx, %ju bytes\n",
              static_cast<std::uintmax_t>(std::filesystem::file_size(dir / "srcnn.onnx")));

  // 4. ONNX Runtime, through its backend manager: the model file goes into place, then the
  // wrapper (a worker process running onnxruntime-node) takes named tensors and gives named
  // tensors back, like ort_session.run(['output'], {'input': input_img}).
  const auto param = tutorial::onnxruntime_param(dir.path());
  if (!tutorial::onnxruntime_available(param)) return tutorial::skipped;
  const auto files = bk::onnxruntime_manager::to_backend(dir / "srcnn.onnx", param);
  auto session = bk::onnxruntime_manager::build_wrapper(files, param);
  std::printf("running on %s\n", session.version().c_str());
  const auto outputs = session.run({{"input", tutorial::load("srcnn/input.pb")}});

  // 5. The check: the same image through PyTorch's model.
  const bool ok =
      tutorial::compare("output", outputs.at("output"), tutorial::load("srcnn/output_bicubic.pb"));
  return tutorial::finish(ok && exported.report.empty());
}
