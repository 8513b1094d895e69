// The one exception type retarget throws: its message names what was wrong and where.
#ifndef RETARGET_CORE_ERROR_HPP
#define RETARGET_CORE_ERROR_HPP

#include <exception>
#include <stdexcept>
#include <string>
#include <string_view>

namespace retarget {

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What an error says after its "retarget: ", for a caller that puts its own place first
// ("retarget: FILE: " + reason_of(e)).
inline std::string_view reason_of(const std::exception& e) noexcept {
  std::string_view what = e.what();
  if (what.starts_with("retarget: ")) what.remove_prefix(10);
  return what;
}

}  // namespace retarget

#endif  // RETARGET_CORE_ERROR_HPP
