// An attribute given with the wrong kind: Resize's mode is a string.
// expect: attribute_kind_does_not_match_the_ops_schema|attribute kind does not match the op's schema
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, rx::no_input, scales, "mode"_f = 1.0f);
#else
  return g.op("Resize", x, rx::no_input, scales, "cubic_coeff_a"_f = 1.0f);
#endif
}

int main() {}
