// The op name of g.op: a string literal checked at compile time against the op schemas,
// together with the types of the call's arguments, in the manner of {fmt}'s checked format
// strings; or a runtime name (runtime_op) checked when the node is emitted.
//
//   g.op("Resize", x, roi, scales, "mode"_s = "cubic");   // checked by the compiler
//   g.op(retarget::runtime_op(name), x);                  // checked at emission
#ifndef RETARGET_IR_OP_NAME_HPP
#define RETARGET_IR_OP_NAME_HPP

#include <algorithm>
#include <climits>
#include <cstddef>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/schema.hpp>
#include <string>
#include <string_view>
#include <type_traits>

namespace retarget {

// An op name known only at run time: "Op" or "domain::Op".
struct runtime_op {
  std::string name;
  explicit runtime_op(std::string n) : name(std::move(n)) {}
};

namespace ir {

class value;
// An absent optional input (an empty name in the node's input list).
struct no_input_t {};
inline constexpr no_input_t no_input{};

namespace detail {

// The kinds of argument g.op takes after the name.
template <class T>
inline constexpr bool is_single_input = std::is_same_v<T, value> || std::is_same_v<T, no_input_t>;
template <class T>
inline constexpr bool is_input_list = requires(const T& t) {
  { *std::begin(t) } -> std::convertible_to<const value&>;
};

enum class op_check : int {
  ok,
  unknown_op,
  unknown_custom_op,
  unknown_attribute,
  attribute_is_an_input,
  attribute_kind_mismatch,
  too_many_inputs,
  too_few_inputs,
};

template <class Schemas, class... Args>
constexpr op_check check_op(std::string_view full_name) noexcept {
  const auto [domain, name] = split_op_name(full_name);
  int min_inputs = 0, max_inputs = 0;
  // Look the op up: the generated table for standard domains, the user's schemas otherwise.
  const detail::op_entry* builtin = nullptr;
  // Copied: clang 16 cannot evaluate a structured binding captured by a lambda.
  const std::string_view op = name;
  const bool domain_is_default = canonical_domain(domain).empty();
  const op_schema* custom = nullptr;
  if (is_standard_domain(domain)) {
    builtin = find_builtin(domain, name);
    if (!builtin) return op_check::unknown_op;
    min_inputs = builtin->min_inputs;
    max_inputs = builtin->max_inputs;
  } else {
    for (const auto& s : Schemas::all)
      if (s.domain == domain && s.name == name) custom = &s;
    if (!custom) return op_check::unknown_custom_op;
    min_inputs = custom->min_inputs;
    max_inputs = custom->max_inputs;
  }

  // Is (attribute name, kind) declared for the op? 0: no such name, 1: other kind, 2: yes.
  auto lookup = [&](std::string_view attr, attr_type kind) {
    int found = 0;
    if (builtin) {
      for (const auto& a : builtin_attributes(*builtin))
        if (a.name == attr) found = std::max(found, a.type == static_cast<int>(kind) ? 2 : 1);
    } else {
      for (const auto& a : custom->attributes)
        if (a.name == attr) found = std::max(found, a.type == kind ? 2 : 1);
    }
    return found;
  };

  op_check result = op_check::ok;
  int inputs = 0;
  bool variadic = false;
  [[maybe_unused]] auto visit = [&]<class A>(std::type_identity<A>) {
    if (result != op_check::ok) return;
    if constexpr (is_single_input<A>) {
      ++inputs;
    } else if constexpr (is_input_list<A>) {
      variadic = true;
    } else if constexpr (requires {
                           A::name;
                           A::type;
                         }) {
      const int found = lookup(A::name, A::type);
      if (found == 0)
        // Resize's scales, Slice's steps: never attributes, always inputs.
        result = builtin && domain_is_default && moved_to_input(op, A::name, 0)
                     ? op_check::attribute_is_an_input
                     : op_check::unknown_attribute;
      else if (found == 1)
        result = op_check::attribute_kind_mismatch;
    }
  };
  (visit(std::type_identity<std::remove_cvref_t<Args>>{}), ...);
  if (result != op_check::ok) return result;
  if (inputs > max_inputs) return op_check::too_many_inputs;
  if (!variadic && inputs < min_inputs) return op_check::too_few_inputs;
  return op_check::ok;
}

// Called, and so reported by the compiler, only when a check fails: each name is its message.
void onnx_op_name_is_unknown_to_the_onnx_schemas();
void custom_domain_op_has_no_declared_schema();
void attribute_name_is_not_in_the_ops_schema();
void attribute_is_one_of_the_ops_inputs_not_an_attribute();
void attribute_kind_does_not_match_the_ops_schema();
void op_is_given_more_inputs_than_its_schema_allows();
void op_is_given_fewer_inputs_than_its_schema_requires();

constexpr void report(op_check r) {
  switch (r) {
    case op_check::ok:
      break;
    case op_check::unknown_op:
      onnx_op_name_is_unknown_to_the_onnx_schemas();
      break;
    case op_check::unknown_custom_op:
      custom_domain_op_has_no_declared_schema();
      break;
    case op_check::unknown_attribute:
      attribute_name_is_not_in_the_ops_schema();
      break;
    case op_check::attribute_is_an_input:
      attribute_is_one_of_the_ops_inputs_not_an_attribute();
      break;
    case op_check::attribute_kind_mismatch:
      attribute_kind_does_not_match_the_ops_schema();
      break;
    case op_check::too_many_inputs:
      op_is_given_more_inputs_than_its_schema_allows();
      break;
    case op_check::too_few_inputs:
      op_is_given_fewer_inputs_than_its_schema_requires();
      break;
  }
}

}  // namespace detail

// Clang reports through diagnose_if, whose message leads the error; GCC names the failing
// check in the first line through the non-constexpr function that report() calls.
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wgcc-compat"
#define RETARGET_OP_CHECK(result, message) \
  __attribute__((                          \
      diagnose_if(detail::check_op<Schemas, Args...>(literal) == result, message, "error")))
#define RETARGET_OP_CHECKS                                                             \
  RETARGET_OP_CHECK(detail::op_check::unknown_op,                                      \
                    "retarget: ONNX op name is unknown to the ONNX schemas")           \
  RETARGET_OP_CHECK(detail::op_check::unknown_custom_op,                               \
                    "retarget: custom-domain op has no declared schema")               \
  RETARGET_OP_CHECK(detail::op_check::unknown_attribute,                               \
                    "retarget: attribute name is not in the op's schema")              \
  RETARGET_OP_CHECK(detail::op_check::attribute_is_an_input,                           \
                    "retarget: attribute is one of the op's inputs, not an attribute") \
  RETARGET_OP_CHECK(detail::op_check::attribute_kind_mismatch,                         \
                    "retarget: attribute kind does not match the op's schema")         \
  RETARGET_OP_CHECK(detail::op_check::too_many_inputs,                                 \
                    "retarget: op is given more inputs than its schema allows")        \
  RETARGET_OP_CHECK(detail::op_check::too_few_inputs,                                  \
                    "retarget: op is given fewer inputs than its schema requires")
#else
#define RETARGET_OP_CHECKS
#endif

template <class Schemas, class... Args>
class basic_op_name {
 public:
  template <std::size_t N>
  consteval basic_op_name(const char (&literal)[N])
      RETARGET_OP_CHECKS  // NOLINT: implicit on purpose
      : full_(literal, N - 1),
        checked_(true) {
#if !defined(__clang__)
    detail::report(detail::check_op<Schemas, Args...>(full_));
#endif
  }
  // Refers to the runtime_op, which outlives the g.op call it is written in.
  basic_op_name(const runtime_op& op) : full_(op.name), checked_(false) {}  // NOLINT

  std::string_view full() const noexcept { return full_; }
  std::string_view domain() const noexcept { return split_op_name(full_).first; }
  std::string_view type() const noexcept { return split_op_name(full_).second; }
  // Whether the compiler has checked it (the emitter checks every node again at its opset).
  bool checked_at_compile_time() const noexcept { return checked_; }

 private:
  std::string_view full_;
  bool checked_;
};

#undef RETARGET_OP_CHECK
#undef RETARGET_OP_CHECKS
#if defined(__clang__)
#pragma clang diagnostic pop
#endif

// Compile-time validity of an op call, for static_assert-based tests:
//   using mode = decltype("mode"_s = "cubic");  // clang checks the literal here too
//   static_assert(retarget::ir::op_call_valid<no_schemas, value, mode>("Resize"));
template <class Schemas, class... Args>
constexpr bool op_call_valid(std::string_view full_name) noexcept {
  return detail::check_op<Schemas, Args...>(full_name) == detail::op_check::ok;
}

}  // namespace ir
}  // namespace retarget

#endif  // RETARGET_IR_OP_NAME_HPP
