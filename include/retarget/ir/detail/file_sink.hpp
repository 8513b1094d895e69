// Protobuf's output streams, writing into an atomic_file.
#ifndef RETARGET_IR_DETAIL_FILE_SINK_HPP
#define RETARGET_IR_DETAIL_FILE_SINK_HPP

#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <cstddef>
#include <exception>
#include <retarget/ir/atomic_file.hpp>

namespace retarget::ir::detail {

// Protobuf's streams report failure by return value: the error is kept and thrown after.
struct file_sink : google::protobuf::io::CopyingOutputStream {
  atomic_file* file;
  std::exception_ptr failure;
  explicit file_sink(atomic_file& f) : file(&f) {}
  bool Write(const void* buffer, int size) override {
    try {
      file->write(buffer, static_cast<std::size_t>(size));
      return true;
    } catch (...) {
      failure = std::current_exception();
      return false;
    }
  }
};

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_FILE_SINK_HPP
