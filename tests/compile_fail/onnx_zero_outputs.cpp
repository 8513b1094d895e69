// g.op<N> asked for zero outputs.
// expect: static assertion failed.*g\.op<N> needs N >= 1 outputs
// page-section: The emitter
// page-title: A zero-output `g.op<N>`
// page-order: 90
// page-snippet:
// | g.op<0>("Relu", x);
// page-meaning:
// | `g.op<N>` returns the first `N` outputs; zero is not a node.
// page-fix:
// | Use `g.op` (one output) or `g.op<N>` with `N >= 1`.
#include "onnx_common.hpp"

void emit(rx::graph& g, rx::value x) {
#ifdef RETARGET_COMPILE_FAIL
  g.op<0>("Relu", x);
#else
  g.op<1>("Relu", x);
#endif
}

int main() {}
