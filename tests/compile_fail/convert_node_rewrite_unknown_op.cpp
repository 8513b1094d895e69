// A node rewrite for an op type no ONNX schema has.
// expect: node_rewrite declared for an op type unknown to the ONNX schemas
// page-section: Conversion rules
// page-title: A node rewrite for an op type no ONNX schema has
// page-order: 10
// page-snippet:
// | template <>
// | struct rc::node_rewrite<"LayerNorm", my_engine> { /* ... */ };   // LayerNormalization
// page-meaning:
// | A `node_rewrite` names the op type of the nodes it rewrites; no opset of the default domain has
// | an op of that name, so it could never run. Nodes of other domains are emitted unchanged and
// | take no node rewrite.
// page-fix:
// | Fix the op type (`"LayerNormalization"`)
// | ([convert/node_rewrite](reference/convert/node_rewrite.md)).
#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
template <>
struct rc::node_rewrite<"LayerNorm", my_engine> {
#else
template <>
struct rc::node_rewrite<"LayerNormalization", my_engine> {
#endif
  static auto call(const auto& ctx, rx::graph& g, const rc::node& n) { return ctx.origin(g, n); }
};

int main() {}
