// "Did you mean" suggestions: the known names nearest to an unknown one, ranked by their
// Levenshtein distance ignoring ASCII case. Every error about an unknown name uses them.
#ifndef RETARGET_CORE_CLOSEST_NAMES_HPP
#define RETARGET_CORE_CLOSEST_NAMES_HPP

#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace retarget {

namespace detail {
constexpr char ascii_lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c;
}
}  // namespace detail

inline std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = detail::ascii_lower(a[i - 1]) == detail::ascii_lower(b[j - 1]);
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The `count` candidates nearest to `name`, nearest first, ties in candidate order.
template <class Range>
std::vector<std::string_view> closest_names(std::string_view name, const Range& candidates,
                                            std::size_t count = 3) {
  std::vector<std::pair<std::size_t, std::string_view>> ranked;
  for (std::string_view c : candidates) ranked.emplace_back(edit_distance(name, c), c);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < ranked.size() && i < count; ++i) out.push_back(ranked[i].second);
  return out;
}

// "a, b, c" for an error message.
template <class Range>
std::string join_names(const Range& names) {
  std::string out;
  for (std::string_view n : names) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

}  // namespace retarget

#endif  // RETARGET_CORE_CLOSEST_NAMES_HPP
