// opencv_dnn's tag is light with retarget::compiled: a unit that includes it (and the other
// tags) compiles without ONNX's or protobuf's headers and without the conversion package, yet
// convert<opencv_dnn>, `check --backend`'s table and the approximations offered work from here
// with every rule active, from the library: the same report, model and refusals as the package
// run as types (light_tag_reference.cpp).
#include <retarget/backends/onnxruntime/backend.hpp>
#include <retarget/backends/opencv_dnn/backend.hpp>
#include <retarget/backends/tensorrt/backend.hpp>

// Checked before anything else is included.
#if !defined(RETARGET_SEPARATE_COMPILATION)
#error "this unit tests the tags as retarget::compiled's users see them"
#endif
#if defined(ONNX_ONNX_PB_H) || defined(GOOGLE_PROTOBUF_VERSION)
#error "a backend's tag includes ONNX's or protobuf's headers with retarget::compiled"
#endif
#if defined(RETARGET_BACKENDS_OPENCV_DNN_CONVERT_HPP) || defined(RETARGET_CONVERT_RULE_HPP)
#error "opencv_dnn's tag includes its conversion package with retarget::compiled"
#endif
#if defined(RETARGET_TRACE_TENSOR_HPP) || defined(RETARGET_SYMBOLICS_HPP)
#error "a backend's tag includes the tracer or the symbolics with retarget::compiled"
#endif

#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <iterator>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/model_file.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "convert/light_tag.hpp"

#if defined(RETARGET_BACKENDS_OPENCV_DNN_CONVERT_HPP) || \
    defined(RETARGET_BACKENDS_OPENCV_DNN_RULES_HPP)
#error "convert/convert.hpp includes opencv_dnn's conversion package"
#endif

namespace {

namespace fs = std::filesystem;
namespace rc = retarget::convert;
namespace rx = retarget::ir;
namespace bk = retarget::backends;

const fs::path corpus = fs::path(RETARGET_SOURCE_DIR) / "tests/data/convert";

std::string rules_text(const rc::report& r) {
  std::string out;
  for (const auto& rule : r.rules)
    out += rule.name + ": fired " + std::to_string(rule.fired) + ", matched " +
           std::to_string(rule.nodes_matched) + ", created " + std::to_string(rule.nodes_created) +
           "\n";
  return out;
}

std::string node_rewrites_text(const rc::report& r) {
  std::string out;
  for (const auto& n : r.node_rewrites)
    out += n.op + " by " + n.rewrite + ": " + std::to_string(n.count) + "\n";
  return out;
}

std::string refusals_text(const std::vector<rc::refusal>& refusals) {
  std::string out;
  for (const auto& r : refusals)
    out += std::to_string(r.index) + " " + r.node + ": " + r.why + "\n";
  return out;
}

class tag_alone : public testing::TestWithParam<const char*> {};

TEST_P(tag_alone, converts_as_the_package_run_as_types) {
  const auto path = corpus / GetParam();
  auto light = rc::convert<bk::opencv_dnn>(rx::load(path));
  auto reference = light_tag::convert_with_package_types(rx::load(path));

  EXPECT_EQ(light.report.backend, "opencv_dnn");
  EXPECT_EQ(rules_text(light.report), rules_text(reference.report));
  EXPECT_EQ(node_rewrites_text(light.report), node_rewrites_text(reference.report));
  EXPECT_EQ(light.report.nodes_after, reference.report.nodes_after);
  EXPECT_EQ(light_tag::graph_bytes(light.model), light_tag::graph_bytes(reference.model));

  // opencv_dnn's package did the work here: its rules are listed, and rules or node rewrites
  // fired on every model of the list.
  EXPECT_FALSE(light.report.rules.empty());
  std::size_t fired = 0;
  for (const auto& rule : light.report.rules) fired += rule.fired;
  for (const auto& n : light.report.node_rewrites)
    if (n.rewrite == "opencv_dnn") fired += n.count;
  EXPECT_GT(fired, 0u) << rules_text(light.report) << node_rewrites_text(light.report);

  const auto model = rx::load(path);
  const auto refused = rc::refused_nodes<bk::opencv_dnn>(model);
  ASSERT_TRUE(refused.has_value());
  EXPECT_FALSE(refused->empty());
  EXPECT_EQ(refusals_text(*refused), refusals_text(light_tag::refusals_from_package_types(model)));
}

// Models on which opencv_dnn's rules and node rewrites fire: Clip (MobileNetV2), the
// single-element divisor and last-axis scale (ConvNeXt), LayerNormalization (ViT at opset 17),
// and Swin's attention bias.
INSTANTIATE_TEST_SUITE_P(corpus, tag_alone,
                         testing::Values("mobilenet_v2_op13.onnx", "convnext_tiny_op13.onnx",
                                         "vit_op17.onnx", "swin_t_op13.onnx"));

TEST(tag_alone, offers_the_package_approximations) {
  const auto offered = rc::approximations_of<bk::opencv_dnn>();
  EXPECT_EQ(offered, light_tag::approximations_from_package_types());
  EXPECT_FALSE(offered.empty());
}

// The tag declares the package's node rewrites by hand, so that a unit seeing the tag alone
// never takes the unspecialized node_rewrite for them, and lists their ops, which node_rewrite
// checks a declaration against: the declarations, the list and the package's definitions must
// name the same ops.
TEST(tag_alone, declares_every_node_rewrite_of_the_package) {
  const auto declared = rc::node_rewrite_ops<bk::opencv_dnn>();
  EXPECT_EQ(declared, light_tag::node_rewrites_from_package_types());
  const auto& listed = rc::compiled_package<bk::opencv_dnn>::node_rewrite_ops;
  EXPECT_EQ(declared, std::vector<std::string_view>(std::begin(listed), std::end(listed)));
  EXPECT_FALSE(declared.empty());
}

}  // namespace
