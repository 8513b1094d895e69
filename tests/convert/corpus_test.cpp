// The converter on the corpus of tests/data/convert (tools/make_convert_corpus.py: small
// torchvision architectures exported by torch.onnx.export at opsets 13 and 17, as torch writes
// them and with perturbed weights). For every model: ONNX Runtime runs the original and agrees
// with PyTorch; the model converted for opencv_dnn still runs on ONNX Runtime with the same
// outputs; and OpenCV 4.6 either runs it within a relative error of 1e-5 of ONNX Runtime on the
// original, or (for the architectures listed as not yet convertible) refuses it, and
// `refused_nodes` names at least one node of it, so the list cannot go stale.
//
// RETARGET_CONVERT_CORPUS=DIR runs it on another folder of the same layout (`scripts/dev zoo`
// runs it on the full-size models); RETARGET_CONVERT_TABLE=FILE appends a Markdown row per
// model: OpenCV on the model as written and after conversion.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <set>
#include <sstream>
#include <string>

#include "support/ort.hpp"
#include "support/scratch_folder.hpp"

namespace {

namespace fs = std::filesystem;
namespace rc = retarget::convert;
namespace rx = retarget::ir;
namespace bk = retarget::backends;

const fs::path default_corpus = fs::path(RETARGET_SOURCE_DIR) / "tests/data/convert";
const fs::path corpus = [] {
  const char* dir = std::getenv("RETARGET_CONVERT_CORPUS");
  return dir && *dir ? fs::path(dir) : default_corpus;
}();

// Appends a line to the table file, if one was asked for.
[[maybe_unused]] void table_row(const std::string& row) {
  if (const char* file = std::getenv("RETARGET_CONVERT_TABLE"); file && *file) {
    std::ofstream out(file, std::ios::app);
    out << row << "\n";
  }
}

[[maybe_unused]] std::string scientific(double v) {
  std::ostringstream out;
  out << std::scientific << std::setprecision(1) << v;
  return out.str();
}

// OpenCV's verdict on a model file: "runs, 2.1e-07" (relative error against the reference) or
// "refused: <the node OpenCV names>".
std::string opencv_verdict(const fs::path& model, const std::string& input_name,
                           const fs::path& input_file,
                           const std::map<std::string, rx::tensor>& reference,
                           double* error = nullptr);

// Architectures whose converted models OpenCV 4.6 does not load yet, and why.
const std::set<std::string> not_yet = [] {
  std::set<std::string> out = {
      "srcnn",    // cubic Resize: only as an approximation, asked for by name
      "ssdlite",  // the whole detector: NonZero, TopK, GatherND and If
  };
  // RETARGET_CONVERT_NOT_YET=a,b adds architectures (the full-size corpus has its own).
  if (const char* more = std::getenv("RETARGET_CONVERT_NOT_YET"); more && *more) {
    std::stringstream list(more);
    for (std::string a; std::getline(list, a, ',');) out.insert(a);
  }
  return out;
}();

// Max abs error over max abs value of the reference.
double relative_error(const rx::tensor& got, const rx::tensor& reference) {
  double largest = 0;
  for (const double v : rx::values_as_double(reference)) largest = std::max(largest, std::abs(v));
  return rx::max_abs_difference(got, reference) / std::max(largest, 1e-30);
}

// The largest relative error over the outputs of `got` against those of `reference`, matched
// by name; a lone output is matched whatever its name (OpenCV names outputs by their layer).
double largest_error(const std::map<std::string, rx::tensor>& got,
                     const std::map<std::string, rx::tensor>& reference) {
  if (got.size() == 1 && reference.size() == 1)
    return relative_error(got.begin()->second, reference.begin()->second);
  double largest = 0;
  for (const auto& [name, t] : reference) {
    const auto it = got.find(name);
    if (it == got.end()) return std::numeric_limits<double>::infinity();
    largest = std::max(largest, relative_error(it->second, t));
  }
  return largest;
}

struct corpus_case {
  std::string architecture, variant;
  std::string file() const { return architecture + "_" + variant + ".onnx"; }
};

std::vector<corpus_case> cases() {
  std::vector<corpus_case> out;
  if (!fs::is_directory(corpus)) return out;
  std::vector<std::string> architectures;
  for (const auto& entry : fs::directory_iterator(corpus)) {
    const auto name = entry.path().filename().string();
    if (name.ends_with("_input.pb")) architectures.push_back(name.substr(0, name.size() - 9));
  }
  std::sort(architectures.begin(), architectures.end());
  for (const auto& a : architectures)
    for (const char* v : {"op13", "op17", "op13_perturbed", "op17_perturbed"})
      if (fs::exists(corpus / (a + "_" + v + ".onnx"))) out.push_back({a, v});
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

  // The reference: ONNX Runtime on the original, which agrees with PyTorch (output K of a
  // model with several is <model>_torch_outputK.pb).
  const auto reference = ort::run(original, dir_ / "original", inputs);
  const auto& outputs = original.graph().output();
  for (int k = 0; k < outputs.size(); ++k) {
    const auto suffix = outputs.size() == 1 ? std::string() : std::to_string(k);
    const auto torch_output = rx::read_tensor_file(
        corpus / (c.architecture + "_" + c.variant + "_torch_output" + suffix + ".pb"));
    EXPECT_LE(relative_error(reference.at(outputs[k].name()), torch_output), 1e-4)
        << "ONNX Runtime vs PyTorch, output " << outputs[k].name();
  }

  auto [converted, report] = rc::convert<bk::opencv_dnn>(original);
  std::cout << c.file() << ": " << rc::summary(report) << "\n";
  const auto again = ort::run(converted, dir_ / "converted", inputs);
  EXPECT_LE(largest_error(again, reference), 1e-5) << "ONNX Runtime, converted vs original";

#if RETARGET_HAS_OPENCV_DNN
  rx::save(converted, dir_ / "opencv.onnx");
  const auto refused = rc::refused_nodes<bk::opencv_dnn>(converted);
  ASSERT_TRUE(refused.has_value());
  double error = -1;
  const auto after =
      opencv_verdict(dir_ / "opencv.onnx", input_name, input_file, reference, &error);
  const auto before = opencv_verdict(path, input_name, input_file, reference);
  table_row("| " + c.file() + " | " + std::to_string(report.nodes_before) + " → " +
            std::to_string(report.nodes_after) + " | " + before + " | " + after + " |");
  if (not_yet.contains(c.architecture)) {
    EXPECT_TRUE(after.starts_with("refused"))
        << c.architecture << " now runs on OpenCV: take it off the list";
    EXPECT_FALSE(refused->empty()) << "OpenCV refuses it, and the table names no node";
    for (const auto& r : *refused) std::cout << "  refused: " << r.node << ": " << r.why << "\n";
  } else {
    EXPECT_TRUE(after.starts_with("runs")) << after;
    EXPECT_GE(error, 0);
    EXPECT_LE(error, 1e-5) << "OpenCV on the converted model vs ONNX Runtime on the original";
    EXPECT_TRUE(refused->empty()) << refused->front().node << ": " << refused->front().why;
    std::cout << "  opencv_dnn: relative error " << error << "\n";
  }
#endif
}

#if RETARGET_HAS_OPENCV_DNN
std::string opencv_verdict(const fs::path& model, const std::string& input_name,
                           const fs::path& input_file,
                           const std::map<std::string, rx::tensor>& reference, double* error) {
  try {
    bk::opencv_dnn_wrapper net(model);
    const auto out = net.run({{input_name, rx::read_tensor_file(input_file)}});
    const double e = largest_error(out, reference);
    if (error) *error = e;
    return "runs, " + scientific(e);
  } catch (const retarget::error& e) {
    // OpenCV names the node it stopped at: "Node [Clip@ai.onnx]:(...)" or a layer's message.
    const std::string what = e.what();
    const auto node = what.find("Node [");
    if (node != std::string::npos)
      return "refused: " + what.substr(node + 6, what.find('@', node) - node - 6);
    return "refused at run time";
  }
}
#endif

INSTANTIATE_TEST_SUITE_P(Models, Corpus, ::testing::ValuesIn(cases()), [](const auto& info) {
  return info.param.architecture + "_" + info.param.variant;
});

TEST(Corpus, HasEveryArchitecture) {
  if (corpus != default_corpus) GTEST_SKIP() << "another corpus: " << corpus;
  EXPECT_EQ(cases().size(), 28u);
}

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
