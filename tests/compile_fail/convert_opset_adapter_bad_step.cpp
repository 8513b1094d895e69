// An opset adapter for a step of more than one opset.
// expect: opset_adapter declared for a step that is not v -> v \+ 1 or v -> v - 1
// page-section: Conversion rules
// page-title: An opset adapter for a step of more than one opset
// page-order: 110
// page-snippet:
// | template <>
// | struct rc::opset_adapter<"Softplus", 17, 13> { /* ... */ };
// page-meaning:
// | Opset conversion walks one opset at a time, so an adapter converts a node from opset `v` to `v
// | + 1` or `v - 1`, both opsets the linked ONNX library knows.
// page-fix:
// | Write one adapter per step that changes the op (`<"Softplus", 14, 13>`); steps where the op
// | does not change need none.
#include <retarget/convert/opset.hpp>

#include "convert_common.hpp"

#ifdef RETARGET_COMPILE_FAIL
template <>
struct rc::opset_adapter<"Softplus", 17, 13> {
#else
template <>
struct rc::opset_adapter<"Softplus", 14, 13> {
#endif
  static rx::value call(rx::graph& g, const rc::node& n) { return n.emit_unchanged(g).front(); }
};

int main() {}
