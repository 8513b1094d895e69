// An opset adapter for an op type no ONNX schema has.
// expect: opset_adapter declared for an op type unknown to the ONNX schemas
#include <retarget/convert/opset.hpp>

#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
template <>
struct rc::opset_adapter<"HardSwich", 14, 13> {
#else
template <>
struct rc::opset_adapter<"HardSwish", 14, 13> {
#endif
  static rx::value call(rx::graph& g, const rc::node& n) { return n.emit_unchanged(g).front(); }
};

int main() {}
