// An op name that no ONNX schema has, given as a template argument.
// expect: onnx_op_name_is_unknown_to_the_onnx_schemas|ONNX op name is unknown to the ONNX schemas
// page-section: The emitter
// page-title: An unknown op named by a template argument
// page-order: 95
// page-snippet:
// | template <retarget::fixed_string Op>
// | rx::value over_last_axis(rx::graph& g, rx::value x) { return g.op<Op>(x, "axis"_i = -1); }
// | over_last_axis<"Sofmax">(g, x);
// page-meaning:
// | `g.op<"Name">` checks its name as `g.op("Name", ...)` does, when the call is instantiated: no
// | ONNX opset has an op of that name. The error points into retarget's headers; the instantiation
// | notes that follow lead to the name.
// page-fix:
// | Fix the name (`Softmax`) where the template argument is written.
#include "onnx_common.hpp"

template <retarget::fixed_string Op>
rx::value over_last_axis(rx::graph& g, rx::value x) {
  return g.op<Op>(x, "axis"_i = -1);
}

rx::value emit(rx::graph& g, rx::value x) {
#ifdef RETARGET_COMPILE_FAIL
  return over_last_axis<"Sofmax">(g, x);
#else
  return over_last_axis<"Softmax">(g, x);
#endif
}

int main() {}
