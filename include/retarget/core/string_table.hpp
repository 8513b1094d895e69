// A string-keyed table materialized at compile time from a list of mappings: for converters
// that read op or layer names from a file. No registration at static-initialization time; a
// duplicate name does not compile; an unknown name is an error that lists the closest ones.
//
//   constexpr auto layers = retarget::make_string_table<
//       retarget::entry<"Conv", &convert_conv>, retarget::entry<"Relu", &convert_relu>>();
//   layers.at("Relu")(...);
#ifndef RETARGET_CORE_STRING_TABLE_HPP
#define RETARGET_CORE_STRING_TABLE_HPP

#include <algorithm>
#include <array>
#include <boost/mp11/list.hpp>
#include <cstddef>
#include <retarget/core/closest_names.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/fixed_string.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget {

// One mapping: a name and a compile-time value (a function pointer, an enumerator, ...).
// Any type with static constexpr `name` and `value` members serves as well.
template <fixed_string Name, auto Value>
struct entry {
  static constexpr std::string_view name = Name;
  static constexpr auto value = Value;
};

template <class V, std::size_t N>
class string_table {
 public:
  using value_type = V;
  using slot = std::pair<std::string_view, V>;

  // Sorted by name; made by make_string_table, which has checked the names are unique.
  constexpr explicit string_table(std::array<slot, N> sorted) noexcept : slots_(sorted) {}

  static constexpr std::size_t size() noexcept { return N; }
  constexpr auto begin() const noexcept { return slots_.begin(); }
  constexpr auto end() const noexcept { return slots_.end(); }

  constexpr const V* find(std::string_view name) const noexcept {
    const auto it = std::lower_bound(slots_.begin(), slots_.end(), name,
                                     [](const slot& s, std::string_view n) { return s.first < n; });
    return it != slots_.end() && it->first == name ? &it->second : nullptr;
  }
  constexpr bool contains(std::string_view name) const noexcept { return find(name) != nullptr; }

  // The value for `name`, or retarget::error naming it (as `what`) and the closest names.
  constexpr const V& at(std::string_view name, std::string_view what = "name") const {
    if (const V* v = find(name)) return *v;
    throw error("retarget: unknown " + std::string(what) + " '" + std::string(name) +
                "' (closest: " + join_names(closest(name)) + ")");
  }

  std::vector<std::string_view> closest(std::string_view name, std::size_t count = 3) const {
    return closest_names(name, names(), count);
  }

  constexpr std::array<std::string_view, N> names() const noexcept {
    std::array<std::string_view, N> out{};
    for (std::size_t i = 0; i < N; ++i) out[i] = slots_[i].first;
    return out;
  }

 private:
  std::array<slot, N> slots_;
};

namespace detail {

template <std::size_t N>
constexpr bool has_duplicate(std::array<std::string_view, N> names) {
  std::sort(names.begin(), names.end());
  return std::adjacent_find(names.begin(), names.end()) != names.end();
}

template <bool Duplicate>
struct string_table_names_unique : std::true_type {
  static_assert(!Duplicate, "retarget: duplicate name in a string-keyed table");
};

}  // namespace detail

template <class... Entries>
constexpr auto make_string_table() {
  using value = std::common_type_t<std::remove_cvref_t<decltype(Entries::value)>...>;
  constexpr std::size_t n = sizeof...(Entries);
  static_assert(detail::string_table_names_unique<detail::has_duplicate(
                    std::array<std::string_view, n>{Entries::name...})>::value);
  std::array<std::pair<std::string_view, value>, n> slots{
      std::pair<std::string_view, value>{Entries::name, Entries::value}...};
  std::sort(slots.begin(), slots.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  return string_table<value, n>(slots);
}

// The same, from an mp_list of mappings (as a compile-time registry produces).
template <class List>
struct string_table_from;
template <class... Entries>
struct string_table_from<boost::mp11::mp_list<Entries...>> {
  static constexpr auto value = make_string_table<Entries...>();
};

template <class List>
inline constexpr auto string_table_from_v = string_table_from<List>::value;

}  // namespace retarget

#endif  // RETARGET_CORE_STRING_TABLE_HPP
