// Tensor files: one ONNX TensorProto per file, as numpy_helper.from_array(a).SerializeToString()
// writes them and as the ONNX backend test data holds its inputs and outputs. Written
// atomically and deterministically, like model files.
//
//   auto x = retarget::ir::read_tensor_file("input_0.pb");
//   retarget::ir::write_tensor_file("output_0.pb", y);
#ifndef RETARGET_IR_TENSOR_FILE_HPP
#define RETARGET_IR_TENSOR_FILE_HPP

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <onnx/onnx_pb.h>

#include <cerrno>
#include <climits>
#include <cstddef>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <optional>
#include <retarget/core/error.hpp>
#include <retarget/ir/atomic_file.hpp>
#include <retarget/ir/detail/file_sink.hpp>
#include <retarget/ir/detail/proto_file.hpp>
#include <retarget/ir/tensor.hpp>
#include <string>
#include <string_view>
#include <utility>

namespace retarget::ir {

// The tensor in the file. retarget::error naming the file when it cannot be opened (with the
// system's reason), is empty, or is not a TensorProto (it does not parse, or gives no element
// type, which every tensor has).
inline tensor read_tensor_file(const std::filesystem::path& path) {
  onnx::TensorProto proto;
  if (!detail::read_proto_file(path, proto, "an ONNX TensorProto file") ||
      proto.data_type() == onnx::TensorProto_DataType_UNDEFINED)
    throw error("retarget: " + path.string() + " is not an ONNX TensorProto file");
  return tensor(std::move(proto));
}

// Writes the tensor to the file atomically: a failed write leaves the previous file as it was.
inline void write_tensor_file(const std::filesystem::path& path, const tensor& t) {
  // A mapped tensor's proto names its bytes by a mapping of this process: the file gets them.
  if (t.is_mapped()) return write_tensor_file(path, tensor(t.proto()));
  if (std::filesystem::is_directory(path))
    throw error("retarget: cannot write " + path.string() + ": " + std::strerror(EISDIR));
  // Also caches the sizes that SerializeWithCachedSizes writes.
  if (t.proto().ByteSizeLong() >= (std::size_t{1} << 31))
    throw error("retarget: cannot write " + path.string() +
                ": a TensorProto of 2 GiB or more cannot be serialized");
  atomic_file out(path);
  detail::file_sink sink(out);
  {
    google::protobuf::io::CopyingOutputStreamAdaptor stream(&sink);
    {
      google::protobuf::io::CodedOutputStream coded(&stream);
      coded.SetSerializationDeterministic(true);
      t.proto().SerializeWithCachedSizes(&coded);
    }
    stream.Flush();
  }
  if (sink.failure) std::rethrow_exception(sink.failure);
  out.commit();
}

// The tensor as the bytes of a TensorProto (what an engine in another process is sent); a
// mapped tensor's bytes go in as raw data.
inline std::string tensor_to_bytes(const tensor& t) {
  if (t.is_mapped()) return tensor(t.proto()).proto().SerializeAsString();
  return t.proto().SerializeAsString();
}

// The tensor those bytes hold, or nullopt when they are not a TensorProto.
inline std::optional<tensor> tensor_from_bytes(std::string_view bytes) {
  onnx::TensorProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
  return tensor(std::move(proto));
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_TENSOR_FILE_HPP
