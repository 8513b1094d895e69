// A tensor of a C++ type that has no ONNX element type.
// expect: static assertion failed.*no ONNX element type for this type
// page-section: The emitter
// page-title: A tensor of a C++ type ONNX has no element type for
// page-order: 110
// page-snippet:
// | rx::tensor::of<char>({'a', 'b'}, {2});
// page-meaning:
// | `tensor::of<T>` needs `dtype_of<T>`: `float`, `double`, the fixed-width integers, `bool`,
// | `std::string`.
// page-fix:
// | Convert the values to one of those types (`std::uint8_t` for bytes), or build the tensor with
// | `tensor::from_raw(dtype, dims, bytes)`.
#include <cstdint>

#include "onnx_common.hpp"

int main() {
#ifdef RETARGET_COMPILE_FAIL
  const auto t = rx::tensor::of<char>({'a', 'b'}, {2});
#else
  const auto t = rx::tensor::of<std::uint8_t>({'a', 'b'}, {2});
#endif
  return t.type() == rx::dtype::u8 ? 0 : 1;
}
