// retarget::call with a backend tag that is not a Backend.
// expect: static assertion failed.*backend tag is not a Backend
// page-section: Calls
// page-title: `retarget::call<T>` where `T` is not a Backend
// page-order: 10
// page-snippet:
// | struct onnxruntime_typo {   // no fallbacks
// |   static constexpr const char* name = "onnxruntime";
// | };
// | retarget::call<onnxruntime_typo>(scale, 1);
// page-meaning:
// | The backend named explicitly is not a backend tag.
// page-fix:
// | Use a backend tag (derive it from `retarget::backend_tag`).
#include "common.hpp"

struct onnxruntime_typo {
  static constexpr const char* name = "onnxruntime";  // but no fallbacks list
};

#ifdef RETARGET_COMPILE_FAIL
using target = onnxruntime_typo;
#else
using target = bk::onnxruntime;
#endif

int main() { return retarget::call<target>(scale, 1) == 2 ? 0 : 1; }
