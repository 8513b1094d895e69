// Attribute literals with the suffixes of PyTorch's g.op: _i (int64), _f (float), _s
// (string), _t (tensor), _g (graph). A list value makes the plural kind, an empty list too:
//
//   using namespace retarget::literals;
//   "mode"_s = "cubic"        // STRING
//   "axes"_i = {0, 1}         // INTS
//   "scales"_f = {}           // FLOATS, empty
//
// Each attribute's name and kind are part of its type, so g.op can check them against the
// op's schema at compile time. A string literal's value is checked there too, against the
// values the standard ops define for an attribute of that name ("mode"_s = "cubc" does not
// compile); any other string is checked when the node is emitted.
#ifndef RETARGET_IR_ATTRIBUTE_HPP
#define RETARGET_IR_ATTRIBUTE_HPP

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <retarget/core/config.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/detail/attribute_values.hpp>
#include <retarget/ir/detail/deep_ptr.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <retarget/ir/tensor.hpp>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::ir {

// Numbered as AttributeProto::AttributeType numbers them (checked in attribute_impl.hpp).
enum class attr_type : int {
  undefined = 0,
  float_ = 1,
  int_ = 2,
  string = 3,
  tensor = 4,
  graph = 5,
  floats = 6,
  ints = 7,
  strings = 8,
  tensors = 9,
  graphs = 10,
  sparse_tensor = 11,
  sparse_tensors = 12,
  type_proto = 13,
  type_protos = 14,
};

// AttributeProto's names ("INTS"), written out because its generated AttributeType_Name is not
// constexpr.
constexpr std::string_view to_string(attr_type t) noexcept {
  switch (t) {
    case attr_type::float_:
      return "FLOAT";
    case attr_type::int_:
      return "INT";
    case attr_type::string:
      return "STRING";
    case attr_type::tensor:
      return "TENSOR";
    case attr_type::graph:
      return "GRAPH";
    case attr_type::floats:
      return "FLOATS";
    case attr_type::ints:
      return "INTS";
    case attr_type::strings:
      return "STRINGS";
    case attr_type::tensors:
      return "TENSORS";
    case attr_type::graphs:
      return "GRAPHS";
    case attr_type::sparse_tensor:
      return "SPARSE_TENSOR";
    case attr_type::sparse_tensors:
      return "SPARSE_TENSORS";
    case attr_type::type_proto:
      return "TYPE_PROTO";
    case attr_type::type_protos:
      return "TYPE_PROTOS";
    default:
      return "UNDEFINED";
  }
}

namespace detail {

// A GRAPH attribute's value.
using graph_payload = deep_ptr<onnx::GraphProto>;

// What attribute<...>::write does, one overload per kind of payload: sets the name, the kind
// and the value.
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::int64_t value);
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            float value);
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            const std::string& value);
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            const tensor& value);
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            const graph_payload& value);
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::span<const std::int64_t> values);
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::span<const float> values);
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::span<const std::string> values);
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::span<const tensor> values);
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::span<const graph_payload> values);

}  // namespace detail

// A named, typed attribute value, ready to be written into a node.
template <fixed_string Name, attr_type Type, class Payload>
struct attribute {
  static constexpr std::string_view name = Name;
  static constexpr attr_type type = Type;
  Payload value;

  void write(onnx::AttributeProto& a) const {
    if constexpr (Type == attr_type::ints || Type == attr_type::floats ||
                  Type == attr_type::strings || Type == attr_type::tensors ||
                  Type == attr_type::graphs)
      detail::write_attribute(a, name, std::span(value.data(), value.size()));
    else
      detail::write_attribute(a, name, value);
  }
};

// An attribute whose name is known only at run time, checked when its node is emitted.
struct runtime_attribute {
  detail::deep_ptr<onnx::AttributeProto> proto;  // *proto is the message
  RETARGET_COMPILED_DECL void write(onnx::AttributeProto& a) const;
};

namespace detail {
template <class T>
inline constexpr bool is_attribute = false;
template <fixed_string N, attr_type T, class P>
inline constexpr bool is_attribute<attribute<N, T, P>> = true;
template <>
inline constexpr bool is_attribute<runtime_attribute> = true;

// Anything with .proto() giving a GraphProto: a finished subgraph builder, for one.
template <class G>
const onnx::GraphProto& graph_proto_of(const G& g) {
  if constexpr (std::is_same_v<G, onnx::GraphProto>)
    return g;
  else
    return g.proto();
}
template <class G>
concept graph_like = std::is_same_v<G, onnx::GraphProto> || requires(const G& g) {
  { g.proto() } -> std::convertible_to<const onnx::GraphProto&>;
};
}  // namespace detail

template <class T>
concept Attribute = detail::is_attribute<std::remove_cvref_t<T>>;

// The keys that the literals make; assigning a value gives an attribute. The operators are
// not const so that they, not the implicit assignments, take a braced list.
template <fixed_string Name>
struct int_key {
  static constexpr std::string_view name = Name;
  template <class T>
  requires std::integral<T> || std::is_enum_v<T>
  constexpr attribute<Name, attr_type::int_, std::int64_t> operator=(T v) {
    return {static_cast<std::int64_t>(v)};
  }
  attribute<Name, attr_type::ints, std::vector<std::int64_t>> operator=(
      std::initializer_list<std::int64_t> v) {
    return {std::vector<std::int64_t>(v)};
  }
  template <std::integral T>
  attribute<Name, attr_type::ints, std::vector<std::int64_t>> operator=(std::span<const T> v) {
    return {std::vector<std::int64_t>(v.begin(), v.end())};
  }
  template <std::integral T>
  attribute<Name, attr_type::ints, std::vector<std::int64_t>> operator=(const std::vector<T>& v) {
    return {std::vector<std::int64_t>(v.begin(), v.end())};
  }
};

template <fixed_string Name>
struct float_key {
  static constexpr std::string_view name = Name;
  template <class T>
  requires std::is_arithmetic_v<T>
  constexpr attribute<Name, attr_type::float_, float> operator=(T v) {
    return {static_cast<float>(v)};
  }
  attribute<Name, attr_type::floats, std::vector<float>> operator=(std::initializer_list<float> v) {
    return {std::vector<float>(v)};
  }
  template <class T>
  requires std::is_arithmetic_v<T> attribute<Name, attr_type::floats, std::vector<float>>
  operator=(const std::vector<T>& v) { return {std::vector<float>(v.begin(), v.end())}; }
};

namespace detail {
// Called, and so reported by the compiler, only when the check fails: the name is the message.
void string_literal_is_not_a_value_onnx_defines_for_this_attribute_name();

// A string that is not a string literal (an array of const char): one known at run time.
template <class S>
concept runtime_string = std::convertible_to<S, std::string_view> &&
    !(std::is_array_v<std::remove_reference_t<S>> && std::is_const_v<std::remove_reference_t<S>>);

// A value no overload of "name"_s = ... takes ("mode"_s = 3): one static_assert, not the list
// of every overload that does not match.
template <class T>
concept not_a_string =
    !std::convertible_to<T, std::string_view> && !std::convertible_to<T, std::vector<std::string>>;
template <class T>
inline constexpr bool string_attribute_given = false;
}  // namespace detail

// Clang reports through diagnose_if, whose message leads the error; GCC names the failing
// check in the first line through the non-constexpr function the constructor calls.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wgcc-compat"
#define RETARGET_VALUE_CHECK                                                                      \
  __attribute__((diagnose_if(!detail::known_attribute_value(Name, std::string_view(text, N - 1)), \
                             "retarget: string literal is not a value ONNX defines for this "     \
                             "attribute name",                                                    \
                             "error")))
#else
#define RETARGET_VALUE_CHECK
#endif

// The value of "name"_s = "literal", checked by the compiler: a name that some standard op
// enumerates (mode, auto_pad, direction, ...) takes only a value that one of them takes at some
// opset; the op's own list at the graph's opset is checked when the node is emitted.
template <fixed_string Name>
struct string_literal {
  template <std::size_t N>
  consteval string_literal(const char (&text)[N])  // NOLINT: implicit on purpose
      RETARGET_VALUE_CHECK : value(text, N - 1) {
#if !defined(__clang__)
    if (!detail::known_attribute_value(Name, value))
      detail::string_literal_is_not_a_value_onnx_defines_for_this_attribute_name();
#endif
  }
  std::string_view value;
};

#undef RETARGET_VALUE_CHECK
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

template <fixed_string Name>
struct string_key {
  static constexpr std::string_view name = Name;
  // A string literal: checked at compile time.
  attribute<Name, attr_type::string, std::string> operator=(string_literal<Name> v) {
    return {std::string(v.value)};
  }
  // Any other string (std::string, a const char* variable): checked when the node is emitted.
  template <detail::runtime_string S>
  attribute<Name, attr_type::string, std::string> operator=(S&& v) {
    return {std::string(std::string_view(v))};
  }
  attribute<Name, attr_type::strings, std::vector<std::string>> operator=(
      std::initializer_list<std::string_view> v) {
    return {std::vector<std::string>(v.begin(), v.end())};
  }
  attribute<Name, attr_type::strings, std::vector<std::string>> operator=(
      const std::vector<std::string>& v) {
    return {v};
  }
  template <detail::not_a_string T>
  attribute<Name, attr_type::string, std::string> operator=(T&&) {
    static_assert(detail::string_attribute_given<T>,
                  "retarget: a string attribute (\"name\"_s) is given a value that is not a "
                  "string: write a string, or the suffix of the value's kind (_i int, _f float, "
                  "_t tensor)");
    return {};
  }
};

template <fixed_string Name>
struct tensor_key {
  static constexpr std::string_view name = Name;
  attribute<Name, attr_type::tensor, tensor> operator=(tensor v) { return {std::move(v)}; }
  attribute<Name, attr_type::tensor, tensor> operator=(empty_tensor e) {
    return {tensor::empty(e.type)};
  }
  attribute<Name, attr_type::tensors, std::vector<tensor>> operator=(std::vector<tensor> v) {
    return {std::move(v)};
  }
};

template <fixed_string Name>
struct graph_key {
  static constexpr std::string_view name = Name;
  template <detail::graph_like G>
  attribute<Name, attr_type::graph, detail::graph_payload> operator=(const G& g) {
    return {detail::graph_payload(detail::graph_proto_of(g))};
  }
  template <detail::graph_like G>
  attribute<Name, attr_type::graphs, std::vector<detail::graph_payload>> operator=(
      const std::vector<G>& gs) {
    std::vector<detail::graph_payload> out;
    for (const auto& g : gs) out.emplace_back(detail::graph_proto_of(g));
    return {std::move(out)};
  }
};

}  // namespace retarget::ir

// An inline namespace: code inside namespace retarget sees the literals without a using;
// users write `using namespace retarget::literals;`.
namespace retarget {
inline namespace literals {
template <fixed_string Name>
constexpr ir::int_key<Name> operator""_i() noexcept {
  return {};
}
template <fixed_string Name>
constexpr ir::float_key<Name> operator""_f() noexcept {
  return {};
}
template <fixed_string Name>
constexpr ir::string_key<Name> operator""_s() noexcept {
  return {};
}
template <fixed_string Name>
constexpr ir::tensor_key<Name> operator""_t() noexcept {
  return {};
}
template <fixed_string Name>
constexpr ir::graph_key<Name> operator""_g() noexcept {
  return {};
}
}  // namespace literals
}  // namespace retarget

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/attribute_impl.hpp>
#endif

#endif  // RETARGET_IR_ATTRIBUTE_HPP
