// The definitions of ir/tensor_values.hpp that read a TensorProto: inline header-only, compiled
// once into retarget::compiled otherwise.
#ifndef RETARGET_IR_DETAIL_TENSOR_VALUES_IMPL_HPP
#define RETARGET_IR_DETAIL_TENSOR_VALUES_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/mapped_file.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <span>
#include <string>
#include <system_error>

namespace retarget::ir {

namespace detail {

RETARGET_COMPILED_DECL std::optional<std::span<const std::byte>> mapped_bytes(
    const onnx::TensorProto& p) {
  const std::string* key = nullptr;
  std::uint64_t offset = 0, length = 0;
  const auto number = [](const std::string& text, std::uint64_t& n) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    return ec == std::errc() && end == text.data() + text.size();
  };
  bool has_length = false;
  for (const auto& e : p.external_data()) {
    if (e.key() == mapping_key)
      key = &e.value();
    else if (e.key() == "offset" && !number(e.value(), offset))
      return std::nullopt;
    else if (e.key() == "length" && !(has_length = number(e.value(), length)))
      return std::nullopt;
  }
  if (!key || !has_length) return std::nullopt;
  const auto file = mapped_file::find(*key);
  if (!file) return std::nullopt;
  const auto bytes = file->bytes();
  if (offset > bytes.size() || length > bytes.size() - offset) return std::nullopt;
  return bytes.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
}

RETARGET_COMPILED_DECL stored_elements stored_elements_of(const onnx::TensorProto& p) {
  stored_elements s;
  s.raw = raw_bytes(p);
  s.external = p.data_location() == onnx::TensorProto::EXTERNAL;
  s.name = p.name();
  s.type = static_cast<dtype>(p.data_type());
  const auto field = [](const auto& repeated) {
    return std::span(repeated.data(), static_cast<std::size_t>(repeated.size()));
  };
  s.float_data = field(p.float_data());
  s.double_data = field(p.double_data());
  s.int64_data = field(p.int64_data());
  s.uint64_data = field(p.uint64_data());
  s.int32_data = field(p.int32_data());
  return s;
}

}  // namespace detail

RETARGET_COMPILED_DECL std::optional<std::span<const std::byte>> raw_bytes(
    const onnx::TensorProto& p) {
  if (p.data_location() == onnx::TensorProto::EXTERNAL) return detail::mapped_bytes(p);
  if (!p.has_raw_data()) return std::nullopt;
  return std::as_bytes(std::span(p.raw_data().data(), p.raw_data().size()));
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_TENSOR_VALUES_IMPL_HPP
