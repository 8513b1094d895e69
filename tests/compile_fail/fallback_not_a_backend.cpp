// A backend whose fallback is not a Backend.
// expect: static assertion failed.*backend fallback is not a Backend
// page-section: Backends
// page-title: A fallback that is not a Backend
// page-order: 20
// page-snippet:
// | struct edge : retarget::backend_tag<"edge", int> {};   // int is not a backend
// | retarget::call<edge>(scale, 1);
// page-meaning:
// | A type in a `backend_tag`'s fallback list lacks a static `name` or an `mp_list` `fallbacks`.
// page-fix:
// | List backend tags only: types derived from `retarget::backend_tag` (or with `name` and
// | `fallbacks` of their own).
#include "common.hpp"

#ifdef RETARGET_COMPILE_FAIL
struct edge : retarget::backend_tag<"edge", int> {};
#else
struct edge : retarget::backend_tag<"edge", bk::onnxruntime> {};
#endif

int main() { return retarget::call<edge>(scale, 1) == 2 ? 0 : 1; }
