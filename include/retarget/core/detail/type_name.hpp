// The name of a type as a compile-time string_view, read from the compiler's signature of a
// function template. Used where a user gave no name (reports, diagnostics).
#ifndef RETARGET_CORE_DETAIL_TYPE_NAME_HPP
#define RETARGET_CORE_DETAIL_TYPE_NAME_HPP

#include <cstddef>
#include <string_view>

namespace retarget::detail {

template <class T>
constexpr std::string_view signature_of() noexcept {
  return __PRETTY_FUNCTION__;
}

// Both GCC and Clang print "... [with T = NAME]" or "... [T = NAME]"; the name runs to the
// closing bracket, or to the ';' GCC puts before the return type's own parameter.
template <class T>
constexpr std::string_view type_name() noexcept {
  constexpr std::string_view s = signature_of<T>();
  constexpr auto start = s.find("T = ") + 4;
  constexpr auto end = s.find_first_of(";]", start);
  return s.substr(start, end - start);
}

// Without its namespaces ("conv" for "{anonymous}::conv"), for names shown to people;
// template arguments keep theirs.
template <class T>
constexpr std::string_view unqualified_type_name() noexcept {
  constexpr std::string_view s = type_name<T>();
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] == '<' || s[i] == '(') ++depth;
    if (s[i] == '>' || s[i] == ')') --depth;
    if (depth == 0 && s[i] == ':' && s[i + 1] == ':') start = i + 2;
  }
  return s.substr(start);
}

}  // namespace retarget::detail

#endif  // RETARGET_CORE_DETAIL_TYPE_NAME_HPP
