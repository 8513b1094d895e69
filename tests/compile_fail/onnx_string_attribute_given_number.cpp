// A string attribute literal given a number: "mode"_s takes a string.
// expect: static assertion failed.*string attribute \("name"_s\) is given a value that is not a string
// page-section: The emitter
// page-title: A string attribute given a number
// page-order: 65
// page-snippet:
// | g.op("Resize", x, rx::no_input, scales, "mode"_s = 3);
// page-meaning:
// | A `_s` literal makes a STRING (or, from a list of strings, STRINGS) attribute; the value
// | is not a string.
// page-fix:
// | Give a string (`"mode"_s = "linear"`), or the suffix of the value's kind: `_i` for an
// | integer, `_f` for a float, `_t` for a tensor.
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, rx::no_input, scales, "mode"_s = 3);
#else
  return g.op("Resize", x, rx::no_input, scales, "mode"_s = "linear");
#endif
}

int main() {}
