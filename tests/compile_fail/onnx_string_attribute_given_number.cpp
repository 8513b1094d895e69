// A string attribute literal given a number: "mode"_s takes a string.
// expect: static assertion failed.*string attribute \("name"_s\) is given a value that is not a string
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, rx::no_input, scales, "mode"_s = 3);
#else
  return g.op("Resize", x, rx::no_input, scales, "mode"_s = "linear");
#endif
}

int main() {}
