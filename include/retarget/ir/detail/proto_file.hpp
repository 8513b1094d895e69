// Reading one protobuf message from a file, for model and tensor files alike: a folder, a file
// that cannot be opened and an empty file (which would parse as a message with nothing set)
// are refused by name, and messages up to 2 GiB parse.
#ifndef RETARGET_IR_DETAIL_PROTO_FILE_HPP
#define RETARGET_IR_DETAIL_PROTO_FILE_HPP

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/message.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <retarget/core/error.hpp>
#include <string>
#include <string_view>
#include <system_error>

namespace retarget::ir::detail {

// False when the bytes are not one whole `message`; the caller says what it expected. `kind`
// ("an ONNX model") completes the errors: "PATH is an empty file, not an ONNX model".
inline bool read_proto_file(const std::filesystem::path& path, google::protobuf::Message& message,
                            std::string_view kind) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw error("retarget: " + path.string() + " is a folder, not " + std::string(kind));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw error("retarget: cannot open " + path.string() + ": " + std::strerror(errno));
  if (in.peek() == std::char_traits<char>::eof())
    throw error("retarget: " + path.string() + " is an empty file, not " + std::string(kind));
  google::protobuf::io::IstreamInputStream stream(&in);
  google::protobuf::io::CodedInputStream coded(&stream);
  coded.SetTotalBytesLimit(INT_MAX);
  return message.ParseFromCodedStream(&coded) && coded.ConsumedEntireMessage();
}

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_PROTO_FILE_HPP
