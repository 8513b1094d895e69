// The fallback chain of a type that is not a Backend.
// expect: static assertion failed.*backend tag is not a Backend \(it needs a static `name` and an mp_list `fallbacks`\)
// page-section: Backends
// page-title: The chain of a tag that is not a Backend
// page-order: 30
// page-snippet:
// | struct tensorrt_typo {};
// | boost::mp11::mp_size<retarget::fallback_chain_t<tensorrt_typo>>::value;
// page-meaning:
// | `fallback_chain_t<T>` (and everything built on it) was asked for a type that is not a backend.
// page-fix:
// | Pass a backend tag. `retarget::call<T>` checks the same thing first, with its own message (see
// | [Calls](#calls)).
#include "common.hpp"

struct tensorrt_typo {};  // no name, no fallbacks

#ifdef RETARGET_COMPILE_FAIL
using target = tensorrt_typo;
#else
using target = bk::tensorrt;
#endif

int main() { return boost::mp11::mp_size<retarget::fallback_chain_t<target>>::value > 0 ? 0 : 1; }
