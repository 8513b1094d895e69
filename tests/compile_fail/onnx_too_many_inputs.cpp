// A fifth input to Resize, which takes at most four.
// expect: op_is_given_more_inputs_than_its_schema_allows|op is given more inputs than its schema allows
// page-section: The emitter
// page-title: Too many inputs
// page-order: 70
// page-snippet:
// | g.op("Resize", x, roi, scales, rx::no_input, x);   // Resize takes at most four
// page-meaning:
// | More inputs (values and `no_input`s) than the schema allows in any opset.
// page-fix:
// | Drop the extra input; check the op's input order (`rx::no_input` marks a skipped optional
// | input).
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value roi, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, roi, scales, rx::no_input, x);
#else
  return g.op("Resize", x, roi, scales, rx::no_input);
#endif
}

int main() {}
