// Tensor constants: the payload of Constant nodes, `_t` attributes and initializers.
//
//   auto scales = retarget::ir::tensor::of<float>({1, 1, 4, 4}, {4});
//   g.constant(retarget::ir::empty_f32);   // a 0-element float tensor, as Resize's roi
#ifndef RETARGET_IR_TENSOR_HPP
#define RETARGET_IR_TENSOR_HPP

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <retarget/core/error.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace retarget::ir {

class tensor {
 public:
  tensor() = default;
  explicit tensor(onnx::TensorProto proto) : proto_(std::move(proto)) { hold_mapped_bytes(); }

  // Copies `bytes` (in the machine's order, which ONNX requires to be little-endian).
  static tensor from_raw(dtype type, dims_t dims, std::span<const std::byte> bytes) {
    const auto expected = static_cast<std::size_t>(element_count(dims)) * size_of(type);
    if (size_of(type) == 0 || bytes.size() != expected)
      throw error("retarget: tensor of " + std::string(to_string(type)) + " with " +
                  std::to_string(element_count(dims)) + " elements needs " +
                  std::to_string(expected) + " bytes, got " + std::to_string(bytes.size()));
    tensor t;
    t.proto_.set_data_type(static_cast<int>(type));
    for (auto d : dims) t.proto_.add_dims(d);
    t.proto_.set_raw_data(bytes.data(), bytes.size());
    return t;
  }

  template <class T>
  static tensor of(std::span<const T> values, dims_t dims) {
    static_assert(dtype_of<T> != dtype::undefined, "retarget: no ONNX element type for this type");
    if constexpr (std::is_same_v<T, std::string>) {
      check_count(values.size(), dims);
      tensor t;
      t.proto_.set_data_type(static_cast<int>(dtype::string));
      for (auto d : dims) t.proto_.add_dims(d);
      for (const auto& s : values) t.proto_.add_string_data(s);
      return t;
    } else if constexpr (std::is_same_v<T, bool>) {
      std::vector<std::uint8_t> bytes(values.begin(), values.end());
      return from_raw(dtype::boolean, std::move(dims), std::as_bytes(std::span(bytes)));
    } else {
      return from_raw(dtype_of<T>, std::move(dims), std::as_bytes(values));
    }
  }
  template <class T>
  static tensor of(std::initializer_list<T> values, dims_t dims) {
    return of(std::span<const T>(values.begin(), values.size()), std::move(dims));
  }
  template <class T>
  static tensor of(const std::vector<T>& values, dims_t dims) {
    return of(std::span<const T>(values.data(), values.size()), std::move(dims));
  }
  // A 1-D tensor of the values.
  template <class T>
  static tensor vector(std::initializer_list<T> values) {
    return of(values, {static_cast<std::int64_t>(values.size())});
  }
  template <class T>
  static tensor scalar(T value) {
    return of(std::span<const T>(&value, 1), {});
  }
  // No elements: shape [0].
  static tensor empty(dtype type) {
    tensor t;
    t.proto_.set_data_type(static_cast<int>(type));
    t.proto_.add_dims(0);
    return t;
  }
  // A tensor whose bytes are held by `owner` (a mapped external data file) and not copied:
  // `proto` describes them as external data, its entries naming the live mapping, so that
  // every reader of tensor data finds them (ir::raw_bytes) and a copy of the proto too.
  static tensor mapped(onnx::TensorProto proto, std::span<const std::byte> bytes,
                       std::shared_ptr<const detail::mapped_file> owner) {
    tensor t;
    t.proto_ = std::move(proto);
    t.mapped_ = bytes;
    t.owner_ = std::move(owner);
    return t;
  }

  dtype type() const noexcept { return static_cast<dtype>(proto_.data_type()); }
  // The name it has as an initializer or a folded constant ("" when none).
  const std::string& name() const noexcept { return proto_.name(); }
  void set_name(std::string name) { proto_.set_name(std::move(name)); }
  dims_t dims() const { return {proto_.dims().begin(), proto_.dims().end()}; }
  const onnx::TensorProto& proto() const noexcept { return proto_; }
  onnx::TensorProto& proto() noexcept { return proto_; }

  // Whether the bytes are raw data in memory, held here or mapped (not typed fields, not an
  // external file not read): only such a tensor can be shared by a model and streamed to a file.
  bool has_raw_data() const noexcept {
    return is_mapped() ||
           (!proto_.raw_data().empty() && proto_.data_location() != onnx::TensorProto::EXTERNAL);
  }
  // Whether the bytes are a mapped file's (see mapped).
  bool is_mapped() const noexcept { return owner_ != nullptr; }
  // A mapped tensor's pages leave the process's memory, read again from the file when
  // touched (save does this once it has written them); nothing for another tensor.
  void release_pages() const noexcept {
    if (owner_) owner_->release(mapped_);
  }
  // The raw bytes, held here or mapped; empty when the values are in typed fields.
  std::span<const std::byte> raw_bytes() const {
    if (is_mapped()) return mapped_;  // without the registry's lookup
    return ir::raw_bytes(proto_).value_or(std::span<const std::byte>{});
  }
  // The proto without its bytes: element type, dims, name, doc string, segment and data
  // location, each as set, so that the bytes put back as raw data make the proto it was (a
  // mapped tensor's bytes go back as raw data: its header says nothing of the mapping).
  onnx::TensorProto header() const {
    onnx::TensorProto h;
    if (proto_.has_data_type()) h.set_data_type(proto_.data_type());
    *h.mutable_dims() = proto_.dims();
    if (proto_.has_name()) h.set_name(proto_.name());
    if (proto_.has_doc_string()) h.set_doc_string(proto_.doc_string());
    if (proto_.has_segment()) *h.mutable_segment() = proto_.segment();
    if (proto_.has_data_location() && !is_mapped()) h.set_data_location(proto_.data_location());
    return h;
  }

 private:
  // A copy of a mapped tensor's proto, made a tensor (a rule's new constant), holds its bytes:
  // the tensor may outlive the mapping, and a graph saves its own tensors as they are.
  void hold_mapped_bytes() {
    if (proto_.data_location() != onnx::TensorProto::EXTERNAL) return;
    if (const auto bytes = detail::mapped_bytes(proto_)) {
      proto_.set_raw_data(bytes->data(), bytes->size());
      proto_.clear_external_data();
      proto_.clear_data_location();
    }
  }

  static void check_count(std::size_t n, const dims_t& dims) {
    if (static_cast<std::int64_t>(n) != element_count(dims))
      throw error("retarget: " + std::to_string(n) + " values do not fill dims of " +
                  std::to_string(element_count(dims)) + " elements");
  }

  onnx::TensorProto proto_;
  std::span<const std::byte> mapped_;  // a mapped tensor's bytes, held by owner_
  std::shared_ptr<const detail::mapped_file> owner_;
};

// An initializer of a graph or model that shares its bytes with a tensor held elsewhere (a
// module's parameter, or a loaded model's mapped external data) instead of holding a copy in
// the proto: the proto's entry at `index` carries the name, type and dims, and the bytes are
// `data`'s raw bytes. Weights thus reach a saved file straight from where they are kept.
struct shared_initializer {
  int index;
  std::shared_ptr<const tensor> data;
};

// Names an empty tensor of a type, for a Constant: g.constant(empty_f32).
struct empty_tensor {
  dtype type;
};
inline constexpr empty_tensor empty_f32{dtype::f32};
inline constexpr empty_tensor empty_i64{dtype::i64};

}  // namespace retarget::ir

#endif  // RETARGET_IR_TENSOR_HPP
