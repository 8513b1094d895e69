// Element types of ONNX tensors, numbered as TensorProto::DataType numbers them, so a dtype and
// a proto's data_type convert by static_cast (ir/detail/dtype_impl.hpp checks the numbers
// against ONNX's). Printed as "float32", "int64", "bool".
#ifndef RETARGET_IR_DTYPE_HPP
#define RETARGET_IR_DTYPE_HPP

#include <cstddef>
#include <cstdint>
#include <retarget/core/config.hpp>
#include <string>
#include <string_view>
#include <type_traits>

// retarget::onnx is now retarget::ir (docs/migrating.md). A namespace of that name would hide
// ONNX's own ::onnx inside namespace retarget; an object of that name does not (a name before
// :: is looked up among namespaces and types only), and it stops the compilers from suggesting
// another namespace (retarget::nn) for a retarget::onnx written from memory.
namespace retarget {
struct onnx_was_renamed_retarget_ir_see_docs_migrating_md {};
inline constexpr onnx_was_renamed_retarget_ir_see_docs_migrating_md onnx{};
}  // namespace retarget

namespace retarget::ir {

enum class dtype : int {
  undefined = 0,
  f32 = 1,
  u8 = 2,
  i8 = 3,
  u16 = 4,
  i16 = 5,
  i32 = 6,
  i64 = 7,
  string = 8,
  boolean = 9,
  f16 = 10,
  f64 = 11,
  u32 = 12,
  u64 = 13,
  c64 = 14,
  c128 = 15,
  bf16 = 16,
};

// The names are numpy's (and PyTorch's), not the enumerators' nor TensorProto's ("FLOAT"), so
// they are written out here.
constexpr std::string_view to_string(dtype t) noexcept {
  switch (t) {
    case dtype::undefined:
      return "undefined";
    case dtype::f32:
      return "float32";
    case dtype::u8:
      return "uint8";
    case dtype::i8:
      return "int8";
    case dtype::u16:
      return "uint16";
    case dtype::i16:
      return "int16";
    case dtype::i32:
      return "int32";
    case dtype::i64:
      return "int64";
    case dtype::string:
      return "string";
    case dtype::boolean:
      return "bool";
    case dtype::f16:
      return "float16";
    case dtype::f64:
      return "float64";
    case dtype::u32:
      return "uint32";
    case dtype::u64:
      return "uint64";
    case dtype::c64:
      return "complex64";
    case dtype::c128:
      return "complex128";
    case dtype::bf16:
      return "bfloat16";
  }
  return "unknown";
}

// Bytes per element; 0 for strings and undefined.
constexpr std::size_t size_of(dtype t) noexcept {
  switch (t) {
    case dtype::u8:
    case dtype::i8:
    case dtype::boolean:
      return 1;
    case dtype::u16:
    case dtype::i16:
    case dtype::f16:
    case dtype::bf16:
      return 2;
    case dtype::f32:
    case dtype::i32:
    case dtype::u32:
      return 4;
    case dtype::f64:
    case dtype::i64:
    case dtype::u64:
    case dtype::c64:
      return 8;
    case dtype::c128:
      return 16;
    default:
      return 0;
  }
}

template <class T>
inline constexpr dtype dtype_of = dtype::undefined;
template <>
inline constexpr dtype dtype_of<float> = dtype::f32;
template <>
inline constexpr dtype dtype_of<double> = dtype::f64;
template <>
inline constexpr dtype dtype_of<std::int8_t> = dtype::i8;
template <>
inline constexpr dtype dtype_of<std::int16_t> = dtype::i16;
template <>
inline constexpr dtype dtype_of<std::int32_t> = dtype::i32;
template <>
inline constexpr dtype dtype_of<std::int64_t> = dtype::i64;
template <>
inline constexpr dtype dtype_of<std::uint8_t> = dtype::u8;
template <>
inline constexpr dtype dtype_of<std::uint16_t> = dtype::u16;
template <>
inline constexpr dtype dtype_of<std::uint32_t> = dtype::u32;
template <>
inline constexpr dtype dtype_of<std::uint64_t> = dtype::u64;
template <>
inline constexpr dtype dtype_of<bool> = dtype::boolean;
template <>
inline constexpr dtype dtype_of<std::string> = dtype::string;

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/dtype_impl.hpp>
#endif

#endif  // RETARGET_IR_DTYPE_HPP
