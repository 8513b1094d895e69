// Tensor files: one ONNX TensorProto per file, as numpy_helper.from_array(a).SerializeToString()
// writes them and as the ONNX backend test data holds its inputs and outputs. Written
// atomically and deterministically, like model files.
//
//   auto x = retarget::ir::read_tensor_file("input_0.pb");
//   retarget::ir::write_tensor_file("output_0.pb", y);
#ifndef RETARGET_IR_TENSOR_FILE_HPP
#define RETARGET_IR_TENSOR_FILE_HPP

#include <filesystem>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/tensor.hpp>
#include <string>
#include <string_view>

namespace retarget::ir {

// The tensor in the file. retarget::error naming the file when it cannot be opened (with the
// system's reason), is empty, or is not a TensorProto (it does not parse, or gives no element
// type, which every tensor has).
RETARGET_COMPILED_DECL tensor read_tensor_file(const std::filesystem::path& path);

// Writes the tensor to the file atomically: a failed write leaves the previous file as it was.
RETARGET_COMPILED_DECL void write_tensor_file(const std::filesystem::path& path, const tensor& t);

// The tensor as the bytes of a TensorProto (what an engine in another process is sent); a
// mapped tensor's bytes go in as raw data.
RETARGET_COMPILED_DECL std::string tensor_to_bytes(const tensor& t);

// The tensor those bytes hold, or nullopt when they are not a TensorProto.
RETARGET_COMPILED_DECL std::optional<tensor> tensor_from_bytes(std::string_view bytes);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/tensor_file_impl.hpp>
#endif

#endif  // RETARGET_IR_TENSOR_FILE_HPP
