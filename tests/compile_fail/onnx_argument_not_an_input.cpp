// g.op given a bare number, which is neither a value nor an attribute.
// expect: static assertion failed.*g\.op takes values, ranges of values, no_input and attributes after the op name
// page-section: The emitter
// page-title: An argument `g.op` does not take
// page-order: 100
// page-snippet:
// | g.op("LeakyRelu", x, 0.1f);   // a bare number
// page-meaning:
// | After the op name, `g.op` takes values, ranges of values, `no_input` and attributes. A bare
// | number is none of these.
// page-fix:
// | Make it an attribute (`"alpha"_f = 0.1f`) or a constant input
// | (`g.constant(rx::tensor::scalar(0.1f))`).
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("LeakyRelu", x, 0.1f);
#else
  return g.op("LeakyRelu", x, "alpha"_f = 0.1f);
#endif
}

int main() {}
