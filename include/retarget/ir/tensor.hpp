// Tensor constants: the payload of Constant nodes, `_t` attributes and initializers.
//
//   auto scales = retarget::ir::tensor::of<float>({1, 1, 4, 4}, {4});
//   g.constant(retarget::ir::empty_f32);   // a 0-element float tensor, as Resize's roi
#ifndef RETARGET_IR_TENSOR_HPP
#define RETARGET_IR_TENSOR_HPP

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/deep_ptr.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::ir {

namespace detail {
class mapped_file;  // ir/detail/mapped_file.hpp, read by the definitions alone
}

class tensor {
 public:
  // An empty TensorProto: no type, no dims, no name. A copy copies the proto (a mapped tensor's
  // bytes stay mapped); a moved-from tensor may only be destroyed or assigned to.
  RETARGET_COMPILED_DECL tensor();
  RETARGET_COMPILED_DECL explicit tensor(onnx::TensorProto proto);
  RETARGET_COMPILED_DECL tensor(const tensor& other);
  RETARGET_COMPILED_DECL tensor(tensor&& other) noexcept;
  RETARGET_COMPILED_DECL tensor& operator=(const tensor& other);
  RETARGET_COMPILED_DECL tensor& operator=(tensor&& other) noexcept;
  RETARGET_COMPILED_DECL ~tensor();

  // Copies `bytes` (in the machine's order, which ONNX requires to be little-endian).
  RETARGET_COMPILED_DECL static tensor from_raw(dtype type, dims_t dims,
                                                std::span<const std::byte> bytes);

  template <class T>
  static tensor of(std::span<const T> values, dims_t dims) {
    static_assert(dtype_of<T> != dtype::undefined, "retarget: no ONNX element type for this type");
    if constexpr (std::is_same_v<T, std::string>) {
      return of_strings(values, std::move(dims));
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
  RETARGET_COMPILED_DECL static tensor empty(dtype type);
  // A tensor whose bytes are held by `owner` (a mapped external data file) and not copied:
  // `proto` describes them as external data, its entries naming the live mapping, so that
  // every reader of tensor data finds them (ir::raw_bytes) and a copy of the proto too.
  RETARGET_COMPILED_DECL static tensor mapped(onnx::TensorProto proto,
                                              std::span<const std::byte> bytes,
                                              std::shared_ptr<const detail::mapped_file> owner);

  RETARGET_COMPILED_DECL dtype type() const noexcept;
  // The name it has as an initializer or a folded constant ("" when none).
  RETARGET_COMPILED_DECL const std::string& name() const noexcept;
  RETARGET_COMPILED_DECL void set_name(std::string name);
  RETARGET_COMPILED_DECL dims_t dims() const;
  const onnx::TensorProto& proto() const noexcept { return *proto_; }
  onnx::TensorProto& proto() noexcept { return *proto_; }

  // Whether the bytes are raw data in memory, held here or mapped (not typed fields, not an
  // external file not read): only such a tensor can be shared by a model and streamed to a file.
  RETARGET_COMPILED_DECL bool has_raw_data() const noexcept;
  // Whether the bytes are a mapped file's (see mapped).
  bool is_mapped() const noexcept { return owner_ != nullptr; }
  // A mapped tensor's pages leave the process's memory, read again from the file when
  // touched (save does this once it has written them); nothing for another tensor.
  RETARGET_COMPILED_DECL void release_pages() const noexcept;
  // The raw bytes, held here or mapped; empty when the values are in typed fields.
  RETARGET_COMPILED_DECL std::span<const std::byte> raw_bytes() const;
  // The proto without its bytes: element type, dims, name, doc string, segment and data
  // location, each as set, so that the bytes put back as raw data make the proto it was (a
  // mapped tensor's bytes go back as raw data: its header says nothing of the mapping).
  RETARGET_COMPILED_DECL onnx::TensorProto header() const;

 private:
  // A copy of a mapped tensor's proto, made a tensor (a rule's new constant), holds its bytes:
  // the tensor may outlive the mapping, and a graph saves its own tensors as they are.
  RETARGET_COMPILED_DECL void hold_mapped_bytes();

  RETARGET_COMPILED_DECL static tensor of_strings(std::span<const std::string> values, dims_t dims);

  static void check_count(std::size_t n, const dims_t& dims) {
    if (static_cast<std::int64_t>(n) != element_count(dims))
      throw error("retarget: " + std::to_string(n) + " values do not fill dims of " +
                  std::to_string(element_count(dims)) + " elements");
  }

  detail::deep_ptr<onnx::TensorProto> proto_;
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

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/tensor_impl.hpp>
#endif

#endif  // RETARGET_IR_TENSOR_HPP
