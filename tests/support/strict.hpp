// Skips that strict mode turns into failures. A test skips where a part it needs is missing
// (ONNX Runtime, OpenCV, the ONNX backend test data); `scripts/dev test` installs every such
// part and sets RETARGET_STRICT=1, and there a skip fails, so that no test passes by not
// running. One right is the environment's, not an install's: mounting a filesystem. Strict
// mode lets that skip be only when the process truly lacks the right (CAP_SYS_ADMIN), and the
// skip says so. tests/support/skip.cmake applies the same rule to tests that are not programs.
//
//   if (!onnxruntime_here()) RETARGET_SKIP_MISSING("ONNX Runtime", check_env());  // a test
//   if (!mounted) RETARGET_SKIP_WITHOUT_MOUNT(why);
//   return retarget_test::skip_status("the ONNX backend test data", why);  // in a program
#ifndef RETARGET_TESTS_SUPPORT_STRICT_HPP
#define RETARGET_TESTS_SUPPORT_STRICT_HPP

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

namespace retarget_test {

// RETARGET_STRICT=1: a skip for a missing part is a failure.
inline bool strict_mode() {
  const char* s = std::getenv("RETARGET_STRICT");
  return s != nullptr && std::string_view(s) == "1";
}

// Whether this process holds CAP_SYS_ADMIN, the right to mount (root in a container may not).
inline bool can_mount() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with("CapEff:")) {
      const auto bits = std::stoull(line.substr(7), nullptr, 16);
      constexpr unsigned cap_sys_admin = 21;
      return (bits >> cap_sys_admin) & 1u;
    }
  return false;
}

// What a test that would skip for want of `part` reports in strict mode.
inline std::string strict_failure(std::string_view part, std::string_view why) {
  return "strict mode (RETARGET_STRICT=1) requires " + std::string(part) +
         ", which scripts/dev installs; this test would have skipped: " + std::string(why);
}

// What a mount-dependent test reports when it skips: in strict mode, why the skip is allowed.
inline std::string mount_skip(std::string_view why) {
  std::string out(why);
  if (strict_mode())
    out += " [strict mode allows this skip: this process lacks CAP_SYS_ADMIN, the right to mount]";
  return out;
}
inline std::string mount_failure(std::string_view why) {
  return "strict mode (RETARGET_STRICT=1): this process holds CAP_SYS_ADMIN, so the mount must "
         "work, yet: " +
         std::string(why);
}

// For a program ctest runs (SKIP_RETURN_CODE 77): prints why, and gives 77, or 1 in strict mode.
inline int skip_status(std::string_view part, std::string_view why) {
  if (strict_mode()) {
    std::cerr << strict_failure(part, why) << '\n';
    return 1;
  }
  std::cerr << "skipped: " << why << '\n';
  return 77;
}

}  // namespace retarget_test

// In a GoogleTest test (gtest.h included first), a statement that ends the test:
//   RETARGET_SKIP_MISSING(part, why)   skips for want of `part`; fails in strict mode.
//   RETARGET_SKIP_WITHOUT_MOUNT(why)   after a mount failed: skips where the process lacks the
//                                      right to mount (saying, in strict mode, that strict
//                                      mode allows it); fails in strict mode where it has it.
#ifdef GTEST_SKIP
namespace retarget_test {

inline void skip_or_fail(std::string_view part, const std::string& why) {
  if (strict_mode()) {
    ADD_FAILURE() << strict_failure(part, why);
    return;
  }
  GTEST_SKIP() << why;
}

inline void skip_or_fail_without_mount(const std::string& why) {
  if (strict_mode() && can_mount()) {
    ADD_FAILURE() << mount_failure(why);
    return;
  }
  GTEST_SKIP() << mount_skip(why);
}

}  // namespace retarget_test

#define RETARGET_SKIP_MISSING(part, why) return ::retarget_test::skip_or_fail((part), (why))
#define RETARGET_SKIP_WITHOUT_MOUNT(why) return ::retarget_test::skip_or_fail_without_mount(why)
#endif

#endif  // RETARGET_TESTS_SUPPORT_STRICT_HPP
