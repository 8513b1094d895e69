// A node rewrite for an op type no ONNX schema has.
// expect: node_rewrite declared for an op type unknown to the ONNX schemas
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
