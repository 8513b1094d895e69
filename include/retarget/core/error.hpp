// The one exception type retarget throws: its message names what was wrong and where.
#ifndef RETARGET_CORE_ERROR_HPP
#define RETARGET_CORE_ERROR_HPP

#include <stdexcept>
#include <string>

namespace retarget {

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace retarget

#endif  // RETARGET_CORE_ERROR_HPP
