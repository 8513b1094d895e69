// Opset conversion: each adapter (retarget's, ONNX's where it is right, the re-emitted nodes
// whose types only changed) checked by running the model and its conversion on ONNX Runtime;
// RoiAlign between 15 and 16 (where 16's default sampling is not 10's) converted or refused;
// the plan reporting every unadaptable node at once; a corpus model (ConvNeXt-Tiny, with
// LayerNormalization) from 17 to 16 and 13. The small models are made by
// tests/data/opset/make_opset_models.py.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <optional>
#include <retarget/convert/opset.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <string>
#include <vector>

#include "support/ort.hpp"
#include "support/scratch_folder.hpp"

namespace {

namespace rc = retarget::convert;
namespace rx = retarget::ir;
using namespace retarget::literals;

std::filesystem::path data(const std::string& name) {
  return ort::source_dir() / "tests/data" / name;
}

std::vector<std::string> ops_of(const rx::model& m) {
  std::vector<std::string> out;
  for (const auto& n : m.graph().node()) out.push_back(n.op_type());
  return out;
}

bool has_op(const rx::model& m, const std::string& op) {
  const auto ops = ops_of(m);
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

class Opset : public support::scratch_folder_test {
 protected:
  // The model and its conversion to `opset`, run on ONNX Runtime with the same input, every
  // output within `tolerance`. Returns the conversion.
  rx::model expect_same_numbers(const std::string& file, int opset, double tolerance = 1e-5) {
    auto original = rx::load(data(file));
    auto converted = rc::to_opset(original, opset);
    EXPECT_EQ(converted.opset(), opset);
    const auto a = run(original, "a");
    const auto b = run(converted, "b");
    EXPECT_EQ(a.size(), b.size());
    for (const auto& [out, t] : a)
      EXPECT_LE(ort::max_abs_error(t, b.at(out)), tolerance)
          << file << " -> opset " << opset << ", output " << out;
    return converted;
  }

  // The model on ONNX Runtime, its first input the same for every model of that input's shape.
  std::map<std::string, rx::tensor> run(rx::model& m, const std::string& tag) {
    std::vector<std::int64_t> dims;
    for (const auto& d : m.graph().input(0).type().tensor_type().shape().dim())
      dims.push_back(d.dim_value());
    std::int64_t n = 1;
    for (auto d : dims) n *= d;
    std::vector<float> values;
    for (std::int64_t i = 0; i < n; ++i)
      values.push_back(static_cast<float>((i * 37 % 23) - 11) / 3.0f);
    const auto input = dir_ / (tag + "-x.pb");
    rx::write_tensor_file(input, rx::tensor::of<float>(std::span<const float>(values), dims));
    return ort::run(m, dir_ / tag, {{m.graph().input(0).name(), input}});
  }
};

std::optional<std::string> string_attribute(const rx::model& m, const std::string& op,
                                            const std::string& name) {
  for (const auto& n : m.graph().node())
    if (n.op_type() == op)
      for (const auto& a : n.attribute())
        if (a.name() == name) return a.s();
  return std::nullopt;
}

TEST_F(Opset, LayerNormalizationIsDecomposedBelow17) {
  for (const int opset : {16, 13, 11}) {
    const auto m = expect_same_numbers("opset/layer_norm_op17.onnx", opset);
    EXPECT_FALSE(has_op(m, "LayerNormalization")) << opset;
    EXPECT_TRUE(has_op(m, "ReduceMean")) << opset;
  }
}

TEST_F(Opset, SoftmaxAndLogSoftmaxFrom13To12OverAnyAxisOfKnownRank) {
  for (const int opset : {12, 11}) {
    const auto m = expect_same_numbers("opset/softmax_op13.onnx", opset);
    EXPECT_TRUE(has_op(m, "Transpose")) << opset;  // axes 1 and 0
  }
  expect_same_numbers("opset/softmax_op12.onnx", 13);  // ONNX's adapter going up
}

TEST_F(Opset, SoftmaxOfUnknownRankOverAnotherAxisIsRefused) {
  onnx::ModelProto proto;  // an input whose rank is unknown
  proto.set_ir_version(7);
  proto.add_opset_import()->set_version(13);
  auto& g = *proto.mutable_graph();
  g.set_name("g");
  auto* node = g.add_node();
  node->set_op_type("Softmax");
  node->add_input("x");
  node->add_output("y");
  auto* axis = node->add_attribute();
  axis->set_name("axis");
  axis->set_type(onnx::AttributeProto::INT);
  axis->set_i(1);
  for (auto* v : {g.add_input(), g.add_output()})
    v->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  g.mutable_input(0)->set_name("x");
  g.mutable_output(0)->set_name("y");
  const rx::model m(proto);
  const auto plan = rc::plan_opset(m, 12);
  ASSERT_EQ(plan.missing.size(), 1u);
  EXPECT_EQ(plan.missing[0].op, "Softmax");
  EXPECT_NE(plan.missing[0].why.find("axis 1 of an input of unknown rank"), std::string::npos)
      << plan.missing[0].why;
}

TEST_F(Opset, SplitSqueezeAndUnsqueezeBetween12And13) {
  const auto down = expect_same_numbers("opset/split_squeeze_op13.onnx", 12);
  for (const auto& n : down.graph().node()) {
    if (n.op_type() == "Split" || n.op_type() == "Squeeze" || n.op_type() == "Unsqueeze") {
      EXPECT_EQ(n.input_size(), 1) << n.name();  // the attribute, not the input
    }
  }
  expect_same_numbers("opset/split_squeeze_op12.onnx", 13);  // ONNX's adapters going up
}

TEST_F(Opset, ResizeBetween10_11And13WhereTheSemanticsCarryOver) {
  expect_same_numbers("opset/resize_op13.onnx", 12);
  expect_same_numbers("opset/resize_op13.onnx", 11);
  expect_same_numbers("opset/resize_op11.onnx", 10);
  expect_same_numbers("opset/resize_op11.onnx", 13);
  expect_same_numbers("opset/resize_op10.onnx", 11);
  expect_same_numbers("opset/resize_op10.onnx", 13);
}

TEST_F(Opset, ResizeThatOpset10CannotExpressIsRefusedNamingTheAttribute) {
  const auto plan = rc::plan_opset(rx::load(data("opset/resize_op13.onnx")), 10);
  ASSERT_EQ(plan.missing.size(), 2u);
  EXPECT_EQ(plan.missing[0].name, "resize_linear");
  EXPECT_EQ(plan.missing[0].from, 11);
  EXPECT_EQ(plan.missing[0].to, 10);
  EXPECT_NE(plan.missing[0].why.find("coordinate_transformation_mode 'half_pixel'"),
            std::string::npos)
      << plan.missing[0].why;
  EXPECT_EQ(plan.missing[1].name, "resize_cubic");
  EXPECT_NE(plan.missing[1].why.find("mode 'cubic'"), std::string::npos) << plan.missing[1].why;
}

// RoiAlign-10 (opsets 10 to 15) samples as 16's "output_half_pixel"; 16 defaults to
// "half_pixel". Going up writes the old mode; going down keeps a node only in the old mode.
TEST_F(Opset, RoiAlignKeepsItsSamplingBetween15And16OrIsRefused) {
  for (const int opset : {16, 17}) {
    const auto up = expect_same_numbers("opset/roi_align_op15.onnx", opset);
    EXPECT_EQ(string_attribute(up, "RoiAlign", "coordinate_transformation_mode"),
              "output_half_pixel")
        << opset;
  }
  for (const int opset : {15, 10}) {
    const auto down = expect_same_numbers("opset/roi_align_output_half_pixel_op16.onnx", opset);
    EXPECT_EQ(string_attribute(down, "RoiAlign", "coordinate_transformation_mode"), std::nullopt)
        << opset;
  }

  const auto model = rx::load(data("opset/roi_align_op16.onnx"));
  const auto plan = rc::plan_opset(model, 15);
  ASSERT_EQ(plan.missing.size(), 1u) << rc::to_string(plan);
  EXPECT_EQ(plan.missing[0].name, "roi_align_default");
  EXPECT_EQ(plan.missing[0].from, 16);
  EXPECT_EQ(plan.missing[0].to, 15);
  EXPECT_NE(plan.missing[0].why.find("coordinate_transformation_mode defaults to 'half_pixel' at "
                                     "16, which RoiAlign-10 cannot express"),
            std::string::npos)
      << plan.missing[0].why;
  EXPECT_THROW(rc::to_opset(model, 15), retarget::error);

  // The refusal is needed: the same node read at opset 15 gives other numbers.
  auto proto = model.proto();
  proto.mutable_opset_import(0)->set_version(15);
  rx::model relabeled(proto);
  auto original = model;
  const auto a = run(original, "default16");
  const auto b = run(relabeled, "default15");
  const auto va = ort::values_of(a.at("y")), vb = ort::values_of(b.at("y"));
  ASSERT_EQ(va.size(), vb.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < va.size(); ++i) differ += std::abs(va[i] - vb[i]) > 1e-4;
  const auto max_abs = ort::max_abs_error(a.at("y"), b.at("y"));
  std::cout << "RoiAlign-16's default read as RoiAlign-10: " << differ << " of " << va.size()
            << " values differ, max abs " << max_abs << "\n";
  EXPECT_GT(max_abs, 0.1);
}

TEST_F(Opset, EveryUnadaptableNodeIsReportedAtOnceBeforeConverting) {
  const auto model = rx::load(data("opset/unadaptable_op15.onnx"));
  const auto plan = rc::plan_opset(model, 14);
  ASSERT_EQ(plan.missing.size(), 2u) << rc::to_string(plan);
  EXPECT_EQ(plan.missing[0].index, 1);
  EXPECT_EQ(plan.missing[0].name, "cast_like");
  EXPECT_EQ(plan.missing[0].op, "CastLike");
  EXPECT_EQ(plan.missing[0].from, 15);
  EXPECT_EQ(plan.missing[0].to, 14);
  EXPECT_EQ(plan.missing[1].index, 2);
  EXPECT_EQ(plan.missing[1].op, "Shape");
  try {
    rc::to_opset(model, 14);
    FAIL() << "converted";
  } catch (const retarget::error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("2 nodes have no adapter"), std::string::npos) << what;
    EXPECT_NE(what.find("node 1 'cast_like' (CastLike), opset 15 -> 14: CastLike is not in "
                        "opset 14"),
              std::string::npos)
        << what;
    EXPECT_NE(what.find("node 2 'shape_from_1' (Shape), opset 15 -> 14"), std::string::npos)
        << what;
  }
}

TEST_F(Opset, NodesOfOtherDomainsAreLeftAlone) {
  const auto m = rc::to_opset(rx::load(data("opset/custom_domain_op13.onnx")), 12,
                              {.check = false});  // ONNX's checker does not know MyOp
  ASSERT_EQ(m.graph().node_size(), 3);
  EXPECT_EQ(m.graph().node(1).op_type(), "MyOp");
  EXPECT_EQ(m.graph().node(1).domain(), "my.domain");
  EXPECT_EQ(m.opset("my.domain"), 1);
  EXPECT_EQ(m.opset(), 12);
}

TEST_F(Opset, ConvNeXtTinyFrom17To16And13) {
  for (const int opset : {16, 13}) {
    const auto m = expect_same_numbers("convert/convnext_tiny_op17.onnx", opset, 1e-4);
    EXPECT_FALSE(has_op(m, "LayerNormalization"));
  }
}

TEST_F(Opset, SameOpsetIsACopyAndOutOfRangeIsAnError) {
  const auto model = rx::load(data("opset/softmax_op13.onnx"));
  EXPECT_EQ(ops_of(rc::to_opset(model, 13)), ops_of(model));
  EXPECT_THROW(rc::to_opset(model, 18), retarget::error);
}

}  // namespace
