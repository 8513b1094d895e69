// A fifth input to Resize, which takes at most four.
// expect: op_is_given_more_inputs_than_its_schema_allows|op is given more inputs than its schema allows
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value roi, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, roi, scales, rx::no_input, x);
#else
  return g.op("Resize", x, roi, scales, rx::no_input);
#endif
}

int main() {}
