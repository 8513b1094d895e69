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

// A struct described with BOOST_DESCRIBE_STRUCT: what the readers of options/ accept.
template <class S>
concept Described = boost::describe::has_describe_members<S>::value;

template <class F>
concept Field = requires {
  typename F::value_type;
  F::help;
};

}  // namespace retarget::options

#endif  // RETARGET_OPTIONS_FIELD_HPP
