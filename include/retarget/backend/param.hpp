// Backend params: a struct per backend whose members are fields with a help text, described
// with Boost.Describe. From the description come, at compile time, the command-line options
// (with --help), JSON parsing with type checks, and the defaults (the member initializers).
//
//   struct my_param {
//     retarget::backend::field<std::string, "The working directory."> work_dir{"."};
//     retarget::backend::file_field<".model", "File name of the serialized model.">
//     file_name{"end2end"};
//   };
//   BOOST_DESCRIBE_STRUCT(my_param, (), (work_dir, file_name))
#ifndef RETARGET_BACKEND_PARAM_HPP
#define RETARGET_BACKEND_PARAM_HPP

#include <boost/describe/class.hpp>
#include <boost/describe/members.hpp>
#include <boost/describe/modifiers.hpp>
#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>
#include <charconv>
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <retarget/core/detail/edit_distance.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/fixed_string.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::backend {

// A param member: a value and what it means.
template <class T, fixed_string Help>
struct field {
  using value_type = T;
  static constexpr std::string_view help = Help;
  T value{};

  field() = default;
  field(T v) : value(std::move(v)) {}  // NOLINT: a field is set like its value
  template <class U>
  requires std::constructible_from<T, U&&> &&
      (!std::same_as<std::remove_cvref_t<U>, field>)field(U&& v)
      : value(std::forward<U>(v)) {}  // NOLINT

  const T& operator*() const noexcept { return value; }
  const T* operator->() const noexcept { return &value; }
  operator const T&() const noexcept { return value; }  // NOLINT
};

// A file name that gets its backend's suffix when it has none ("end2end" → "end2end.onnx").
template <fixed_string Suffix, fixed_string Help>
struct file_field : field<std::string, Help> {
  static constexpr std::string_view suffix = Suffix;
  using field<std::string, Help>::field;

  std::string resolved() const {
    const std::string& v = this->value;
    return std::filesystem::path(v).has_extension() ? v : v + std::string(suffix);
  }
};

// An error at a place in a JSON document: path() is "backend_config.common_config.fp16_mode";
// the file, when known, comes first in the message.
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

namespace detail {

template <class F>
concept param_field = requires {
  typename F::value_type;
  F::help;
};

// "work_dir" → "work-dir", as command-line options are spelled.
inline std::string option_name(std::string_view member) {
  std::string out(member);
  for (auto& c : out)
    if (c == '_') c = '-';
  return out;
}

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template <class T>
struct is_map : std::false_type {};
template <class K, class V, class C, class A>
struct is_map<std::map<K, V, C, A>> : std::true_type {};

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
concept described = boost::describe::has_describe_members<T>::value;

template <class P>
using members_of = boost::describe::describe_members<P, boost::describe::mod_public>;

template <class P>
std::vector<std::string_view> member_names() {
  std::vector<std::string_view> out;
  boost::mp11::mp_for_each<members_of<P>>([&](auto d) { out.push_back(d.name); });
  return out;
}

// A described member is either a field (whose value is read) or a plain value.
template <class M>
auto& value_of(M& member) {
  if constexpr (param_field<M>)
    return member.value;
  else
    return member;
}

// A list of scalars, which a command line spells "1,2,3".
template <class T>
struct is_scalar_list : std::false_type {};
template <class T, class A>
struct is_scalar_list<std::vector<T, A>>
    : std::bool_constant<std::is_arithmetic_v<T> || std::is_same_v<T, std::string>> {};

template <class T>
constexpr std::string_view type_label() {
  if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_integral_v<T>)
    return "INT";
  else if constexpr (std::is_floating_point_v<T>)
    return "FLOAT";
  else if constexpr (std::is_same_v<T, std::string>)
    return "STR";
  else if constexpr (is_scalar_list<T>::value)
    return "LIST";
  else
    return "JSON";
}

template <class T>
std::string json_expected() {
  if constexpr (std::is_same_v<T, bool>)
    return "a boolean";
  else if constexpr (std::is_integral_v<T>)
    return "an integer";
  else if constexpr (std::is_floating_point_v<T>)
    return "a number";
  else if constexpr (std::is_same_v<T, std::string>)
    return "a string";
  else if constexpr (is_optional<T>::value)
    return json_expected<typename T::value_type>() + " or null";
  else if constexpr (is_vector<T>::value)
    return "an array";
  else
    return "an object";
}

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
T read_json(const boost::json::value& j, const std::string& path);

template <class T>
[[noreturn]] void wrong_type(const boost::json::value& j, const std::string& path) {
  throw json_error(path, "must be " + json_expected<T>() + ", not " + std::string(json_kind(j)));
}

template <class Key>
Key read_key(std::string_view key, const std::string& path) {
  if constexpr (std::is_same_v<Key, std::string>) {
    return std::string(key);
  } else {
    static_assert(std::is_integral_v<Key>, "retarget: JSON object keys read as strings or integers");
    Key k{};
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), k);
    if (ec != std::errc() || end != key.data() + key.size())
      throw json_error(path, "has the key '" + std::string(key) + "', which is not an integer");
    return k;
  }
}

// Reads a described struct; unknown keys are errors with the closest member names. The key
// `type` is skipped when the struct has no such member: in configs it selects the struct.
template <class S>
S read_described(const boost::json::value& j, const std::string& path) {
  if (!j.is_object()) wrong_type<S>(j, path);
  S out{};
  const auto names = member_names<S>();
  for (const auto& member : j.get_object()) {
    // Not a structured binding: clang before 16 cannot capture one in the lambda below.
    const std::string_view key = member.key();
    const boost::json::value& value = member.value();
    bool found = false;
    boost::mp11::mp_for_each<members_of<S>>([&](auto d) {
      if (found || d.name != std::string_view(key)) return;
      found = true;
      auto& target = value_of(out.*d.pointer);
      target = read_json<std::remove_cvref_t<decltype(target)>>(value, path + "." + std::string(key));
    });
    if (!found && key != "type")
      throw json_error(path + "." + std::string(key),
                       "is not a known key (closest: " +
                           retarget::detail::join_names(
                               retarget::detail::closest_names(std::string_view(key), names)) +
                           ")");
  }
  return out;
}

// JSON → value with its type checked at every level; errors name the path of the bad value.
template <class T>
T read_json(const boost::json::value& j, const std::string& path) {
  if constexpr (std::is_same_v<T, bool>) {
    if (j.is_bool()) return j.get_bool();
  } else if constexpr (std::is_integral_v<T>) {
    if (j.is_int64() && std::in_range<T>(j.get_int64())) return static_cast<T>(j.get_int64());
    if (j.is_uint64() && std::in_range<T>(j.get_uint64())) return static_cast<T>(j.get_uint64());
    if (j.is_int64() || j.is_uint64())
      throw json_error(path, "is out of range for " + json_expected<T>());
  } else if constexpr (std::is_floating_point_v<T>) {
    if (j.is_number()) return static_cast<T>(j.to_number<double>());
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (j.is_string()) return std::string(j.get_string());
  } else if constexpr (is_optional<T>::value) {
    if (j.is_null()) return std::nullopt;
    return read_json<typename T::value_type>(j, path);
  } else if constexpr (is_vector<T>::value) {
    if (j.is_array()) {
      T out;
      std::size_t i = 0;
      for (const auto& e : j.get_array())
        out.push_back(read_json<typename T::value_type>(e, path + "[" + std::to_string(i++) + "]"));
      return out;
    }
  } else if constexpr (is_map<T>::value) {
    if (j.is_object()) {
      T out;
      for (const auto& [key, value] : j.get_object())
        out.emplace(read_key<typename T::key_type>(key, path),
                    read_json<typename T::mapped_type>(value, path + "." + std::string(key)));
      return out;
    }
  } else {
    static_assert(described<T>, "retarget: a config value must be a bool, number, string, "
                                "vector, map, optional or a struct described with Describe");
    return read_described<T>(j, path);
  }
  wrong_type<T>(j, path);
}

// Text → value, for command-line options: scalars as written, lists comma-separated, and
// anything nested as JSON text. nullopt when the text is not one.
template <class T>
std::optional<T> parse_text(std::string_view text) {
  if constexpr (std::is_same_v<T, bool>) {
    if (text == "true" || text == "1") return true;
    if (text == "false" || text == "0") return false;
    return std::nullopt;
  } else if constexpr (std::is_arithmetic_v<T>) {
    T v{};
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return v;
  } else if constexpr (std::is_same_v<T, std::string>) {
    return std::string(text);
  } else if constexpr (is_scalar_list<T>::value) {
    T out;
    std::size_t start = 0;
    while (start <= text.size()) {
      const auto comma = text.find(',', start);
      const auto piece = text.substr(
          start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
      const auto v = parse_text<typename T::value_type>(piece);
      if (!v) return std::nullopt;
      out.push_back(*v);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    return out;
  } else {
    boost::system::error_code ec;
    const auto j = boost::json::parse(text, ec);
    if (ec) return std::nullopt;
    try {
      return read_json<T>(j, "value");
    } catch (const json_error&) {
      return std::nullopt;
    }
  }
}


}  // namespace detail

template <class P>
concept Param = boost::describe::has_describe_members<P>::value;

// The option list for --help: "  --work-dir STR   The working directory. (default: .)"
template <Param P>
std::string options_help() {
  const P defaults{};
  std::string out;
  boost::mp11::mp_for_each<detail::members_of<P>>([&](auto d) {
    using F = std::remove_cvref_t<decltype(defaults.*d.pointer)>;
    static_assert(detail::param_field<F>,
                  "retarget: a described param member is not a retarget::backend::field");
    std::string line = "  --" + detail::option_name(d.name) + " " +
                       std::string(detail::type_label<typename F::value_type>());
    if (line.size() < 28)
      line.resize(28, ' ');
    else
      line += "  ";
    line += std::string(F::help);
    if constexpr (std::is_same_v<typename F::value_type, std::string>)
      if (!(defaults.*d.pointer).value.empty())
        line += " (default: " + (defaults.*d.pointer).value + ")";
    out += line + "\n";
  });
  return out;
}

// Command-line options (--name VALUE or --name=VALUE) into the param, starting from its
// defaults. Unknown options, missing and malformed values are errors that name them.
template <Param P>
P parse_options(const std::vector<std::string>& args) {
  P p{};
  const auto names = detail::member_names<P>();
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (!arg.starts_with("--"))
      throw error("retarget: unexpected argument '" + std::string(arg) + "'");
    arg.remove_prefix(2);
    std::string key(arg), text;
    bool has_text = false;
    if (const auto eq = arg.find('='); eq != std::string_view::npos) {
      key = std::string(arg.substr(0, eq));
      text = std::string(arg.substr(eq + 1));
      has_text = true;
    }
    bool found = false;
    boost::mp11::mp_for_each<detail::members_of<P>>([&](auto d) {
      if (found || detail::option_name(d.name) != key) return;
      found = true;
      using T = typename std::remove_cvref_t<decltype(p.*d.pointer)>::value_type;
      if (!has_text) {
        if (i + 1 >= args.size()) throw error("retarget: option --" + key + " needs a value");
        text = args[++i];
      }
      auto v = detail::parse_text<T>(text);
      if (!v)
        throw error("retarget: option --" + key + " expects " +
                    std::string(detail::json_expected<T>()) + ", got '" + text + "'");
      (p.*d.pointer).value = std::move(*v);
    });
    if (!found) {
      std::vector<std::string> options;
      for (auto n : names) options.push_back("--" + detail::option_name(n));
      throw error(
          "retarget: unknown option --" + key + " (closest: " +
          retarget::detail::join_names(retarget::detail::closest_names("--" + key, options)) + ")");
    }
  }
  return p;
}

// A JSON object into the param, starting from its defaults; `where` is the object's path in
// errors ("backend_config"). Errors are json_error, whose path() names the bad value.
template <Param P>
P from_json(const boost::json::value& j, const std::string& where) {
  return detail::read_described<P>(j, where);
}

}  // namespace retarget::backend

#endif  // RETARGET_BACKEND_PARAM_HPP
