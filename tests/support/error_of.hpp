// The message of the retarget::error a call throws, for tests that check what an error says.
#ifndef RETARGET_TESTS_SUPPORT_ERROR_OF_HPP
#define RETARGET_TESTS_SUPPORT_ERROR_OF_HPP

#include <retarget/core/error.hpp>
#include <string>

namespace support {

// "no error" when f throws none. Any other exception escapes, so the test fails on it.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const retarget::error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace support

#endif  // RETARGET_TESTS_SUPPORT_ERROR_OF_HPP
