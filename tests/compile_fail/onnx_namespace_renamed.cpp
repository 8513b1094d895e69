// The emitter's old namespace, written from memory: retarget::onnx is now retarget::ir. g++
// suggested retarget::nn here; it no longer points away from the rename.
// expect: onnx[^ ]* is not a namespace-name$|no namespace named 'onnx' in namespace 'retarget'
// page-section: The emitter
// page-title: retarget::onnx, the emitter's old namespace
// page-order: 1
// page-snippet:
// | namespace rx = retarget::onnx;
// page-meaning:
// | The emitter's namespace is `retarget::ir` (the headers are `<retarget/ir.hpp>` and
// | `<retarget/ir/X.hpp>`); `onnx::` alone is ONNX's own protobuf classes. A namespace named
// | `retarget::onnx` would hide `::onnx` inside namespace `retarget`, so the old name is an
// | object, not a namespace: compilers say it is not a namespace, and clang's note on a
// | `retarget::onnx::X` shows its declaration,
// | `onnx_was_renamed_retarget_ir_see_docs_migrating_md onnx`.
// page-fix:
// | Write `retarget::ir` (`namespace rx = retarget::ir;`); every rename is in
// | [migrating.md](migrating.md).
#include <retarget/ir.hpp>

#ifdef RETARGET_COMPILE_FAIL
namespace rx = retarget::onnx;
#else
namespace rx = retarget::ir;
#endif

int main() {}
