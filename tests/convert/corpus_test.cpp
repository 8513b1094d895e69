// The converter on the corpus of tests/data/convert (tools/make_convert_corpus.py: small
// torchvision architectures exported by torch.onnx.export at opsets 13 and 17, as torch writes
// them and with perturbed weights). For every model: ONNX Runtime runs the original and agrees
// with PyTorch; the model converted for opencv_dnn still runs on ONNX Runtime with the same
// outputs; and OpenCV 4.6 either runs it within a relative error of 1e-5 of ONNX Runtime on the
// original, or (for the architectures listed as not yet convertible) refuses it, and
// `refused_nodes` names at least one node of it, so the list cannot go stale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <set>
#include <string>

#include "support/ort.hpp"
#include "support/scratch_folder.hpp"

namespace {

namespace fs = std::filesystem;
namespace rc = retarget::convert;
namespace rx = retarget::ir;
namespace bk = retarget::backends;

const fs::path corpus = fs::path(RETARGET_SOURCE_DIR) / "tests/data/convert";

// Architectures whose converted models OpenCV 4.6 does not load yet, and why.
const std::set<std::string> not_yet = {
    "swin_t",         // Mod, Roll-like Slice/Concat and Pad of the shifted windows
    "srcnn",          // cubic Resize: only as an approximation, asked for by name
};

// Max abs error over max abs value of the reference.
double relative_error(const rx::tensor& got, const rx::tensor& reference) {
  double largest = 0;
  for (const double v : rx::values_as_double(reference)) largest = std::max(largest, std::abs(v));
  return rx::max_abs_difference(got, reference) / std::max(largest, 1e-30);
}

struct corpus_case {
  std::string architecture, variant;
  std::string file() const { return architecture + "_" + variant + ".onnx"; }
};

std::vector<corpus_case> cases() {
  std::vector<corpus_case> out;
  for (const char* a :
       {"resnet18", "mobilenet_v2", "shufflenet_v2", "convnext_tiny", "vit", "swin_t", "srcnn"})
    for (const char* v : {"op13", "op17", "op13_perturbed", "op17_perturbed"})
      if (fs::exists(corpus / (std::string(a) + "_" + v + ".onnx"))) out.push_back({a, v});
  return out;
}

class Corpus : public support::scratch_folder_test,
               public ::testing::WithParamInterface<corpus_case> {};

TEST_P(Corpus, ConvertedForOpencvRunsAndMatchesOnnxRuntime) {
  const auto& c = GetParam();
  const auto path = corpus / c.file();
  const auto input_file = corpus / (c.architecture + "_input.pb");
  auto original = rx::load(path);
  const std::string input_name = original.graph().input(0).name();
  const std::map<std::string, fs::path> inputs{{input_name, input_file}};

  // The reference: ONNX Runtime on the original, which agrees with PyTorch.
  const auto reference = ort::run(original, dir_ / "original", inputs).begin()->second;
  const auto torch_output =
      rx::read_tensor_file(corpus / (c.architecture + "_" + c.variant + "_torch_output.pb"));
  EXPECT_LE(relative_error(reference, torch_output), 1e-4) << "ONNX Runtime vs PyTorch";

  auto [converted, report] = rc::convert<bk::opencv_dnn>(original);
  std::cout << c.file() << ": " << rc::summary(report) << "\n";
  const auto again = ort::run(converted, dir_ / "converted", inputs).begin()->second;
  EXPECT_LE(relative_error(again, reference), 1e-5) << "ONNX Runtime, converted vs original";

#if RETARGET_HAS_OPENCV_DNN
  rx::save(converted, dir_ / "opencv.onnx");
  const auto refused = rc::refused_nodes<bk::opencv_dnn>(converted);
  ASSERT_TRUE(refused.has_value());
  std::string opencv_error;
  double error = -1;
  try {
    bk::opencv_dnn_wrapper net(dir_ / "opencv.onnx");
    error = relative_error(
        net.run({{input_name, rx::read_tensor_file(input_file)}}).begin()->second, reference);
  } catch (const retarget::error& e) {
    opencv_error = e.what();
  }
  if (not_yet.contains(c.architecture)) {
    EXPECT_FALSE(opencv_error.empty())
        << c.architecture << " now runs on OpenCV: take it off the list";
    EXPECT_FALSE(refused->empty()) << "OpenCV refuses it, and the table names no node";
    for (const auto& r : *refused) std::cout << "  refused: " << r.node << ": " << r.why << "\n";
  } else {
    EXPECT_TRUE(opencv_error.empty()) << opencv_error;
    EXPECT_GE(error, 0);
    EXPECT_LE(error, 1e-5) << "OpenCV on the converted model vs ONNX Runtime on the original";
    EXPECT_TRUE(refused->empty()) << refused->front().node << ": " << refused->front().why;
    std::cout << "  opencv_dnn: relative error " << error << "\n";
  }
#endif
}

INSTANTIATE_TEST_SUITE_P(Models, Corpus, ::testing::ValuesIn(cases()), [](const auto& info) {
  return info.param.architecture + "_" + info.param.variant;
});

TEST(Corpus, HasEveryArchitecture) { EXPECT_EQ(cases().size(), 28u); }

// Before conversion, the table names the nodes OpenCV refuses in a model as torch wrote it.
TEST(Corpus, RefusalsBeforeConversionNameTheNodes) {
  const auto refused =
      rc::refused_nodes<bk::opencv_dnn>(rx::load(corpus / "mobilenet_v2_op13.onnx"));
  ASSERT_TRUE(refused.has_value());
  std::size_t identities = 0, clips = 0;
  for (const auto& r : *refused) {
    identities += r.node.starts_with("Identity");
    clips += r.node.starts_with("Clip");
  }
  EXPECT_EQ(identities, 10u);
  EXPECT_EQ(clips, 9u);
}

}  // namespace
