// Conv with only its data input: the weights are required.
// expect: op_is_given_fewer_inputs_than_its_schema_requires|op is given fewer inputs than its schema requires
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value w) {
#ifdef RETARGET_COMPILE_FAIL
  (void)w;
  return g.op("Conv", x);
#else
  return g.op("Conv", x, w);
#endif
}

int main() {}
