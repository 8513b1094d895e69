// Command lines: `arguments` takes options out as a command reads them ("--name VALUE",
// "--name=VALUE", "-n VALUE", flags), and a described struct's fields become options of
// their own, with a --help listing generated from the fields' help texts.
//
//   retarget::options::arguments args({"--work-dir", "out", "model.onnx"});
//   auto p = retarget::options::from_command_line<my_param>(args);   // takes --work-dir
//   auto files = args.positionals();                                 // {"model.onnx"}
#ifndef RETARGET_OPTIONS_COMMAND_LINE_HPP
#define RETARGET_OPTIONS_COMMAND_LINE_HPP

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>
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

// The one reader of numbers on a command line: `text`, the value of `option`, as a T in
// [min, max] (a floating-point T must then be finite too). The usage_error names the option and
// the text: "retarget: option --opset expects an integer from 1 to 17, got '18'".
template <class T>
T parse_number(std::string_view option, std::string_view text,
               long long min = std::numeric_limits<long long>::lowest(),
               long long max = std::numeric_limits<long long>::max()) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  constexpr long long lowest = std::numeric_limits<long long>::lowest();
  constexpr long long highest = std::numeric_limits<long long>::max();
  const auto v = parse_text<T>(text);
  const bool bounded = min != lowest || max != highest;
  const auto in_range = [&](T x) {
    const auto wide = static_cast<long double>(x);
    return wide >= static_cast<long double>(min) && wide <= static_cast<long double>(max);
  };
  if (v && (!bounded || in_range(*v))) return *v;
  std::string range;
  if (bounded)
    range = max == highest ? " >= " + std::to_string(min)
                           : " from " + std::to_string(min) + " to " + std::to_string(max);
  throw usage_error("retarget: option " + std::string(option) + " expects " +
                    (std::is_integral_v<T> ? "an integer" : "a number") + range + ", got '" +
                    std::string(text) + "'");
}

namespace detail {

// "  -o, --output FILE" for an option, "  --work-dir STR" for another field.
template <class F>
std::string option_label(std::string_view member) {
  using T = typename F::value_type;
  std::string label = "  ";
  if constexpr (Option<F>) {
    if (!F::short_name.empty()) label += std::string(F::short_name) + ", ";
    label += option_name(member);
    if (!F::value_name.empty()) label += " " + std::string(F::value_name);
    return label;
  }
  label += option_name(member) + " ";
  if constexpr (std::is_same_v<T, bool>)
    return label + "bool";
  else if constexpr (std::is_integral_v<T>)
    return label + "INT";
  else if constexpr (std::is_floating_point_v<T>)
    return label + "FLOAT";
  else if constexpr (std::is_same_v<T, std::string>)
    return label + "STR";
  else if constexpr (is_scalar_list<T>)
    return label + "LIST";
  else
    return label + "JSON";
}

// " (1 to 17, default: 8)": a bounded option's range when it has an upper bound, and the
// default when it says something (a string that is not empty, an option's number).
template <class F>
std::string default_note(const F& f) {
  using T = typename F::value_type;
  std::vector<std::string> notes;
  if constexpr (requires { F::max; })
    if (F::max != std::numeric_limits<long long>::max())
      notes.push_back(std::to_string(F::min) + " to " + std::to_string(F::max));
  if constexpr (std::is_same_v<T, std::string>) {
    if (!f.value.empty()) notes.push_back("default: " + f.value);
  } else if constexpr (Option<F> && std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    char text[32];  // the shortest text that reads back as the value: 0.0001, 8
    const auto end = [&] {
      if constexpr (std::is_floating_point_v<T>)
        return std::to_chars(text, text + sizeof text, f.value, std::chars_format::fixed).ptr;
      else
        return std::to_chars(text, text + sizeof text, f.value).ptr;
    }();
    notes.push_back("default: " + std::string(text, end));
  }
  std::string out;
  for (const auto& n : notes) out += (out.empty() ? " (" : ", ") + n;
  return out.empty() ? out : out + ")";
}

// `text` after `label`, from column 28; an option's words wrapped before column 92 (a param's
// help stays on one line, as backends' docs show it).
inline std::string help_line(std::string label, std::string_view text, bool wrap) {
  constexpr std::size_t column = 28, width = 92;
  if (label.size() < column)
    label.resize(column, ' ');
  else
    label += "  ";
  std::string out = std::move(label);
  std::size_t line_start = 0;
  bool first_word = true;
  for (std::size_t pos = 0; pos < text.size();) {
    const auto space = text.find(' ', pos);
    const auto word = text.substr(pos, space == std::string_view::npos ? space : space - pos);
    if (wrap && !first_word && out.size() - line_start + 1 + word.size() > width) {
      out += "\n" + std::string(column, ' ');
      line_start = out.size() - column;
    } else if (!first_word) {
      out += ' ';
    }
    out += word;
    first_word = false;
    if (space == std::string_view::npos) break;
    pos = space + 1;
  }
  return out + "\n";
}

}  // namespace detail

// The option list for --help: "  --work-dir STR   The working directory. (default: .)", or
// for an option (options/field.hpp), a tool's command's own, "  -o, --output FILE   where the
// converted model goes".
template <Described S>
std::string help() {
  detail::require_fields<S>();
  const S defaults{};
  std::string out;
  boost::mp11::mp_for_each<detail::members_of<S>>([&](auto d) {
    using F = std::remove_cvref_t<decltype(defaults.*d.pointer)>;
    if constexpr (Field<F>)  // else require_fields has said what is wrong
      out += detail::help_line(detail::option_label<F>(d.name),
                               std::string(F::help) + detail::default_note(defaults.*d.pointer),
                               Option<F>);
  });
  return out;
}

// "--work-dir", "--file-name": S's options, for the closest names of an unknown one.
template <Described S>
std::vector<std::string> option_names() {
  std::vector<std::string> out;
  for (auto n : detail::member_names<S>()) out.push_back(option_name(n));
  return out;
}

namespace detail {

// One value of the option `name` from its text.
template <class T, class F>
T option_value(const std::string& name, const std::string& text) {
  if constexpr (std::is_arithmetic_v<T> && !std::is_same_v<T, bool>) {
    if constexpr (requires { F::min; })
      return parse_number<T>(name, text, F::min, F::max);
    else
      return parse_number<T>(name, text);
  } else {
    auto v = parse_text<T>(text);
    if (!v)
      throw usage_error("retarget: option " + name + " expects " + expected<T>() + ", got '" +
                        text + "'");
    return std::move(*v);
  }
}

template <class F>
constexpr std::string_view short_name_of() {
  if constexpr (Option<F>)
    return F::short_name;
  else
    return {};
}

// Takes the field `f`, spelled `name`, out of `args`; whether it was there.
template <class F>
bool take_field(arguments& args, F& f, const std::string& name) {
  using T = typename F::value_type;
  constexpr auto short_name = short_name_of<F>();
  if constexpr (Option<F> && std::is_same_v<T, bool>) {  // a switch
    const bool given = args.flag(name) || (!short_name.empty() && args.flag(short_name));
    if (given) f.value = true;
    return given;
  } else if constexpr (Option<F> && is_vector<T>) {  // once per item
    const auto texts = args.all(name, short_name);
    for (const auto& text : texts)
      f.value.push_back(option_value<typename T::value_type, F>(name, text));
    return !texts.empty();
  } else if constexpr (Option<F> && is_optional<T>) {
    const auto text = args.one(name, short_name);
    if (text) f.value = option_value<typename T::value_type, F>(name, *text);
    return text.has_value();
  } else {
    const auto text = args.one(name, short_name);
    if (text) f.value = option_value<T, F>(name, *text);
    return text.has_value();
  }
}

}  // namespace detail

// Takes S's options out of `args` into S, starting from its defaults; the rest stays in
// `args`. A malformed value is a usage_error that names the option, and so is a `required`
// option that is not given.
template <Described S>
S from_command_line(arguments& args) {
  detail::require_fields<S>();
  S s{};
  std::string missing;  // the first required option not given
  boost::mp11::mp_for_each<detail::members_of<S>>([&](auto d) {
    using F = std::remove_cvref_t<decltype(s.*d.pointer)>;
    // Else require_fields has said what is wrong.
    if constexpr (Field<F> && detail::has_reader<typename F::value_type>()) {
      const std::string name = option_name(d.name);
      const bool given = detail::take_field(args, s.*d.pointer, name);
      if constexpr (requires { F::is_required; })
        if (!given && missing.empty())
          missing = name + (F::value_name.empty() ? "" : " " + std::string(F::value_name));
    }
  });
  if (!missing.empty()) throw usage_error("retarget: " + missing + " is required");
  return s;
}

// The same over a whole command line: anything that is not one of S's options is an error
// (an unknown option with the closest names).
template <Described S>
S from_command_line(const std::vector<std::string>& items) {
  arguments args(items);
  S s = from_command_line<S>(args);
  for (const auto& p : args.positionals(option_names<S>()))
    throw usage_error("retarget: unexpected argument '" + p + "'");
  return s;
}

}  // namespace retarget::options

#endif  // RETARGET_OPTIONS_COMMAND_LINE_HPP
