// A pattern whose op no ONNX schema has.
// expect: pattern op name is unknown to the ONNX schemas
#include "convert_common.hpp"

struct fuse : rc::rule<"fuse"> {
#ifdef RETARGET_COMPILE_FAIL
  static constexpr auto pattern = rc::op<"Reluu">("x"_v);
#else
  static constexpr auto pattern = rc::op<"Relu">("x"_v);
#endif
  static rx::value replace(rx::graph&, const auto& m) { return m["x"_v]; }
};

int main() { return static_cast<int>(rc::rule_set<fuse>::size) - 1; }
