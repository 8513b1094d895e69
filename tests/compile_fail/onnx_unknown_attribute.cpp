// An attribute name that the op's schema does not have.
// expect: attribute_name_is_not_in_the_ops_schema|attribute name is not in the op's schema
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, rx::no_input, scales, "mdoe"_s = "cubic");
#else
  return g.op("Resize", x, rx::no_input, scales, "mode"_s = "cubic");
#endif
}

int main() {}
