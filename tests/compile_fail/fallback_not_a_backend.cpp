// A backend whose fallback is not a Backend.
// expect: static assertion failed.*backend fallback is not a Backend
#include "common.hpp"

#ifdef RETARGET_COMPILE_FAIL
struct edge : retarget::backend_tag<"edge", int> {};
#else
struct edge : retarget::backend_tag<"edge", bk::onnxruntime> {};
#endif

int main() { return retarget::call<edge>(scale, 1) == 2 ? 0 : 1; }
