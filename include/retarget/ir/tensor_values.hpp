// The elements of a TensorProto, whichever way it stores them: raw_data (little-endian, as ONNX
// writes it), the typed field of its element type, or the mapped external data file of a model
// that load() mapped. The one decoder of tensor data.
//
//   std::vector<std::int64_t> shape = retarget::ir::values_of<std::int64_t>(t);
//   retarget::ir::visit_element_type(type, [&]<class T>(std::type_identity<T>) { ... });
#ifndef RETARGET_IR_TENSOR_VALUES_HPP
#define RETARGET_IR_TENSOR_VALUES_HPP

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <retarget/ir/dtype.hpp>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace retarget::ir {

namespace detail {

template <class T>
inline constexpr bool is_element_storage =
    std::is_arithmetic_v<T>&& dtype_of<std::remove_cv_t<T>> != dtype::undefined;

// The key under which a tensor's external data entries name the live mapping of its file.
inline constexpr const char* mapping_key = "retarget.mapping";

// Where a TensorProto keeps its elements, read out of it once, so that the templates below
// that decode them by element type touch no message: the raw bytes when there are some (held
// or mapped), else the typed fields. Valid while the proto lives and is not changed.
struct stored_elements {
  std::optional<std::span<const std::byte>> raw;
  bool external = false;  // the data location is an external file (mapped or not)
  std::string_view name;
  dtype type = dtype::undefined;
  std::span<const float> float_data;
  std::span<const double> double_data;
  std::span<const std::int64_t> int64_data;
  std::span<const std::uint64_t> uint64_data;
  std::span<const std::int32_t> int32_data;
};

RETARGET_COMPILED_DECL stored_elements stored_elements_of(const onnx::TensorProto& p);

// The typed field that holds elements of type T when raw_data does not: ONNX keeps the narrow
// integers, bool and the bits of float16 and bfloat16 in int32_data, uint32 in uint64_data.
template <class T>
auto typed_field(const stored_elements& s) {
  if constexpr (std::is_same_v<T, float>)
    return s.float_data;
  else if constexpr (std::is_same_v<T, double>)
    return s.double_data;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return s.int64_data;
  else if constexpr (std::is_same_v<T, std::uint64_t> || std::is_same_v<T, std::uint32_t>)
    return s.uint64_data;
  else
    return s.int32_data;
}

// The bytes of an external tensor whose entries name a live mapping, or nullopt.
RETARGET_COMPILED_DECL std::optional<std::span<const std::byte>> mapped_bytes(
    const onnx::TensorProto& p);

}  // namespace detail

// The raw bytes of a tensor wherever they are: its raw_data, or the part of a mapped external
// data file that a tensor of a loaded model (or a copy of its proto) names, valid while that
// model lives. nullopt for values in a typed field and for external data not in memory.
RETARGET_COMPILED_DECL std::optional<std::span<const std::byte>> raw_bytes(
    const onnx::TensorProto& p);

// How many elements of type T the tensor stores (raw bytes / sizeof(T), rounded down, or the
// typed field's size), whatever its dims say.
template <class T>
std::size_t stored_count(const onnx::TensorProto& p) {
  static_assert(detail::is_element_storage<T>, "retarget: T must be a numeric element type");
  const auto s = detail::stored_elements_of(p);
  return s.raw ? s.raw->size() / sizeof(T) : detail::typed_field<T>(s).size();
}

// Calls f(v) for each stored element, in order, as a T: the C++ type of the tensor's element
// type (dtype_of<T>), or std::uint16_t for the bits of float16 and bfloat16. A bool is true for
// any non-zero byte. retarget::error for data in an external file not mapped (load the model
// with its data first) and for raw data that is not a whole number of elements.
template <class T, class F>
void for_each_value(const onnx::TensorProto& p, F&& f) {
  static_assert(detail::is_element_storage<T>, "retarget: T must be a numeric element type");
  const auto s = detail::stored_elements_of(p);
  if (!s.raw && s.external)
    throw error("retarget: tensor '" + std::string(s.name) +
                "' has its data in an external file, not in memory");
  if (!s.raw) {
    for (auto v : detail::typed_field<T>(s)) {
      if constexpr (std::is_same_v<T, bool>)
        f(v != 0);
      else
        f(static_cast<T>(v));
    }
    return;
  }
  const auto bytes = *s.raw;
  if (bytes.size() % sizeof(T) != 0)
    throw error("retarget: tensor '" + std::string(s.name) + "' has " +
                std::to_string(bytes.size()) + " bytes of data, not a whole number of " +
                std::string(to_string(s.type)) + " elements");
  for (std::size_t i = 0; i < bytes.size(); i += sizeof(T)) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, bytes.data() + i, sizeof(T));
    if constexpr (std::endian::native == std::endian::big) std::reverse(b, b + sizeof(T));
    if constexpr (std::is_same_v<T, bool>) {
      f(b[0] != 0);
    } else {
      T v;
      std::memcpy(&v, b, sizeof(T));
      f(v);
    }
  }
}

// The stored elements as a vector of T (see for_each_value).
template <class T>
std::vector<T> values_of(const onnx::TensorProto& p) {
  std::vector<T> out;
  out.reserve(stored_count<T>(p));
  for_each_value<T>(p, [&](T v) { out.push_back(v); });
  return out;
}

// Calls f(std::type_identity<T>{}) with T the type for_each_value reads elements of `type` as
// (std::uint16_t for float16 and bfloat16, whose bits it gives); retarget::error for strings,
// complex numbers and undefined.
template <class F>
decltype(auto) visit_element_type(dtype type, F&& f) {
  switch (type) {
    case dtype::f32:
      return f(std::type_identity<float>{});
    case dtype::f64:
      return f(std::type_identity<double>{});
    case dtype::i64:
      return f(std::type_identity<std::int64_t>{});
    case dtype::i32:
      return f(std::type_identity<std::int32_t>{});
    case dtype::i16:
      return f(std::type_identity<std::int16_t>{});
    case dtype::i8:
      return f(std::type_identity<std::int8_t>{});
    case dtype::u64:
      return f(std::type_identity<std::uint64_t>{});
    case dtype::u32:
      return f(std::type_identity<std::uint32_t>{});
    case dtype::u16:
    case dtype::f16:
    case dtype::bf16:
      return f(std::type_identity<std::uint16_t>{});
    case dtype::u8:
      return f(std::type_identity<std::uint8_t>{});
    case dtype::boolean:
      return f(std::type_identity<bool>{});
    default:
      throw error("retarget: no numeric values for a tensor of " + std::string(to_string(type)));
  }
}

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/tensor_values_impl.hpp>
#endif

#endif  // RETARGET_IR_TENSOR_VALUES_HPP
