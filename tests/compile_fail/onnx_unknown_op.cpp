// An op name that no ONNX schema has.
// expect: onnx_op_name_is_unknown_to_the_onnx_schemas|ONNX op name is unknown to the ONNX schemas
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resise", x);
#else
  return g.op("Relu", x);
#endif
}

int main() {}
