// A custom-domain op with no declared schema.
// expect: custom_domain_op_has_no_declared_schema|custom-domain op has no declared schema
// page-section: The emitter
// page-title: A custom-domain op without a declared schema
// page-order: 20
// page-snippet:
// | rx::basic_graph<rx::schemas<plugin_ops>> g;   // declares mmdeploy::DynamicTRTResize only
// | g.op("mmdeploy::StaticTRTResize", x);
// page-meaning:
// | The graph's schemas (its `Schemas` parameter) do not declare this `domain::Op`.
// page-fix:
// | Add an `op_schema` for it to the array the graph type names, or emit it through
// | `rx::graph_view<rx::schemas<your_ops>>(g).op(...)` ([ir/schema](reference/ir/schema.md)).
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
