// Conv with only its data input: the weights are required.
// expect: op_is_given_fewer_inputs_than_its_schema_requires|op is given fewer inputs than its schema requires
// page-section: The emitter
// page-title: Too few inputs
// page-order: 80
// page-snippet:
// | g.op("Conv", x);   // the weights are required
// page-meaning:
// | Fewer inputs than the schema requires. A range of values (a variadic input) turns this check
// | off, since its size is known only at run time.
// page-fix:
// | Pass the required inputs.
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
