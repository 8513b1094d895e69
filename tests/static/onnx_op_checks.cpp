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

using mode_s = decltype("mode"_s = "");
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
