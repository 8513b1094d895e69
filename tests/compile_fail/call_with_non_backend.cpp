// retarget::call with a backend tag that is not a Backend.
// expect: static assertion failed.*backend tag is not a Backend
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
