// The converter on the corpus of tests/data/convert (tools/make_convert_corpus.py: small
// torchvision architectures exported by torch.onnx.export at opsets 13 and 17, as torch writes
// them and with perturbed weights). For every model: ONNX Runtime runs the original and agrees
// with PyTorch; the model converted for opencv_dnn keeps the names of the outputs and gives ONNX
// Runtime's outputs, compared name by name; and OpenCV 4.6 either runs it within a relative
// error of 1e-5 of ONNX Runtime on the original, or (for the architectures listed as not yet
// convertible) refuses it, and `refused_nodes` names at least one node of it, so the list cannot
// go stale. The plain variants whose outputs carry no signal are listed as structure-only, with
// the reason. On the models as written, the refusal table agrees with what OpenCV refuses.
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
#include <optional>
#include <retarget/backend/pipeline.hpp>
#include <retarget/backends.hpp>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/partition.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
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
namespace rb = retarget::backend;

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

// What OpenCV 4.6 made of a model file: it loads and runs it (outputs by the names it gives
// them), or refuses it, when loading or on the first forward, with the message it threw.
struct opencv_outcome {
  bool refused = false, at_load = false;
  std::string message;
  // The node the message names, if it names one: "Node [Clip@ai.onnx]:(onnx_node!/x/Clip) ..."
  // or "Can't create layer \"onnx_node!/x/Mod\" of type \"Mod\"": its op and name.
  std::string op, node;
  std::map<std::string, rx::tensor> outputs;
};

opencv_outcome run_opencv(const fs::path& model, const std::string& input_name,
                          const fs::path& input_file);

// "runs, 2.1e-07" (relative error against the reference), "refused: Clip" (the op OpenCV names)
// or "refused at run time" / "refused at load" (it names none), for the table of the zoo.
[[maybe_unused]] std::string verdict(const opencv_outcome& o, double error) {
  if (!o.refused) return "runs, " + scientific(error);
  if (!o.op.empty()) return "refused: " + o.op;
  return o.at_load ? "refused at load" : "refused at run time";
}

// Architectures whose converted models OpenCV 4.6 does not load yet, and why.
const std::set<std::string> not_yet = [] {
  std::set<std::string> out;
  // RETARGET_CONVERT_NOT_YET=a,b adds architectures (the full-size corpus has its own).
  if (const char* more = std::getenv("RETARGET_CONVERT_NOT_YET"); more && *more) {
    std::stringstream list(more);
    for (std::string a; std::getline(list, a, ',');) out.insert(a);
  }
  return out;
}();

// Architectures OpenCV 4.6 runs as a partition only, ONNX Runtime the rest: a detector's
// detections need NonZero, TopK with a computed k, GatherND and If (a two-stage one's proposals
// too, before RoIAlign); RAFT's correlation lookups GridSample (and its feature encoder
// normalizes a batch of two images per instance).
// ssdlite320 and raft_small are of the full-size corpus (scripts/dev zoo).
[[maybe_unused]] const std::set<std::string> partitioned = {"ssdlite", "ssd",         "retinanet",
                                                            "fcos",    "faster_rcnn", "mask_rcnn",
                                                            "raft",    "ssdlite320",  "raft_small"};

// Variants whose original ONNX Runtime runs otherwise than PyTorch (the converter is held to
// ONNX Runtime on the original, as for every model), and why. The test checks they still differ.
constexpr std::string_view roi_align_mode =
    "from opset 16 on torch 1.13 writes RoIAlign without its coordinate_transformation_mode, "
    "whose default (half_pixel) is not torchvision's (output_half_pixel)";
constexpr std::string_view tied_scores =
    "at full size and random weights every score ties, and PyTorch and ONNX Runtime keep "
    "different detections among the ties";
const std::map<std::string, std::string_view> exported_unlike_torch = {
    {"faster_rcnn_op17", roi_align_mode},       {"faster_rcnn_op17_perturbed", roi_align_mode},
    {"mask_rcnn_op17", roi_align_mode},         {"mask_rcnn_op17_perturbed", roi_align_mode},
    {"ssdlite320_op13", tied_scores},           {"ssdlite320_op17", tied_scores},
    {"ssdlite320_op13_perturbed", tied_scores}, {"ssdlite320_op17_perturbed", tied_scores},
};

// Architectures whose variants with a dynamic batch OpenCV 4.6 does not run yet, and why: the
// check names nodes of each (so the list cannot go stale either).
const std::set<std::string> not_yet_dynamic = {};

// Max abs error over max abs value of the reference (infinite when the shapes differ).
double relative_error(const rx::tensor& got, const rx::tensor& reference) {
  double largest = 0;
  for (const double v : rx::values_as_double(reference)) largest = std::max(largest, std::abs(v));
  return rx::max_abs_difference(got, reference) / std::max(largest, 1e-30);
}

// The largest relative error over the outputs of `got` against those of `reference`, matched
// by name: infinite when an output is missing or `got` has one the reference has not.
double largest_error(const std::map<std::string, rx::tensor>& got,
                     const std::map<std::string, rx::tensor>& reference) {
  if (got.size() != reference.size()) return std::numeric_limits<double>::infinity();
  double largest = 0;
  for (const auto& [name, t] : reference) {
    const auto it = got.find(name);
    if (it == got.end()) return std::numeric_limits<double>::infinity();
    largest = std::max(largest, relative_error(it->second, t));
  }
  return largest;
}

// Detections (boxes [N, 4], scores [N] and labels [N], and masks [N, 1, H, W] where given) of
// two runs as sets: each detection of the reference matched to one of `got` with the same label,
// its box and score closest; the largest difference of a matched pair (its boxes over the
// largest box coordinate, its scores and masks as they are, within [0, 1]). Infinite when the
// counts differ or a label finds no partner. Random weights make near-equal scores, which an
// engine may order either way.
double detection_set_error(const std::map<std::string, rx::tensor>& got,
                           const std::map<std::string, rx::tensor>& reference) {
  const auto values = [](const std::map<std::string, rx::tensor>& m, const char* name) {
    const auto it = m.find(name);
    return it == m.end() ? std::vector<double>{} : rx::values_as_double(it->second);
  };
  const auto boxes = values(got, "boxes"), scores = values(got, "scores"),
             labels = values(got, "labels");
  const auto ref_boxes = values(reference, "boxes"), ref_scores = values(reference, "scores"),
             ref_labels = values(reference, "labels");
  const auto masks = values(got, "masks"), ref_masks = values(reference, "masks");
  const auto n = ref_labels.size();
  constexpr double infinite = std::numeric_limits<double>::infinity();
  if (labels.size() != n || boxes.size() != 4 * n || scores.size() != n ||
      ref_boxes.size() != 4 * n || masks.size() != ref_masks.size())
    return infinite;
  const auto mask = n == 0 ? std::size_t{0} : ref_masks.size() / n;  // elements per detection
  double largest = 1e-30;
  for (const double v : ref_boxes) largest = std::max(largest, std::abs(v));
  std::vector<bool> taken(n, false);
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double best = infinite;
    std::size_t partner = n;
    for (std::size_t j = 0; j < n; ++j) {
      if (taken[j] || labels[j] != ref_labels[i]) continue;
      double d = std::abs(scores[j] - ref_scores[i]);
      for (std::size_t k = 0; k < 4; ++k)
        d = std::max(d, std::abs(boxes[4 * j + k] - ref_boxes[4 * i + k]) / largest);
      for (std::size_t k = 0; k < mask; ++k)
        d = std::max(d, std::abs(masks[mask * j + k] - ref_masks[mask * i + k]));
      if (d < best) best = d, partner = j;
    }
    if (partner == n) return infinite;
    taken[partner] = true;
    worst = std::max(worst, best);
  }
  return worst;
}

std::string names_of(const std::map<std::string, rx::tensor>& m) {
  std::string out;
  for (const auto& [name, t] : m) out += (out.empty() ? "" : ", ") + name;
  return out;
}

std::vector<std::string> output_names(const rx::model& m) {
  std::vector<std::string> out;
  for (const auto& o : m.graph().output()) out.push_back(o.name());
  return out;
}

// Whether an output carries signal: a constant output (all zeros among them) is the same
// whatever the arithmetic that led to it, so it checks nothing of it; nor does an empty one.
bool carries_signal(const rx::tensor& t) {
  const auto v = rx::values_as_double(t);
  return std::any_of(v.begin(), v.end(), [&](double x) { return x != v.front(); });
}

// The plain variants (as torch writes them, random init) whose outputs carry no signal of the
// arithmetic the converter rewrites. They check that the converted model loads, runs and keeps
// its outputs (names, shapes, values), not that its numbers are right: the perturbed variants
// do that (Corpus.EveryArchitectureHasAVariantWithSignal). Each entry says why, and the test
// checks that the reason still holds, so the list cannot go stale.
struct no_signal {
  std::string_view why;
  bool (*holds)(const rx::model&, const std::map<std::string, rx::tensor>& reference);
};

bool all_zero(const rx::model&, const std::map<std::string, rx::tensor>& reference) {
  for (const auto& [name, t] : reference)
    for (const double v : rx::values_as_double(t))
      if (v != 0) return false;
  return true;
}

// A stored tensor of 1e-6 only: ConvNeXt's layer scale as initialized.
bool has_layer_scale_of_1e6(const rx::model& m, const std::map<std::string, rx::tensor>&) {
  for (const auto& init : m.graph().initializer()) {
    if (init.data_type() != onnx::TensorProto_DataType_FLOAT) continue;
    const auto v = rx::values_as_double(rx::tensor(init));
    if (!v.empty() && std::all_of(v.begin(), v.end(), [](double x) { return x == 1e-6f; }))
      return true;
  }
  return false;
}

constexpr std::string_view zero_head =
    "torchvision initializes the head with zeros: every output is 0, whatever the body computes";
constexpr std::string_view tiny_layer_scale =
    "the layer scales are 1e-6 and the LayerNorm weights ones: the blocks move the output by "
    "about 1e-6 of its size, under the tolerance, and a scale by ones put on the wrong axis "
    "changes nothing";
// A detector's scores, all one value.
bool scores_tie(const rx::model&, const std::map<std::string, rx::tensor>& reference) {
  const auto it = reference.find("scores");
  return it != reference.end() && !carries_signal(it->second);
}

constexpr std::string_view one_score =
    "torchvision initializes SSDlite's classifier so that every detection of a random image "
    "scores the same: the boxes and labels carry the signal, the scores none";
const std::map<std::string, no_signal> structure_only = {
    {"ssdlite320_op13", {one_score, scores_tie}},  // the full-size corpus (scripts/dev zoo)
    {"ssdlite320_op17", {one_score, scores_tie}},
    {"vit_op13", {zero_head, all_zero}},
    {"vit_op17", {zero_head, all_zero}},
    {"convnext_tiny_op13", {tiny_layer_scale, has_layer_scale_of_1e6}},
    {"convnext_tiny_op17", {tiny_layer_scale, has_layer_scale_of_1e6}},
};

struct corpus_case {
  std::string architecture, variant;
  std::string file() const { return architecture + "_" + variant + ".onnx"; }
  // A variant exported with a dynamic batch: it runs at batch 1 and 3.
  bool dynamic() const { return variant.ends_with("_dynamic"); }
  // The test inputs: batch 1, and batch 3 for a dynamic variant (PyTorch's outputs, the
  // variant's, are on the last: those of batch 1 are the static variant's).
  std::vector<fs::path> inputs() const {
    std::vector<fs::path> out{corpus / (architecture + "_input.pb")};
    if (dynamic()) out.push_back(corpus / (architecture + "_input_batch3.pb"));
    return out;
  }
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
    for (const char* v : {"op13", "op17", "op13_perturbed", "op17_perturbed",
                          "op13_perturbed_dynamic", "op17_perturbed_dynamic"})
      if (fs::exists(corpus / (a + "_" + v + ".onnx"))) out.push_back({a, v});
  return out;
}

class Corpus : public support::scratch_folder_test,
               public ::testing::WithParamInterface<corpus_case> {};

TEST_P(Corpus, ConvertedForOpencvRunsAndMatchesOnnxRuntime) {
  const auto& c = GetParam();
  const auto path = corpus / c.file();
  auto original = rx::load(path);
  const std::string input_name = original.graph().input(0).name();
  const auto& outputs = original.graph().output();

  // The reference, per test input: ONNX Runtime on the original, which agrees with PyTorch
  // (output K of a model with several is <model>_torch_outputK.pb, a tensor named as the
  // output) on the input PyTorch's outputs are for.
  std::vector<std::map<std::string, rx::tensor>> references;
  for (const auto& input_file : c.inputs()) {
    const auto& reference =
        references.emplace_back(ort::run(original, dir_ / "original", {{input_name, input_file}}));
    ASSERT_EQ(reference.size(), static_cast<std::size_t>(outputs.size())) << names_of(reference);
    if (input_file != c.inputs().back()) continue;
    std::map<std::string, rx::tensor> torch_outputs;
    for (int k = 0; k < outputs.size(); ++k) {
      const auto suffix = outputs.size() == 1 ? std::string() : std::to_string(k);
      auto torch_output = rx::read_tensor_file(
          corpus / (c.architecture + "_" + c.variant + "_torch_output" + suffix + ".pb"));
      EXPECT_EQ(torch_output.proto().name(), outputs[k].name()) << "PyTorch's output " << k;
      torch_outputs.emplace(outputs[k].name(), std::move(torch_output));
    }
    // Detections as sets (random weights make near-equal scores, ordered either way).
    if (reference.contains("labels")) {
      const double e = detection_set_error(reference, torch_outputs);
      if (const auto unlike = exported_unlike_torch.find(c.architecture + "_" + c.variant);
          unlike != exported_unlike_torch.end()) {
        std::cout << c.file() << ": ONNX Runtime differs from PyTorch: " << unlike->second << "\n";
        EXPECT_GT(e, 1e-4) << "ONNX Runtime now agrees with PyTorch: take it off the list";
      } else {
        EXPECT_LE(e, 1e-4) << "ONNX Runtime vs PyTorch, detections as sets, on "
                           << input_file.filename();
      }
      continue;
    }
    for (const auto& [name, torch_output] : torch_outputs)
      EXPECT_LE(relative_error(reference.at(name), torch_output), 1e-4)
          << "ONNX Runtime vs PyTorch, output " << name << ", on " << input_file.filename();
  }
  const auto& reference = references.front();

  // Numbers checked only where they carry signal: a constant output is listed, with the reason.
  const auto listed = structure_only.find(c.architecture + "_" + c.variant);
  if (listed != structure_only.end()) {
    EXPECT_TRUE(listed->second.holds(original, reference))
        << "listed as structure-only (" << listed->second.why
        << "), which no longer holds: take it off the list";
    std::cout << c.file() << ": structure only, not numbers: " << listed->second.why << "\n";
  } else {
    // Every output with elements varies (a detector may find nothing, and give none), and
    // one at least does.
    bool some = false;
    for (const auto& [name, t] : reference) {
      some = some || carries_signal(t);
      EXPECT_TRUE(carries_signal(t) || rx::values_as_double(t).empty())
          << "output " << name << " is constant: it checks no arithmetic; list the model as "
          << "structure-only, with the reason, or give it weights that make a signal";
    }
    EXPECT_TRUE(some) << "no output carries signal";
  }

  // The converted model keeps the outputs' names (and their order), and ONNX Runtime gives the
  // same values under each name; a dynamic batch stays dynamic.
  auto [converted, report] = rc::convert<bk::opencv_dnn>(original);
  std::cout << c.file() << ": " << rc::summary(report) << "\n";
  EXPECT_EQ(output_names(converted), output_names(original)) << "conversion renamed an output";
  if (c.dynamic()) {
    EXPECT_FALSE(converted.graph().input(0).type().tensor_type().shape().dim(0).has_dim_value())
        << "the batch was made static";
    // Converted at two sizes and joined, or converted as written, the report says which.
    const bool kept = report.open_dims.find("kept open") != std::string::npos;
    EXPECT_TRUE(kept || report.open_dims.find("left open as written") != std::string::npos)
        << report.open_dims;
    if (!not_yet_dynamic.contains(c.architecture)) {
      EXPECT_TRUE(kept) << report.open_dims;
    }
  }
  for (std::size_t i = 0; i < references.size(); ++i) {
    const auto again = ort::run(converted, dir_ / "converted", {{input_name, c.inputs()[i]}});
    EXPECT_LE(largest_error(again, references[i]), 1e-5)
        << "ONNX Runtime, converted (" << names_of(again) << ") vs original ("
        << names_of(references[i]) << "), on " << c.inputs()[i].filename();
  }

#if RETARGET_HAS_OPENCV_DNN
  if (partitioned.contains(c.architecture)) {
    // OpenCV runs the head, ONNX Runtime the rest: the pipeline `retarget convert --partition`
    // writes, run as `retarget run` runs it.
    auto cut = rc::partition_for<bk::opencv_dnn>(converted);
    ASSERT_TRUE(cut.needed()) << "OpenCV refuses nothing: take it off the partitioned list";
    for (const auto& r : cut.cut_at) std::cout << "  cut at " << r.node << ": " << r.why << "\n";
    EXPECT_TRUE(rc::refused_nodes<bk::opencv_dnn>(cut.parts.head)->empty());
    rx::save(cut.parts.head, dir_ / "head.onnx");
    rx::save(cut.parts.tail, dir_ / "tail.onnx");
    const rb::pipeline pipeline{{{"head.onnx", "opencv_dnn"}, {"tail.onnx", "onnxruntime"}},
                                output_names(original)};
    rb::write_pipeline(pipeline, dir_ / "model.pipeline.json");
    const auto got = rb::run_pipeline<retarget::backends::shipped>(
        rb::read_pipeline(dir_ / "model.pipeline.json"), dir_ / "model.pipeline.json",
        {{input_name, rx::read_tensor_file(c.inputs().front())}}, dir_ / "engines");
    // Detections as sets; other outputs (RAFT's flow) as every model's.
    const bool detections = reference.contains("labels");
    const double e =
        detections ? detection_set_error(got, reference) : largest_error(got, reference);
    std::cout << "  partition: " << cut.parts.head.node_count() << " nodes on opencv_dnn, "
              << cut.parts.tail.node_count() << " on onnxruntime; relative error " << e
              << (detections ? " as sets of detections\n" : "\n");
    EXPECT_LE(e, 1e-5) << "the pipeline's outputs vs ONNX Runtime's on the original";
    table_row("| " + c.file() + " | " + std::to_string(report.nodes_before) + " → " +
              std::to_string(report.nodes_after) +
              " | refused | partition: " + std::to_string(cut.parts.head.node_count()) +
              " nodes on OpenCV, " + std::to_string(cut.parts.tail.node_count()) +
              " on ONNX Runtime, " + scientific(e) + " |  |");
    return;
  }
  rx::save(converted, dir_ / "opencv.onnx");
  const auto refused = rc::refused_nodes<bk::opencv_dnn>(converted);
  ASSERT_TRUE(refused.has_value());
  const auto after = run_opencv(dir_ / "opencv.onnx", input_name, c.inputs().front());
  const double error = after.refused ? -1 : largest_error(after.outputs, reference);
  const auto before = run_opencv(path, input_name, c.inputs().front());
  const double error_before = before.refused ? -1 : largest_error(before.outputs, reference);
  std::vector<opencv_outcome> runs{after};
  for (std::size_t i = 1; i < references.size(); ++i)
    runs.push_back(run_opencv(dir_ / "opencv.onnx", input_name, c.inputs()[i]));
  const auto failing =
      std::find_if(runs.begin(), runs.end(), [](const auto& r) { return r.refused; });
  // A dynamic variant's row says OpenCV at batch 3 too (the last column, empty for others).
  const auto& last = runs.back();
  const auto last_error = last.refused ? -1 : largest_error(last.outputs, references.back());
  table_row("| " + c.file() + " | " + std::to_string(report.nodes_before) + " → " +
            std::to_string(report.nodes_after) + " | " + verdict(before, error_before) + " | " +
            verdict(after, error) + " | " + (c.dynamic() ? verdict(last, last_error) : "") + " |");
  if (not_yet.contains(c.architecture) ||
      (c.dynamic() && not_yet_dynamic.contains(c.architecture))) {
    EXPECT_TRUE(failing != runs.end())
        << c.architecture << " now runs on OpenCV: take it off the list";
    EXPECT_FALSE(refused->empty()) << "OpenCV refuses it, and the table names no node";
    for (const auto& r : *refused) std::cout << "  refused: " << r.node << ": " << r.why << "\n";
    if (failing != runs.end() && !failing->op.empty()) {
      std::set<std::string> ops;
      for (const auto& r : *refused)
        if (r.index >= 0) ops.insert(converted.graph().node(r.index).op_type());
      EXPECT_TRUE(ops.contains(failing->op))
          << "OpenCV refuses a " << failing->op << ": " << failing->message;
    }
  } else {
    EXPECT_TRUE(refused->empty()) << refused->front().node << ": " << refused->front().why;
    for (std::size_t i = 0; i < references.size(); ++i) {
      const auto& run = runs[i];
      ASSERT_FALSE(run.refused) << run.message << ", on " << c.inputs()[i].filename();
      EXPECT_EQ(names_of(run.outputs), names_of(references[i])) << "OpenCV's outputs";
      const double e = largest_error(run.outputs, references[i]);
      EXPECT_LE(e, 1e-5) << "OpenCV on the converted model vs ONNX Runtime on the original, on "
                         << c.inputs()[i].filename();
      std::cout << "  opencv_dnn: relative error " << e << " on " << c.inputs()[i].filename()
                << "\n";
    }
  }
#endif
}

#if RETARGET_HAS_OPENCV_DNN
// The refusal table (what `retarget check --backend opencv_dnn` prints) against OpenCV itself,
// on every model as torch wrote it: OpenCV refuses the model (when loading it or on the first
// forward) exactly when the table names a node, and the node OpenCV's message names (its op,
// and the node itself, by name) is one the table names. Where OpenCV's message names no node
// (a failure of the whole graph, as a BOOL tensor anywhere, or one at run time), only the
// first is checked.
TEST_P(Corpus, RefusalTableAgreesWithOpencv) {
  const auto& c = GetParam();
  const auto path = corpus / c.file();
  const auto original = rx::load(path);
  const auto refused = rc::refused_nodes<bk::opencv_dnn>(original);
  ASSERT_TRUE(refused.has_value());
  std::set<std::string> ops, nodes;
  std::string listed;
  for (const auto& r : *refused) {
    if (r.index < 0) continue;  // no node holds it
    const auto& n = original.graph().node(r.index);
    ops.insert(n.op_type());
    nodes.insert(n.name().empty() && n.output_size() > 0 ? n.output(0) : n.name());
    listed += "\n  " + r.node + ": " + r.why;
  }
  const auto opencv =
      run_opencv(path, original.graph().input(0).name(), corpus / (c.architecture + "_input.pb"));
  std::cout << c.file() << ": OpenCV " << (opencv.refused ? "refuses it" : "runs it")
            << (opencv.op.empty() ? "" : ", naming " + opencv.op + " '" + opencv.node + "'")
            << "; the table names " << refused->size() << " node(s)\n";
  if (opencv.refused) {
    EXPECT_FALSE(refused->empty())
        << "OpenCV refuses it, the table names no node: " << opencv.message;
    if (!opencv.op.empty()) {
      EXPECT_TRUE(ops.contains(opencv.op))
          << "OpenCV refuses a " << opencv.op
          << ", which the table does not name: " << opencv.message << "\nthe table:" << listed;
      EXPECT_TRUE(nodes.contains(opencv.node))
          << "OpenCV stops at " << opencv.op << " '" << opencv.node
          << "', which the table does not name: " << opencv.message << "\nthe table:" << listed;
    } else {
      std::cout << "  OpenCV names no node: " << opencv.message << "\n";
    }
  } else {
    EXPECT_TRUE(refused->empty()) << "OpenCV runs it, the table refuses:" << listed;
  }
}

opencv_outcome run_opencv(const fs::path& model, const std::string& input_name,
                          const fs::path& input_file) {
  opencv_outcome out;
  std::optional<bk::opencv_dnn_wrapper> net;
  try {
    net.emplace(model);
    out.outputs = net->run({{input_name, rx::read_tensor_file(input_file)}});
    return out;
  } catch (const retarget::error& e) {
    out.refused = true;
    out.at_load = !net.has_value();
    out.message = e.what();
  }
  const auto& what = out.message;
  const auto between = [&](std::size_t from, std::string_view open, std::string_view close) {
    const auto at = what.find(open, from);
    if (at == std::string::npos) return std::string();
    const auto begin = at + open.size();
    const auto end = what.find(close, begin);
    return end == std::string::npos ? std::string() : what.substr(begin, end - begin);
  };
  // OpenCV names a node by its name, or by its first output when it has none
  // ("onnx_node!<name>" or "onnx_node_output_0!<output>").
  const auto after_bang = [](const std::string& s) { return s.substr(s.find('!') + 1); };
  if (const auto node = what.find("Node ["); node != std::string::npos) {
    out.op = between(node, "[", "@");
    out.node = after_bang(between(node, "]:(", ")"));
  } else if (const auto layer = what.find("Can't create layer"); layer != std::string::npos) {
    out.op = between(layer, "of type \"", "\"");
    out.node = after_bang(between(layer, "\"", "\""));
  }
  return out;
}
#endif

INSTANTIATE_TEST_SUITE_P(Models, Corpus, ::testing::ValuesIn(cases()), [](const auto& info) {
  return info.param.architecture + "_" + info.param.variant;
});

TEST(Corpus, HasEveryArchitecture) {
  if (corpus != default_corpus) GTEST_SKIP() << "another corpus: " << corpus;
  EXPECT_EQ(cases().size(), 92u);
}

// Every architecture has a variant whose numbers are checked (not listed as structure-only;
// the test of each checks that its outputs carry signal).
TEST(Corpus, EveryArchitectureHasAVariantWithSignal) {
  std::map<std::string, int> checked;
  for (const auto& c : cases())
    checked[c.architecture] += !structure_only.contains(c.architecture + "_" + c.variant);
  ASSERT_FALSE(checked.empty());
  for (const auto& [architecture, n] : checked)
    EXPECT_GT(n, 0) << architecture << ": every variant is structure-only";
}

// The corpus has an output before global pooling (a feature map with height and width above 1,
// channels, height and width all different) that OpenCV runs after conversion: there, values
// in the wrong spatial order (NHWC for NCHW, height for width) show.
TEST(Corpus, HasAFeatureMapOutput) {
  if (corpus != default_corpus) GTEST_SKIP() << "another corpus: " << corpus;
  std::set<std::string> found;
  for (const auto& c : cases()) {
    if (not_yet.contains(c.architecture) ||
        structure_only.contains(c.architecture + "_" + c.variant))
      continue;
    const auto model = rx::load(corpus / c.file());
    for (const auto& o : model.graph().output()) {
      const auto& dims = o.type().tensor_type().shape().dim();
      if (dims.size() == 4 && dims[2].dim_value() > 1 && dims[3].dim_value() > 1 &&
          dims[1].dim_value() != dims[2].dim_value() &&
          dims[2].dim_value() != dims[3].dim_value() && dims[1].dim_value() != dims[3].dim_value())
        found.insert(c.file() + ":" + o.name());
    }
  }
  EXPECT_FALSE(found.empty());
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
