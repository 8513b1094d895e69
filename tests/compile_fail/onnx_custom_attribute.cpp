// An attribute that the user's schema of a custom-domain op does not declare.
// expect: attribute_name_is_not_in_the_ops_schema|attribute name is not in the op's schema
// page-section: The emitter
// page-title: An attribute a custom op's schema does not declare
// page-order: 35
// page-snippet:
// | inline constexpr rx::attribute_schema resize_attributes[] = {
// |     {"align_corners", rx::attr_type::int_}};
// | g.op("mmdeploy::DynamicTRTResize", x, size, "align_corner"_i = 1);
// page-meaning:
// | The graph's `op_schema` for this custom-domain op lists its attributes, and this name is not
// | among them. It is the same check, and the same message, as for a standard op.
// page-fix:
// | Fix the name, or add the attribute to the `attributes` of the op's `op_schema`.
#include "onnx_common.hpp"

inline constexpr rx::attribute_schema resize_attributes[] = {
    {"align_corners", rx::attr_type::int_}};
inline constexpr rx::op_schema plugin_ops[] = {
    {.domain = "mmdeploy",
     .name = "DynamicTRTResize",
     .min_inputs = 2,
     .max_inputs = 2,
     .attributes = resize_attributes},
};
using plugin_graph = rx::basic_graph<rx::schemas<plugin_ops>>;

rx::value emit(plugin_graph& g, rx::value x, rx::value size) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("mmdeploy::DynamicTRTResize", x, size, "align_corner"_i = 1);
#else
  return g.op("mmdeploy::DynamicTRTResize", x, size, "align_corners"_i = 1);
#endif
}

int main() {}
