// An op name that no ONNX schema has.
// expect: onnx_op_name_is_unknown_to_the_onnx_schemas|ONNX op name is unknown to the ONNX schemas
// page-section: The emitter
// page-title: An unknown op
// page-order: 10
// page-snippet:
// | g.op("Resise", x);
// page-meaning:
// | No ONNX opset has an op of that name (in the standard domains: `""`, `ai.onnx`, `ai.onnx.ml`,
// | `ai.onnx.preview.training`).
// page-fix:
// | Fix the name (`Resize`). For an op of your own domain, write `"domain::Op"` and declare its
// | schema (next entry). For a name read at run time, use `retarget::runtime_op(name)`.
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resise", x);
#else
  return g.op("Relu", x);
#endif
}

int main() {}
