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
std::string_view type_label() {
  if constexpr (std::is_same_v<T, bool>)
    return "bool";
  else if constexpr (std::is_integral_v<T>)
    return "INT";
  else if constexpr (std::is_floating_point_v<T>)
    return "FLOAT";
  else if constexpr (std::is_same_v<T, std::string>)
    return "STR";
  else
    return "LIST";
}

// Text → value, for command-line options. nullopt when the text is not one.
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
  } else {  // a list: comma-separated elements
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
  }
}

// JSON → value, with the type checked. nullopt when the JSON value has another type.
template <class T>
std::optional<T> from_json_value(const boost::json::value& j) {
  if constexpr (std::is_same_v<T, bool>) {
    if (j.is_bool()) return j.get_bool();
  } else if constexpr (std::is_integral_v<T>) {
    if (j.is_int64()) return static_cast<T>(j.get_int64());
    if (j.is_uint64()) return static_cast<T>(j.get_uint64());
  } else if constexpr (std::is_floating_point_v<T>) {
    if (j.is_number()) return static_cast<T>(j.to_number<double>());
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (j.is_string()) return std::string(j.get_string());
  } else {
    if (!j.is_array()) return std::nullopt;
    T out;
    for (const auto& e : j.get_array()) {
      auto v = from_json_value<typename T::value_type>(e);
      if (!v) return std::nullopt;
      out.push_back(std::move(*v));
    }
    return out;
  }
  return std::nullopt;
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
std::string_view json_expected() {
  if constexpr (std::is_same_v<T, bool>)
    return "a boolean";
  else if constexpr (std::is_integral_v<T>)
    return "an integer";
  else if constexpr (std::is_floating_point_v<T>)
    return "a number";
  else if constexpr (std::is_same_v<T, std::string>)
    return "a string";
  else
    return "an array";
}

template <class P>
using members_of = boost::describe::describe_members<P, boost::describe::mod_public>;

template <class P>
std::vector<std::string_view> member_names() {
  std::vector<std::string_view> out;
  boost::mp11::mp_for_each<members_of<P>>([&](auto d) { out.push_back(d.name); });
  return out;
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

// A JSON object into the param, starting from its defaults; `where` names the object in
// errors ("configs/srcnn.json: backend_config").
template <Param P>
P from_json(const boost::json::value& j, const std::string& where) {
  if (!j.is_object())
    throw error("retarget: " + where + " must be an object, not " +
                std::string(detail::json_kind(j)));
  P p{};
  const auto names = detail::member_names<P>();
  for (const auto& [key, value] : j.get_object()) {
    bool found = false;
    boost::mp11::mp_for_each<detail::members_of<P>>([&](auto d) {
      if (found || d.name != std::string_view(key)) return;
      found = true;
      using T = typename std::remove_cvref_t<decltype(p.*d.pointer)>::value_type;
      auto v = detail::from_json_value<T>(value);
      if (!v)
        throw error("retarget: " + where + "." + std::string(key) + " must be " +
                    std::string(detail::json_expected<T>()) + ", not " +
                    std::string(detail::json_kind(value)));
      (p.*d.pointer).value = std::move(*v);
    });
    if (!found && key != "type")
      throw error("retarget: " + where + "." + std::string(key) +
                  " is not a field of this backend's param (closest: " +
                  retarget::detail::join_names(
                      retarget::detail::closest_names(std::string_view(key), names)) +
                  ")");
  }
  return p;
}

}  // namespace retarget::backend

#endif  // RETARGET_BACKEND_PARAM_HPP
