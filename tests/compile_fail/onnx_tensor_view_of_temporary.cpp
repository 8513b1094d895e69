// A view of a temporary tensor, which would dangle once the statement ends.
// expect: use of deleted function .*tensor_view::tensor_view\(const retarget::ir::tensor&&\)|call to deleted constructor of .*tensor_view
// page-section: The emitter
// page-title: A `tensor_view` of a temporary `tensor`
// page-order: 115
// page-snippet:
// | rx::tensor_view v(rx::tensor::scalar(1.f));
// page-meaning:
// | A `tensor_view` reads a tensor where it is stored and owns nothing: the temporary is gone at
// | the end of the statement, and the view would read freed memory. Its constructor from a
// | `const tensor&&` is deleted for that reason.
// page-fix:
// | Keep the tensor in a variable that outlives the view (`const auto t =
// | rx::tensor::scalar(1.f); rx::tensor_view v(t);`), or view it where it is stored (an
// | initializer, an attribute's `t()`). A function that takes a `tensor_view` is given the
// | variable, not the call that makes the tensor.
#include "onnx_common.hpp"

int main() {
#ifdef RETARGET_COMPILE_FAIL
  const rx::tensor_view v(rx::tensor::scalar(1.f));
#else
  const auto t = rx::tensor::scalar(1.f);
  const rx::tensor_view v(t);
#endif
  return v.type() == rx::dtype::f32 ? 0 : 1;
}
