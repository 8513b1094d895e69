// Command lines: `arguments` takes options out as a command reads them ("--name VALUE",
// "--name=VALUE", "-n VALUE", flags), and a described struct's fields become options of
// their own, with a --help listing generated from the fields' help texts.
//
//   retarget::options::arguments args({"--work-dir", "out", "model.onnx"});
//   auto p = retarget::options::from_command_line<my_param>(args);   // takes --work-dir
//   auto files = args.positionals();                                 // {"model.onnx"}
#ifndef RETARGET_OPTIONS_COMMAND_LINE_HPP
#define RETARGET_OPTIONS_COMMAND_LINE_HPP

#include <boost/json.hpp>
#include <boost/mp11/algorithm.hpp>
#include <charconv>
#include <cstddef>
#include <optional>
#include <retarget/core/closest_names.hpp>
#include <retarget/core/error.hpp>
#include <retarget/options/detail/members.hpp>
#include <retarget/options/field.hpp>
#include <retarget/options/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::options {

// A mistake in the command line itself; tools exit with status 2 for it.
struct usage_error : error {
  using error::error;
};

// A command's arguments, taken out as the command reads them; what is left is an error.
class arguments {
 public:
  explicit arguments(std::vector<std::string> items) : items_(std::move(items)) {}

  bool empty() const noexcept { return items_.empty(); }

  // Whether "--name" or "--name=..." is among the arguments, without taking it.
  bool has(std::string_view name) const {
    for (const auto& a : items_)
      if (a == name || a.starts_with(std::string(name) + "=")) return true;
    return false;
  }

  bool flag(std::string_view name) { return std::erase(items_, std::string(name)) > 0; }

  // Every "--name VALUE" and "--name=VALUE" (and "-s VALUE" for a short name), in order.
  std::vector<std::string> all(std::string_view name, std::string_view short_name = {}) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < items_.size();) {
      const std::string& a = items_[i];
      if (a == name || (!short_name.empty() && a == short_name)) {
        if (i + 1 >= items_.size()) throw usage_error("retarget: option " + a + " needs a value");
        out.push_back(items_[i + 1]);
        erase(i, 2);
      } else if (a.starts_with(std::string(name) + "=")) {
        out.push_back(a.substr(name.size() + 1));
        erase(i, 1);
      } else {
        ++i;
      }
    }
    return out;
  }
  std::optional<std::string> one(std::string_view name, std::string_view short_name = {}) {
    auto values = all(name, short_name);
    if (values.size() > 1) throw usage_error("retarget: " + std::string(name) + " is given twice");
    if (values.empty()) return std::nullopt;
    return values.front();
  }
  std::string required(std::string_view name, std::string_view what) {
    auto v = one(name);
    if (!v)
      throw usage_error("retarget: " + std::string(name) + " " + std::string(what) +
                        " is required");
    return *v;
  }
  // The arguments that are not options; an option nobody took is an error, with the closest
  // of `known` when given.
  std::vector<std::string> positionals(const std::vector<std::string>& known = {}) {
    std::vector<std::string> out;
    for (const auto& a : items_) {
      if (a.size() > 1 && a.front() == '-') {
        const std::string name = a.substr(0, a.find('='));
        throw usage_error("retarget: unknown option " + name +
                          (known.empty()
                               ? std::string()
                               : " (closest: " + join_names(closest_names(name, known)) + ")"));
      }
      out.push_back(a);
    }
    items_.clear();
    return out;
  }
  // What is left, for another reader.
  std::vector<std::string> rest() { return std::exchange(items_, {}); }

 private:
  void erase(std::size_t at, std::size_t count) {
    const auto first = items_.begin() + static_cast<std::ptrdiff_t>(at);
    items_.erase(first, first + static_cast<std::ptrdiff_t>(count));
  }
  std::vector<std::string> items_;
};

// "work_dir" → "--work-dir", as command-line options are spelled.
inline std::string option_name(std::string_view member) {
  std::string out = "--" + std::string(member);
  for (auto& c : out)
    if (c == '_') c = '-';
  return out;
}

// Text → value: scalars as written, lists comma-separated, anything nested as JSON text.
// nullopt when the text is not one.
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
  } else if constexpr (detail::is_scalar_list<T>) {
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
      return from_json<T>(j, "value");
    } catch (const json_error&) {
      return std::nullopt;
    }
  }
}

namespace detail {
template <class S>
void require_fields() {
  boost::mp11::mp_for_each<members_of<S>>([](auto d) {
    using M = std::remove_cvref_t<decltype(std::declval<S&>().*d.pointer)>;
    static_assert(Field<M>,
                  "retarget: a described member read from a command line is not a "
                  "retarget::options::field");
  });
  if constexpr (!all_members_readable<S>) report_unreadable_member<S>();
}
}  // namespace detail

// The option list for --help: "  --work-dir STR   The working directory. (default: .)"
template <Described S>
std::string help() {
  detail::require_fields<S>();
  const S defaults{};
  std::string out;
  boost::mp11::mp_for_each<detail::members_of<S>>([&](auto d) {
    using F = std::remove_cvref_t<decltype(defaults.*d.pointer)>;
    if constexpr (Field<F>) {  // else require_fields has said what is wrong
      using T = typename F::value_type;
      std::string label;
      if constexpr (std::is_same_v<T, bool>)
        label = "bool";
      else if constexpr (std::is_integral_v<T>)
        label = "INT";
      else if constexpr (std::is_floating_point_v<T>)
        label = "FLOAT";
      else if constexpr (std::is_same_v<T, std::string>)
        label = "STR";
      else if constexpr (detail::is_scalar_list<T>)
        label = "LIST";
      else
        label = "JSON";
      std::string line = "  " + option_name(d.name) + " " + label;
      if (line.size() < 28)
        line.resize(28, ' ');
      else
        line += "  ";
      line += std::string(F::help);
      if constexpr (std::is_same_v<T, std::string>)
        if (!(defaults.*d.pointer).value.empty())
          line += " (default: " + (defaults.*d.pointer).value + ")";
      out += line + "\n";
    }
  });
  return out;
}

// Takes S's options out of `args` into S, starting from its defaults; the rest stays in
// `args`. A malformed value is a usage_error that names the option.
template <Described S>
S from_command_line(arguments& args) {
  detail::require_fields<S>();
  S s{};
  boost::mp11::mp_for_each<detail::members_of<S>>([&](auto d) {
    using F = std::remove_cvref_t<decltype(s.*d.pointer)>;
    // Else require_fields has said what is wrong.
    if constexpr (Field<F> && detail::has_reader<typename F::value_type>()) {
      const std::string name = option_name(d.name);
      const auto text = args.one(name);
      if (!text) return;
      using T = typename F::value_type;
      auto v = parse_text<T>(*text);
      if (!v)
        throw usage_error("retarget: option " + name + " expects " + detail::expected<T>() +
                          ", got '" + *text + "'");
      (s.*d.pointer).value = std::move(*v);
    }
  });
  return s;
}

// The same over a whole command line: anything that is not one of S's options is an error
// (an unknown option with the closest names).
template <Described S>
S from_command_line(const std::vector<std::string>& items) {
  arguments args(items);
  S s = from_command_line<S>(args);
  std::vector<std::string> known;
  for (auto n : detail::member_names<S>()) known.push_back(option_name(n));
  for (const auto& p : args.positionals(known))
    throw usage_error("retarget: unexpected argument '" + p + "'");
  return s;
}

}  // namespace retarget::options

#endif  // RETARGET_OPTIONS_COMMAND_LINE_HPP
