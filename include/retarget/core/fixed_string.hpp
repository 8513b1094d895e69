// A string literal usable as a template argument: the names of backends, rewritable
// functions, ops and table keys are compile-time values.
#ifndef RETARGET_CORE_FIXED_STRING_HPP
#define RETARGET_CORE_FIXED_STRING_HPP

#include <algorithm>
#include <cstddef>
#include <retarget/core/config.hpp>
#include <string_view>

namespace retarget {

template <std::size_t N>
struct fixed_string {
  // N counts the terminating '\0' of the literal it was made from.
  char chars[N]{};

  constexpr fixed_string(const char (&literal)[N]) noexcept {  // NOLINT: implicit on purpose
    std::copy_n(literal, N, chars);
  }

  // From a view of N - 1 characters known at compile time (a table's entry).
  constexpr explicit fixed_string(std::string_view view) noexcept {
    std::copy_n(view.data(), N - 1, chars);
  }

  static constexpr std::size_t size() noexcept { return N - 1; }
  constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
  constexpr operator std::string_view() const noexcept { return view(); }

  template <std::size_t M>
  friend constexpr bool operator==(const fixed_string& a, const fixed_string<M>& b) noexcept {
    return a.view() == b.view();
  }
};

}  // namespace retarget

#endif  // RETARGET_CORE_FIXED_STRING_HPP
