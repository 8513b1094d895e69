// JSON into C++ values with the type checked at every level: described structs (unknown keys
// are errors with the closest member names), vectors, maps, optionals and scalars. Every
// error names the path of the bad value ("backend_config.common_config.fp16_mode").
//
//   auto p = retarget::options::from_json<my_param>(json, "backend_config");
#ifndef RETARGET_OPTIONS_JSON_HPP
#define RETARGET_OPTIONS_JSON_HPP

// Boost.JSON's value, parse and serialize, not its conversions to and from user types
// (value_to, value_from), which retarget does not use and which cost every unit.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>
#include <boost/mp11/algorithm.hpp>
#include <charconv>
#include <retarget/core/closest_names.hpp>
#include <retarget/core/error.hpp>
#include <retarget/options/detail/members.hpp>
#include <retarget/options/field.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace retarget::options {

// An error at a place in a JSON document; the file, when known, comes first in the message.
class json_error : public error {
 public:
  json_error(std::string path, std::string problem, const std::string& file = {})
      : error("retarget: " + (file.empty() ? std::string() : file + ": ") + path + " " + problem),
        path_(std::move(path)),
        problem_(std::move(problem)) {}
  const std::string& path() const noexcept { return path_; }
  const std::string& problem() const noexcept { return problem_; }

 private:
  std::string path_, problem_;
};

// "a boolean", "an object", ...: what a JSON value is, for error messages.
inline std::string_view json_kind(const boost::json::value& j) {
  switch (j.kind()) {
    case boost::json::kind::null:
      return "null";
    case boost::json::kind::bool_:
      return "a boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
      return "an integer";
    case boost::json::kind::double_:
      return "a number";
    case boost::json::kind::string:
      return "a string";
    case boost::json::kind::array:
      return "an array";
    case boost::json::kind::object:
      return "an object";
  }
  return "?";
}

template <class T>
T from_json(const boost::json::value& j, const std::string& path);

namespace detail {

template <class T>
[[noreturn]] void wrong_type(const boost::json::value& j, const std::string& path) {
  throw json_error(path, "must be " + expected<T>() + ", not " + std::string(json_kind(j)));
}

template <class Key>
Key read_key(std::string_view key, const std::string& path) {
  if constexpr (std::is_same_v<Key, std::string>) {
    return std::string(key);
  } else {
    static_assert(std::is_integral_v<Key>,
                  "retarget: JSON object keys read as strings or integers");
    Key k{};
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), k);
    if (ec != std::errc() || end != key.data() + key.size())
      throw json_error(path, "has the key '" + std::string(key) + "', which is not an integer");
    return k;
  }
}

// The key `type` is skipped when the struct has no such member: in configs it selects the
// struct.
template <class S>
S read_members(const boost::json::value& j, const std::string& path) {
  if (!j.is_object()) wrong_type<S>(j, path);
  S out{};
  const auto names = member_names<S>();
  for (const auto& member : j.get_object()) {
    // Not a structured binding: clang before 16 cannot capture one in the lambda below.
    const std::string_view key = member.key();
    const boost::json::value& value = member.value();
    bool found = false;
    boost::mp11::mp_for_each<members_of<S>>([&](auto d) {
      if (found || d.name != key) return;
      found = true;
      auto& target = value_of(out.*d.pointer);
      target =
          from_json<std::remove_cvref_t<decltype(target)>>(value, path + "." + std::string(key));
    });
    if (!found && key != "type")
      throw json_error(
          path + "." + std::string(key),
          "is not a known key (closest: " + join_names(closest_names(key, names)) + ")");
  }
  return out;
}

// A member without a reader is one error, before anything tries to read it.
template <class S>
S read_described(const boost::json::value& j, const std::string& path) {
  if constexpr (!all_members_readable<S>) {
    report_unreadable_member<S>();
    return S{};
  } else {
    return read_members<S>(j, path);
  }
}

}  // namespace detail

// JSON → T, starting from T's defaults for a described struct; `path` names the value in
// errors. Errors are json_error, whose path() names the bad value.
template <class T>
T from_json(const boost::json::value& j, const std::string& path) {
  if constexpr (std::is_same_v<T, bool>) {
    if (j.is_bool()) return j.get_bool();
  } else if constexpr (std::is_integral_v<T>) {
    if (j.is_int64() && std::in_range<T>(j.get_int64())) return static_cast<T>(j.get_int64());
    if (j.is_uint64() && std::in_range<T>(j.get_uint64())) return static_cast<T>(j.get_uint64());
    if (j.is_int64() || j.is_uint64())
      throw json_error(path, "is out of range for " + detail::expected<T>());
  } else if constexpr (std::is_floating_point_v<T>) {
    if (j.is_number()) return static_cast<T>(j.to_number<double>());
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (j.is_string()) return std::string(j.get_string());
  } else if constexpr (detail::is_optional<T>) {
    if (j.is_null()) return std::nullopt;
    return from_json<typename T::value_type>(j, path);
  } else if constexpr (detail::is_vector<T>) {
    if (j.is_array()) {
      T out;
      std::size_t i = 0;
      for (const auto& e : j.get_array())
        out.push_back(from_json<typename T::value_type>(e, path + "[" + std::to_string(i++) + "]"));
      return out;
    }
  } else if constexpr (detail::is_map<T>) {
    if (j.is_object()) {
      T out;
      for (const auto& [key, value] : j.get_object())
        out.emplace(detail::read_key<typename T::key_type>(key, path),
                    from_json<typename T::mapped_type>(value, path + "." + std::string(key)));
      return out;
    }
  } else if constexpr (!Described<T>) {
    static_assert(Described<T>,
                  "retarget: a JSON value is read as a bool, number, string, "
                  "vector, map, optional or a struct described with Describe");
  } else {
    return detail::read_described<T>(j, path);
  }
  detail::wrong_type<T>(j, path);
}

}  // namespace retarget::options

// Reads T once, in retarget::compiled, for a struct that a package or the config reads: written
// after T's definition, in T's package. Linking retarget::compiled, a unit that reads T calls
// the library's reader (an extern template); the library itself instantiates it here, so the
// list of what it compiles is these uses and nothing else; header-only it is nothing.
#if defined(RETARGET_COMPILING_LIBRARY)
#define RETARGET_OPTIONS_READ_ONCE(T) \
  template T retarget::options::from_json<T>(const boost::json::value&, const std::string&)
#elif defined(RETARGET_SEPARATE_COMPILATION)
#define RETARGET_OPTIONS_READ_ONCE(T) \
  extern template T retarget::options::from_json<T>(const boost::json::value&, const std::string&)
#else
#define RETARGET_OPTIONS_READ_ONCE(T) static_assert(true)
#endif

#endif  // RETARGET_OPTIONS_JSON_HPP
