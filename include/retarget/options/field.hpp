// Described option structs: a struct whose members are fields with a help text, described
// with Boost.Describe. From the description come, at compile time, the command-line options
// with their --help (options/command_line.hpp) and JSON reading with type checks
// (options/json.hpp); the member initializers are the defaults.
//
//   struct my_param {
//     retarget::options::field<std::string, "The working directory."> work_dir{"."};
//     retarget::options::file_field<".model", "File name of the serialized model.">
//         file_name{"end2end"};
//   };
//   BOOST_DESCRIBE_STRUCT(my_param, (), (work_dir, file_name))
#ifndef RETARGET_OPTIONS_FIELD_HPP
#define RETARGET_OPTIONS_FIELD_HPP

#include <boost/describe/class.hpp>
#include <boost/describe/members.hpp>
#include <concepts>
#include <filesystem>
#include <limits>
#include <retarget/core/fixed_string.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace retarget::options {

// A member of a described struct: a value and what it means.
template <class T, fixed_string Help>
struct field {
  using value_type = T;
  static constexpr std::string_view help = Help;
  T value{};

  constexpr field() = default;
  constexpr field(T v) : value(std::move(v)) {}  // NOLINT: a field is set like its value
  template <class U>
  requires std::constructible_from<T, U&&> &&
      (!std::same_as<std::remove_cvref_t<U>, field>)constexpr field(U&& v)
      : value(std::forward<U>(v)) {}  // NOLINT

  const T& operator*() const noexcept { return value; }
  const T* operator->() const noexcept { return &value; }
  operator const T&() const noexcept { return value; }  // NOLINT
};

// A file name that gets its suffix when it has none ("end2end" → "end2end.onnx").
template <fixed_string Suffix, fixed_string Help>
struct file_field : field<std::string, Help> {
  static constexpr std::string_view suffix = Suffix;
  using field<std::string, Help>::field;

  std::string resolved() const {
    const std::string& v = this->value;
    return std::filesystem::path(v).has_extension() ? v : v + std::string(suffix);
  }
};

// An option of a tool's command, a field with the command line's own spelling: --help names
// its value `Value` ("NAME", "N", "FILE") and accepts `Short` ("-o") too. A bool option is a
// switch, given without a value; a std::vector option is given once per item ("--input
// a=1.pb --input b=2.pb"); a std::optional one is empty when not given.
template <class T, fixed_string Value, fixed_string Help, fixed_string Short = "">
struct option : field<T, Help> {
  static constexpr std::string_view value_name = Value;
  static constexpr std::string_view short_name = Short;
  using field<T, Help>::field;
};

// An option the command cannot go without: "retarget: --model NAME is required".
template <class O>
struct required : O {
  static constexpr bool is_required = true;
  using O::O;
};

// A number option that must lie in [Min, Max] (no upper bound when Max is the largest long
// long): "retarget: option --opset expects an integer from 1 to 17, got '18'".
template <class O, long long Min, long long Max = std::numeric_limits<long long>::max()>
struct bounded : O {
  static constexpr long long min = Min;
  static constexpr long long max = Max;
  using O::O;
};

// A struct described with BOOST_DESCRIBE_STRUCT: what the readers of options/ accept.
template <class S>
concept Described = boost::describe::has_describe_members<S>::value;

template <class F>
concept Field = requires {
  typename F::value_type;
  F::help;
};

// A field with a command line's own spelling (an `option`).
template <class F>
concept Option = Field<F> && requires {
  F::value_name;
  F::short_name;
};

}  // namespace retarget::options

#endif  // RETARGET_OPTIONS_FIELD_HPP
