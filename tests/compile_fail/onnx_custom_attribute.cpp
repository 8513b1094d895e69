// An attribute that the user's schema of a custom-domain op does not declare.
// expect: attribute_name_is_not_in_the_ops_schema|attribute name is not in the op's schema
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
