// What the compile-time op check accepts and refuses, asked through op_call_valid. Built,
// never run.
#include <retarget/ir.hpp>

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;
using rx::no_schemas;
using rx::value;

template <class... Args>
constexpr bool valid(std::string_view op) {
  return rx::op_call_valid<no_schemas, Args...>(op);
}

// A string literal is checked as it is written, by clang even inside decltype: a valid one.
using mode_s = decltype("mode"_s = "cubic");
using mode_f = decltype("mode"_f = 0);
using axes_i = decltype("axes"_i = {0});
using axes_1 = decltype("axes"_i = 0);

static_assert(valid<value, value, value, mode_s>("Resize"));
static_assert(valid<value, rx::no_input_t, value, mode_s>("Resize"));
static_assert(!valid<value>("Resise"));
static_assert(!valid<value, decltype("mdoe"_s = "")>("Resize"));
static_assert(!valid<value, mode_f>("Resize"));
static_assert(!valid<value, value, value, value, value>("Resize"));          // at most four inputs
static_assert(!valid<>("Conv"));                                             // at least two
static_assert(valid<std::vector<value>, decltype("axis"_i = 0)>("Concat"));  // a list: any count

// Any version counts at compile time: Squeeze took `axes` as INTS until opset 13, then as an
// input; the exact opset is checked when the node is emitted.
static_assert(valid<value, axes_i>("Squeeze") && valid<value, value>("Squeeze"));
static_assert(!valid<value, axes_1>("Squeeze"));

// Resize never had scales, roi or sizes as attributes, nor Slice steps: they are inputs, and
// the error says so (attribute_is_one_of_the_ops_inputs_not_an_attribute). Upsample had scales.
using scales_f = decltype("scales"_f = {2.0f});
static_assert(!valid<value, scales_f>("Resize") &&
              !valid<value, decltype("sizes"_i = {1})>("Resize"));
static_assert(!valid<value, decltype("steps"_i = {1})>("Slice"));
static_assert(valid<value, scales_f>("Upsample"));

// Enumerated string attributes: each op's values at each opset, as emission checks them.
static_assert(rx::onnx_attribute_value_valid("Resize", "mode", "cubic", 11));
static_assert(!rx::onnx_attribute_value_valid("Resize", "mode", "cubic", 10));  // from 11
static_assert(!rx::onnx_attribute_value_valid("Resize", "mode", "cubc", 17));
static_assert(!rx::onnx_attribute_value_valid("ai.onnx::Resize", "mode", "bilinear", 17));
static_assert(rx::onnx_attribute_value_valid("Resize", "coordinate_transformation_mode",
                                             "tf_half_pixel_for_nn", 12));
static_assert(!rx::onnx_attribute_value_valid("Resize", "coordinate_transformation_mode",
                                              "tf_half_pixel_for_nn", 13));
static_assert(rx::onnx_attribute_value_valid("Resize", "coordinate_transformation_mode",
                                             "tf_crop_and_resize", 17));
static_assert(rx::onnx_attribute_value_valid("Resize", "nearest_mode", "round_prefer_ceil", 17));
static_assert(rx::onnx_attribute_value_valid("Upsample", "mode", "bilinear", 6) &&
              !rx::onnx_attribute_value_valid("Upsample", "mode", "bilinear", 9));
static_assert(rx::onnx_attribute_value_valid("Pad", "mode", "edge", 17) &&
              !rx::onnx_attribute_value_valid("Pad", "mode", "wrap", 17));
static_assert(rx::onnx_attribute_value_valid("MaxPool", "auto_pad", "SAME_LOWER", 17) &&
              !rx::onnx_attribute_value_valid("MaxPool", "auto_pad", "SAME", 17) &&
              !rx::onnx_attribute_value_valid("QLinearConv", "auto_pad", "same_upper", 17));
static_assert(rx::onnx_attribute_value_valid("GridSample", "padding_mode", "reflection", 16));
static_assert(!rx::onnx_attribute_value_valid("GridSample", "mode", "linear", 16));
static_assert(!rx::onnx_attribute_value_valid("DepthToSpace", "mode", "RCD", 13));
static_assert(rx::onnx_attribute_value_valid("ScatterND", "reduction", "mul", 16) &&
              !rx::onnx_attribute_value_valid("ScatterND", "reduction", "max", 17));
static_assert(rx::onnx_attribute_value_valid("LSTM", "activations", "HardSigmoid", 14) &&
              !rx::onnx_attribute_value_valid("LSTM", "activations", "tanh", 14));
static_assert(!rx::onnx_attribute_value_valid("BitShift", "direction", "left", 11));
// Not enumerated, or not ONNX's: anything goes.
static_assert(rx::onnx_attribute_value_valid("Einsum", "equation", "ij->ji", 17));
static_assert(rx::onnx_attribute_value_valid("mmdeploy::Resize", "mode", "trilinear", 1));

// What a string literal is checked against at compile time: some op's value for that name.
static_assert(rx::onnx_attribute_value_known("mode", "reflect"));  // Pad's, not Resize's
static_assert(!rx::onnx_attribute_value_known("mode", "cubc"));
static_assert(!rx::onnx_attribute_value_known("auto_pad", "SAME"));
static_assert(rx::onnx_attribute_value_known("reduction", "max"));  // ScatterND's, opset 18
static_assert(rx::onnx_attribute_value_known("equation", "anything"));

// Domains: "ai.onnx" is the default domain, ai.onnx.ml ops are known, others need schemas.
static_assert(valid<value>("ai.onnx::Relu"));
static_assert(valid<value, decltype("keys_strings"_s = {"a"})>("ai.onnx.ml::LabelEncoder"));
static_assert(!valid<value>("custom::Relu"));

inline constexpr rx::attribute_schema plugin_attributes[] = {
    {"align_corners", rx::attr_type::int_}};
inline constexpr rx::op_schema plugin_ops[] = {
    {.domain = "mmdeploy",
     .name = "DynamicTRTResize",
     .min_inputs = 2,
     .max_inputs = 2,
     .attributes = plugin_attributes},
};
using plugin = rx::schemas<plugin_ops>;
static_assert(rx::op_call_valid<plugin, value, value, decltype("align_corners"_i = 0)>(
    "mmdeploy::DynamicTRTResize"));
static_assert(!rx::op_call_valid<plugin, value, value, decltype("align_corner"_i = 0)>(
    "mmdeploy::DynamicTRTResize"));
static_assert(!rx::op_call_valid<plugin, value>("mmdeploy::DynamicTRTResize"));
static_assert(!rx::op_call_valid<plugin, value, value>("mmdeploy::StaticResize"));

}  // namespace
