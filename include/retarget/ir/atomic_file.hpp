// A file that appears whole or not at all: written under a temporary name beside the target,
// flushed to disk, then renamed into place by commit(). Until then the target keeps its old
// contents; a file never committed is removed. Model files, tensor files and the tool's
// outputs are written this way.
//
//   retarget::ir::atomic_file out("report.txt");
//   out.write(text.data(), text.size());
//   out.commit();
#ifndef RETARGET_IR_ATOMIC_FILE_HPP
#define RETARGET_IR_ATOMIC_FILE_HPP

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <retarget/core/error.hpp>
#include <string>
#include <system_error>
#include <utility>

namespace retarget::ir {

class atomic_file {
 public:
  // Opens the temporary file; retarget::error "cannot write PATH: REASON" when it cannot.
  explicit atomic_file(std::filesystem::path target) : target_(std::move(target)) {
    // The pid and a counter keep two writers of one target, in one process or two, apart.
    static std::atomic<unsigned> counter{0};
    temporary_ = target_;
    temporary_ += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    file_ = std::fopen(temporary_.c_str(), "wb");
    if (!file_)
      throw error("retarget: cannot write " + target_.string() + ": " + std::strerror(errno));
  }
  atomic_file(const atomic_file&) = delete;
  atomic_file& operator=(const atomic_file&) = delete;
  ~atomic_file() {
    if (file_) std::fclose(file_);
    if (!committed_) std::filesystem::remove(temporary_, ignored_);
  }

  const std::filesystem::path& path() const noexcept { return target_; }
  void write(const void* data, std::size_t size) {
    if (size && std::fwrite(data, 1, size, file_) != size) fail("write");
  }
  // Flushes to disk, then renames: the target is either the old file or the whole new one.
  void commit() {
    finish();
    publish();
  }
  // The two halves of commit, for files that go together (a model and its external data): all
  // are finished before any is published, so a late write error replaces none of them.
  void finish() {
    if (std::fflush(file_) != 0) fail("flush");
    if (::fsync(::fileno(file_)) != 0) fail("sync");
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (closed != 0) fail("close");
  }
  void publish() {
    std::error_code ec;
    std::filesystem::rename(temporary_, target_, ec);
    if (ec) throw error("retarget: cannot write " + target_.string() + ": " + ec.message());
    committed_ = true;
  }

 private:
  [[noreturn]] void fail(const char* what) {
    throw error("retarget: cannot write " + target_.string() + " (" + what +
                " failed: " + std::strerror(errno) + ")");
  }

  std::filesystem::path target_, temporary_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
  std::error_code ignored_;
};

}  // namespace retarget::ir

#endif  // RETARGET_IR_ATOMIC_FILE_HPP
