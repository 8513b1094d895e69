// The definitions of ir/tensor.hpp: inline header-only, compiled once into retarget::compiled
// otherwise.
#ifndef RETARGET_IR_DETAIL_TENSOR_IMPL_HPP
#define RETARGET_IR_DETAIL_TENSOR_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <memory>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/deep_ptr_impl.hpp>
#include <retarget/ir/detail/mapped_file.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <span>
#include <string>
#include <utility>

namespace retarget::ir {

RETARGET_COMPILED_DECL tensor::tensor() = default;

RETARGET_COMPILED_DECL tensor::tensor(onnx::TensorProto proto) : proto_(std::move(proto)) {
  hold_mapped_bytes();
}

RETARGET_COMPILED_DECL tensor::tensor(const tensor& other) = default;

RETARGET_COMPILED_DECL tensor::tensor(tensor&& other) noexcept = default;

// Through a copy, so that a failed copy leaves the proto and its mapping as they were.
RETARGET_COMPILED_DECL tensor& tensor::operator=(const tensor& other) {
  if (this != &other) *this = tensor(other);
  return *this;
}

RETARGET_COMPILED_DECL tensor& tensor::operator=(tensor&& other) noexcept = default;

RETARGET_COMPILED_DECL tensor::~tensor() = default;

RETARGET_COMPILED_DECL tensor tensor::from_raw(dtype type, dims_t dims,
                                               std::span<const std::byte> bytes) {
  const auto expected = static_cast<std::size_t>(element_count(dims)) * size_of(type);
  if (size_of(type) == 0 || bytes.size() != expected)
    throw error("retarget: tensor of " + std::string(to_string(type)) + " with " +
                std::to_string(element_count(dims)) + " elements needs " +
                std::to_string(expected) + " bytes, got " + std::to_string(bytes.size()));
  tensor t;
  auto& p = t.proto();
  p.set_data_type(static_cast<int>(type));
  for (auto d : dims) p.add_dims(d);
  p.set_raw_data(bytes.data(), bytes.size());
  return t;
}

RETARGET_COMPILED_DECL tensor tensor::of_strings(std::span<const std::string> values, dims_t dims) {
  check_count(values.size(), dims);
  tensor t;
  auto& p = t.proto();
  p.set_data_type(static_cast<int>(dtype::string));
  for (auto d : dims) p.add_dims(d);
  for (const auto& s : values) p.add_string_data(s);
  return t;
}

RETARGET_COMPILED_DECL tensor tensor::empty(dtype type) {
  tensor t;
  auto& p = t.proto();
  p.set_data_type(static_cast<int>(type));
  p.add_dims(0);
  return t;
}

RETARGET_COMPILED_DECL tensor tensor::mapped(onnx::TensorProto proto,
                                             std::span<const std::byte> bytes,
                                             std::shared_ptr<const detail::mapped_file> owner) {
  tensor t;
  *t.proto_ = std::move(proto);
  t.mapped_ = bytes;
  t.owner_ = std::move(owner);
  return t;
}

RETARGET_COMPILED_DECL dtype tensor::type() const noexcept {
  return static_cast<dtype>(proto().data_type());
}

RETARGET_COMPILED_DECL const std::string& tensor::name() const noexcept { return proto().name(); }

RETARGET_COMPILED_DECL void tensor::set_name(std::string name) {
  proto().set_name(std::move(name));
}

RETARGET_COMPILED_DECL dims_t tensor::dims() const {
  const auto& p = proto();
  return {p.dims().begin(), p.dims().end()};
}

RETARGET_COMPILED_DECL void tensor::release_pages() const noexcept {
  if (owner_) owner_->release(mapped_);
}

RETARGET_COMPILED_DECL bool tensor::has_raw_data() const noexcept {
  const auto& p = proto();
  return is_mapped() || (!p.raw_data().empty() && p.data_location() != onnx::TensorProto::EXTERNAL);
}

RETARGET_COMPILED_DECL std::span<const std::byte> tensor::raw_bytes() const {
  if (is_mapped()) return mapped_;  // without the registry's lookup
  return ir::raw_bytes(proto()).value_or(std::span<const std::byte>{});
}

RETARGET_COMPILED_DECL onnx::TensorProto tensor::header() const {
  const auto& p = proto();
  onnx::TensorProto h;
  if (p.has_data_type()) h.set_data_type(p.data_type());
  *h.mutable_dims() = p.dims();
  if (p.has_name()) h.set_name(p.name());
  if (p.has_doc_string()) h.set_doc_string(p.doc_string());
  if (p.has_segment()) *h.mutable_segment() = p.segment();
  if (p.has_data_location() && !is_mapped()) h.set_data_location(p.data_location());
  return h;
}

RETARGET_COMPILED_DECL void tensor::hold_mapped_bytes() {
  auto& p = proto();
  if (p.data_location() != onnx::TensorProto::EXTERNAL) return;
  if (const auto bytes = detail::mapped_bytes(p)) {
    p.set_raw_data(bytes->data(), bytes->size());
    p.clear_external_data();
    p.clear_data_location();
  }
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_TENSOR_IMPL_HPP
