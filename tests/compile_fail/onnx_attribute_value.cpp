// A string literal that no standard op takes for an attribute of that name: Resize's mode is
// nearest, linear or cubic (and no other op's mode is "cubc" either).
// expect: string_literal_is_not_a_value_onnx_defines_for_this_attribute_name|string literal is not a value ONNX defines for this attribute name
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, rx::no_input, scales, "mode"_s = "cubc");
#else
  return g.op("Resize", x, rx::no_input, scales, "mode"_s = "cubic");
#endif
}

int main() {}
