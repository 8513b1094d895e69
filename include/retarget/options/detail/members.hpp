// What the JSON and command-line readers share about a described struct and its values.
#ifndef RETARGET_OPTIONS_DETAIL_MEMBERS_HPP
#define RETARGET_OPTIONS_DETAIL_MEMBERS_HPP

#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/mp11/algorithm.hpp>
#include <map>
#include <optional>
#include <retarget/options/field.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace retarget::options::detail {

template <class T>
inline constexpr bool is_vector = false;
template <class T, class A>
inline constexpr bool is_vector<std::vector<T, A>> = true;

template <class T>
inline constexpr bool is_map = false;
template <class K, class V, class C, class A>
inline constexpr bool is_map<std::map<K, V, C, A>> = true;

template <class T>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<std::optional<T>> = true;

// A list of scalars, which a command line spells "1,2,3".
template <class T>
inline constexpr bool is_scalar_list = false;
template <class T, class A>
inline constexpr bool is_scalar_list<std::vector<T, A>> =
    std::is_arithmetic_v<T> || std::is_same_v<T, std::string>;

template <class S>
using members_of = boost::describe::describe_members<S, boost::describe::mod_public>;

template <class S>
std::vector<std::string_view> member_names() {
  std::vector<std::string_view> out;
  boost::mp11::mp_for_each<members_of<S>>([&](auto d) { out.push_back(d.name); });
  return out;
}

// A described member is either a field (whose value is read) or a plain value.
template <class M>
auto& value_of(M& member) {
  if constexpr (Field<M>)
    return member.value;
  else
    return member;
}

template <class K>
inline constexpr bool readable_key = std::is_same_v<K, std::string> || std::is_integral_v<K>;

// Whether the readers (JSON, and the command line through it) know how to read a T.
template <class T>
constexpr bool has_reader() {
  if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>)
    return true;
  else if constexpr (is_optional<T> || is_vector<T>)
    return has_reader<typename T::value_type>();
  else if constexpr (is_map<T>)
    return readable_key<typename T::key_type> && has_reader<typename T::mapped_type>();
  else
    return Described<T>;
}

// Never defined: reading a struct with a member of type T names T in the first error line.
template <class T>
struct field_type_has_no_reader;

template <class S>
struct member_value {
  template <class D>
  using fn = std::remove_cvref_t<decltype(value_of(std::declval<S&>().*D::pointer))>;
};
template <class T>
using readable = std::bool_constant<has_reader<T>()>;
template <class S>
using unreadable_members =
    boost::mp11::mp_remove_if<boost::mp11::mp_transform_q<member_value<S>, members_of<S>>,
                              readable>;
template <class S>
inline constexpr bool all_members_readable = boost::mp11::mp_empty<unreadable_members<S>>::value;

// One error for a struct with members no reader knows, naming the first one's type.
template <class S>
void report_unreadable_member() {
  [[maybe_unused]] field_type_has_no_reader<boost::mp11::mp_front<unreadable_members<S>>> report;
}

// "an integer", "an array of ...": what a value of type T must be, for error messages.
template <class T>
std::string expected() {
  if constexpr (std::is_same_v<T, bool>)
    return "a boolean";
  else if constexpr (std::is_integral_v<T>)
    return "an integer";
  else if constexpr (std::is_floating_point_v<T>)
    return "a number";
  else if constexpr (std::is_same_v<T, std::string>)
    return "a string";
  else if constexpr (is_optional<T>)
    return expected<typename T::value_type>() + " or null";
  else if constexpr (is_vector<T>)
    return "an array";
  else
    return "an object";
}

}  // namespace retarget::options::detail

#endif  // RETARGET_OPTIONS_DETAIL_MEMBERS_HPP
