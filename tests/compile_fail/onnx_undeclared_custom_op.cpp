// A custom-domain op with no declared schema.
// expect: custom_domain_op_has_no_declared_schema|custom-domain op has no declared schema
#include "onnx_common.hpp"

inline constexpr rx::op_schema plugin_ops[] = {{.domain = "mmdeploy", .name = "DynamicTRTResize"}};
using plugin_graph = rx::basic_graph<rx::schemas<plugin_ops>>;

rx::value emit(plugin_graph& g, rx::value x) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("mmdeploy::StaticTRTResize", x);
#else
  return g.op("mmdeploy::DynamicTRTResize", x);
#endif
}

int main() {}
