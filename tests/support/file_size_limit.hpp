// A file size limit for tests of writes that fail: RLIMIT_FSIZE makes a write past the limit
// fail with EFBIG, as a full disk fails one with ENOSPC.
#ifndef RETARGET_TESTS_SUPPORT_FILE_SIZE_LIMIT_HPP
#define RETARGET_TESTS_SUPPORT_FILE_SIZE_LIMIT_HPP

#include <sys/resource.h>

#include <csignal>

namespace retarget_test {

// While alive, files this process writes cannot grow past `bytes` (writes past it fail with
// EFBIG instead of killing the process with SIGXFSZ).
class file_size_limit {
 public:
  explicit file_size_limit(rlim_t bytes) {
    ::getrlimit(RLIMIT_FSIZE, &old_);
    handler_ = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old_;
    small.rlim_cur = bytes;
    ok_ = ::setrlimit(RLIMIT_FSIZE, &small) == 0;
  }
  ~file_size_limit() {
    ::setrlimit(RLIMIT_FSIZE, &old_);
    std::signal(SIGXFSZ, handler_);
  }
  bool ok() const { return ok_; }

 private:
  struct rlimit old_ {};
  void (*handler_)(int) = nullptr;
  bool ok_ = false;
};

}  // namespace retarget_test

#endif  // RETARGET_TESTS_SUPPORT_FILE_SIZE_LIMIT_HPP
