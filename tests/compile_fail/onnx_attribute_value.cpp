// A string literal that no standard op takes for an attribute of that name: Resize's mode is
// nearest, linear or cubic (and no other op's mode is "cubc" either).
// expect: string_literal_is_not_a_value_onnx_defines_for_this_attribute_name|string literal is not a value ONNX defines for this attribute name
// page-section: The emitter
// page-title: A string literal that no op takes for that attribute
// page-order: 50
// page-snippet:
// | g.op("Resize", x, rx::no_input, scales, "mode"_s = "cubc");
// page-meaning:
// | The attribute's name is one that standard ops enumerate (`mode`, `auto_pad`,
// | `coordinate_transformation_mode`, `nearest_mode`, `padding_mode`, `reduction`, `direction`,
// | `activations`, `case_change_action`), and no op takes this value for it at any opset. The check
// | sits in the literal, which does not know the op: for `mode` it accepts the values of every op
// | with a `mode` (Pad's `reflect` passes for Resize here and is refused at emission); for
// | `auto_pad`, which every op spells alike, it is exact. Clang checks a literal inside `decltype`
// | too; g++ does not.
// page-fix:
// | Use one of the op's values (the emission error lists the closest: `retarget: Resize (opset 17):
// | attribute 'mode' = 'cubc' is not a value the op takes (closest: cubic, linear, nearest)`). A
// | custom op whose attribute shares such a name takes any value as a run-time string: `"mode"_s =
// | std::string_view("trilinear")`.
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, rx::no_input, scales, "mode"_s = "cubc");
#else
  return g.op("Resize", x, rx::no_input, scales, "mode"_s = "cubic");
#endif
}

int main() {}
