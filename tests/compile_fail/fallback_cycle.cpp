// A fallback chain with a cycle: trt_a falls back to trt_b, which falls back to trt_a.
// expect: static assertion failed.*backend fallback chain has a cycle
#include "common.hpp"

struct trt_b;
struct trt_a : retarget::backend_tag<"trt_a", trt_b> {};
#ifdef RETARGET_COMPILE_FAIL
struct trt_b : retarget::backend_tag<"trt_b", trt_a> {};
#else
struct trt_b : retarget::backend_tag<"trt_b", bk::tensorrt> {};
#endif

int main() { return retarget::call<trt_a>(scale, 1) == 2 ? 0 : 1; }
