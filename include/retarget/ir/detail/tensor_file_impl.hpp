// The definitions of ir/tensor_file.hpp: inline header-only, compiled once into
// retarget::compiled otherwise (they parse and serialize with protobuf).
#ifndef RETARGET_IR_DETAIL_TENSOR_FILE_IMPL_HPP
#define RETARGET_IR_DETAIL_TENSOR_FILE_IMPL_HPP

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
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/atomic_file.hpp>
#include <retarget/ir/detail/file_sink.hpp>
#include <retarget/ir/detail/proto_file.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <string>
#include <string_view>
#include <utility>

namespace retarget::ir {

RETARGET_COMPILED_DECL tensor read_tensor_file(const std::filesystem::path& path) {
  onnx::TensorProto proto;
  if (!detail::read_proto_file(path, proto, "an ONNX TensorProto file") ||
      proto.data_type() == onnx::TensorProto_DataType_UNDEFINED)
    throw error("retarget: " + path.string() + " is not an ONNX TensorProto file");
  return tensor(std::move(proto));
}

RETARGET_COMPILED_DECL void write_tensor_file(const std::filesystem::path& path, const tensor& t) {
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

RETARGET_COMPILED_DECL std::string tensor_to_bytes(const tensor& t) {
  if (t.is_mapped()) return tensor(t.proto()).proto().SerializeAsString();
  return t.proto().SerializeAsString();
}

RETARGET_COMPILED_DECL std::optional<tensor> tensor_from_bytes(std::string_view bytes) {
  onnx::TensorProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) return std::nullopt;
  return tensor(std::move(proto));
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_TENSOR_FILE_IMPL_HPP
