// An attribute name that the op's schema does not have.
// expect: attribute_name_is_not_in_the_ops_schema|attribute name is not in the op's schema
// page-section: The emitter
// page-title: An attribute the schema does not have
// page-order: 30
// page-snippet:
// | g.op("Resize", x, rx::no_input, scales, "mdoe"_s = "cubic");
// page-meaning:
// | No opset's schema of this op declares an attribute of that name. The same error comes for a
// | custom op whose `op_schema` does not declare the attribute
// | (`tests/compile_fail/onnx_custom_attribute.cpp`).
// page-fix:
// | Fix the name (`"mode"_s`); for a custom op, add it to the schema's `attributes`.
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, rx::no_input, scales, "mdoe"_s = "cubic");
#else
  return g.op("Resize", x, rx::no_input, scales, "mode"_s = "cubic");
#endif
}

int main() {}
