// An attribute that is one of the op's inputs: Resize takes its scales as an input, never as an
// attribute.
// expect: attribute_is_one_of_the_ops_inputs_not_an_attribute|attribute is one of the op's inputs, not an attribute
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, rx::no_input, scales, "scales"_f = {1.0f, 1.0f, 2.0f, 2.0f});
#else
  return g.op("Resize", x, rx::no_input, scales);
#endif
}

int main() {}
