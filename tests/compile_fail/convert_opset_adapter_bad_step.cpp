// An opset adapter for a step of more than one opset.
// expect: opset_adapter declared for a step that is not v -> v \+ 1 or v -> v - 1
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
