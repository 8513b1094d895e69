// A fallback chain with a cycle: trt_a falls back to trt_b, which falls back to trt_a.
// expect: static assertion failed.*backend fallback chain has a cycle
// page-section: Backends
// page-title: A fallback chain with a cycle
// page-order: 10
// page-snippet:
// | struct trt_b;
// | struct trt_a : retarget::backend_tag<"trt_a", trt_b> {};
// | struct trt_b : retarget::backend_tag<"trt_b", trt_a> {};   // back to trt_a
// | retarget::call<trt_a>(scale, 1);
// page-meaning:
// | A backend falls back, directly or through others, to itself, so its fallback chain
// | (`fallback_chain_t`) has no end. The check runs where the chain is first needed: a call, or an
// | introspection query, for that backend.
// page-fix:
// | Make the fallbacks a tree: a backend lists only backends that are more general than itself
// | (`tensorrt10` → `tensorrt`). The default backend is always last on its own; never list it.
#include "common.hpp"

struct trt_b;
struct trt_a : retarget::backend_tag<"trt_a", trt_b> {};
#ifdef RETARGET_COMPILE_FAIL
struct trt_b : retarget::backend_tag<"trt_b", trt_a> {};
#else
struct trt_b : retarget::backend_tag<"trt_b", bk::tensorrt> {};
#endif

int main() { return retarget::call<trt_a>(scale, 1) == 2 ? 0 : 1; }
