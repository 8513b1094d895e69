// An opset adapter for an op type no ONNX schema has.
// expect: opset_adapter declared for an op type unknown to the ONNX schemas
// page-section: Conversion rules
// page-title: An opset adapter for an op type no ONNX schema has
// page-order: 100
// page-snippet:
// | template <>
// | struct rc::opset_adapter<"HardSwich", 14, 13> { /* ... */ };
// page-meaning:
// | An `opset_adapter` names the op type it converts between two opsets; no opset of the default
// | domain has an op of that name. Nodes of other domains are left alone by opset conversion.
// page-fix:
// | Fix the op type (`"HardSwish"`) ([convert/opset](reference/convert/opset.md)).
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
