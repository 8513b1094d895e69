// Op schemas: the built-in table generated from the ONNX library, and schemas that users
// declare for ops of their own domains, so those ops are checked, at compile time and at
// emission, and shape-inferred like standard ones.
//
//   inline constexpr retarget::ir::attribute_schema resize_attributes[] = {
//       {"align_corners", retarget::ir::attr_type::int_}};
//   inline constexpr retarget::ir::op_schema my_ops[] = {
//       {.domain = "mmdeploy", .name = "DynamicTRTResize", .min_inputs = 2, .max_inputs = 2,
//        .attributes = resize_attributes}};
//   retarget::ir::basic_graph<retarget::ir::schemas<my_ops>> g;
#ifndef RETARGET_IR_SCHEMA_HPP
#define RETARGET_IR_SCHEMA_HPP

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <iterator>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/detail/attribute_values.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/detail/schema_table.hpp>
#include <retarget/ir/domain.hpp>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace onnx {
struct InferenceContext;
}

namespace retarget::ir {

struct attribute_schema {
  std::string_view name;
  attr_type type;
  bool required = false;
};

// Fills the output types (and shapes, where it can) of a node of a custom op.
using shape_function = void (*)(onnx::InferenceContext&);

struct op_schema {
  std::string_view domain;
  std::string_view name;
  int since_version = 1;
  int min_inputs = 1;
  int max_inputs = 1;
  int min_outputs = 1;
  int max_outputs = 1;
  std::span<const attribute_schema> attributes = {};
  // Without one, output 0 takes input 0's element type and no shape.
  shape_function infer = nullptr;
  std::string_view doc = {};
};

// A set of user-declared schemas: schemas<array1, array2, ...> of constexpr op_schema arrays.
template <const auto&... Arrays>
struct schemas {
  static constexpr std::size_t size = (std::size(Arrays) + ... + 0);
  static constexpr std::array<op_schema, size> all = [] {
    std::array<op_schema, size> out{};
    [[maybe_unused]] std::size_t i = 0;
    ((std::ranges::copy(Arrays, out.begin() + static_cast<std::ptrdiff_t>(i)),
      i += std::size(Arrays)),
     ...);
    return out;
  }();
};
using no_schemas = schemas<>;

// "domain::Op" → ("domain", "Op"); "Op" → ("", "Op").
constexpr std::pair<std::string_view, std::string_view> split_op_name(
    std::string_view full) noexcept {
  const auto sep = full.find("::");
  if (sep == std::string_view::npos) return {{}, full};
  return {full.substr(0, sep), full.substr(sep + 2)};
}

namespace detail {

// The merged entry of a built-in op, or nullptr. Binary search over the sorted table.
constexpr const op_entry* find_builtin(std::string_view domain, std::string_view name) noexcept {
  domain = canonical_domain(domain);
  const auto key = std::pair(domain, name);
  const auto it = std::lower_bound(
      std::begin(schema_ops), std::end(schema_ops), key,
      [](const op_entry& e, const auto& k) { return std::pair(e.domain, e.name) < k; });
  return it != std::end(schema_ops) && it->domain == domain && it->name == name ? &*it : nullptr;
}

constexpr std::span<const attribute_entry> builtin_attributes(const op_entry& e) noexcept {
  return {schema_attributes + e.first_attribute, e.attribute_count};
}

}  // namespace detail

// ---- The built-in table, for compile-time checks in other layers ----

// Whether an op of a standard domain ("Relu", "ai.onnx.ml::TreeEnsembleRegressor") is known
// to the ONNX library retarget was generated from.
constexpr bool is_onnx_op(std::string_view full_name) noexcept {
  const auto [domain, name] = split_op_name(full_name);
  return is_standard_domain(domain) && detail::find_builtin(domain, name) != nullptr;
}

// The kind of an attribute of a standard op (at any of its versions), or attr_type::undefined
// when the op has no such attribute.
constexpr attr_type onnx_attribute_type(std::string_view full_name,
                                        std::string_view attribute) noexcept {
  const auto [domain, name] = split_op_name(full_name);
  const auto* op = is_standard_domain(domain) ? detail::find_builtin(domain, name) : nullptr;
  if (!op) return attr_type::undefined;
  for (const auto& a : detail::builtin_attributes(*op))
    if (a.name == attribute) return static_cast<attr_type>(a.type);
  return attr_type::undefined;
}

// The ops of the default domain, in name order: onnx_op_name(0 .. onnx_op_count() - 1).
constexpr std::size_t onnx_op_count() noexcept {
  return static_cast<std::size_t>(
      std::count_if(std::begin(detail::schema_ops), std::end(detail::schema_ops),
                    [](const detail::op_entry& e) { return e.domain.empty(); }));
}
constexpr std::string_view onnx_op_name(std::size_t i) noexcept {
  for (const auto& e : detail::schema_ops)
    if (e.domain.empty() && i-- == 0) return e.name;
  return {};
}
// All of them at once, in one pass over the table (onnx_op_name is a pass per name).
inline constexpr auto onnx_op_names = [] {
  std::array<std::string_view, onnx_op_count()> names{};
  std::size_t i = 0;
  for (const auto& e : detail::schema_ops)
    if (e.domain.empty()) names[i++] = e.name;
  return names;
}();
// Shared access to ONNX's schema registry, for code that calls ONNX itself (its shape
// inference, its version converter) while another thread may register schemas: hold one for
// the call.
using schema_registry_reader = detail::schema_registry_reader;

// The first and the last since_version of an op's schemas ({0, 0} for an op ONNX lacks): the
// opsets at which its schema can change.
constexpr std::pair<int, int> onnx_op_versions(std::string_view full_name) noexcept {
  const auto [domain, name] = split_op_name(full_name);
  const auto* op = is_standard_domain(domain) ? detail::find_builtin(domain, name) : nullptr;
  return op ? std::pair(op->first_version, op->last_version) : std::pair(0, 0);
}
// The input counts its schemas allow, over all versions (max is INT_MAX when variadic).
constexpr std::pair<int, int> onnx_op_inputs(std::string_view full_name) noexcept {
  const auto [domain, name] = split_op_name(full_name);
  const auto* op = is_standard_domain(domain) ? detail::find_builtin(domain, name) : nullptr;
  return op ? std::pair(op->min_inputs, op->max_inputs) : std::pair(0, 0);
}

// ---- Enumerated string attributes, and attributes that became inputs ----

// A row of the hand-written table of the values an enumerated string attribute of a standard
// op takes (space-separated), in opsets since..until (until is INT_MAX for "and later"); and a
// row of the table of attributes that became inputs (input is 0-based).
using onnx_enum_row = detail::enum_row;
using onnx_moved_row = detail::moved_row;
constexpr std::span<const onnx_enum_row> onnx_enumerated_attributes() noexcept {
  return detail::enum_rows;
}
constexpr std::span<const onnx_moved_row> onnx_attributes_made_inputs() noexcept {
  return detail::moved_rows;
}

// Whether the op takes the value for the attribute at the opset: false only when the attribute
// is enumerated for a default-domain op at that opset and the value is not one of its values.
// What emission checks.
constexpr bool onnx_attribute_value_valid(std::string_view full_name, std::string_view attribute,
                                          std::string_view value, int opset) noexcept {
  const auto [domain, name] = split_op_name(full_name);
  if (!canonical_domain(domain).empty()) return true;
  const auto* row = detail::enum_row_of(name, attribute, opset);
  return !row || detail::row_has(*row, value);
}

// Whether some standard op, at some opset, takes the value for an enumerated attribute of that
// name (true when none enumerates it): what "name"_s = "literal" is checked against at
// compile time.
constexpr bool onnx_attribute_value_known(std::string_view attribute,
                                          std::string_view value) noexcept {
  return detail::known_attribute_value(attribute, value);
}

// ---- Registering custom schemas with the ONNX library, once per schema ----
// (A shape function reads its node through ONNX's <onnx/defs/shape_inference.h>, which a unit
// that writes one includes.)

namespace detail {

// Output 0 takes input 0's element type: the shape function of a custom op without one.
RETARGET_COMPILED_DECL void infer_first_input_type(onnx::InferenceContext& ctx);

// Counts the schemas register_schemas added (written under the registry's lock).
inline std::size_t& schema_generation() {
  static std::size_t generation = 0;
  return generation;
}

// The op names of a domain, for the suggestions of an unknown-op error, in name order.
RETARGET_LAZY_DECL std::vector<std::string> op_names_of(const std::string& domain);

}  // namespace detail

// A ready shape function for element-wise custom ops: output 0 is like input 0.
RETARGET_COMPILED_DECL void same_as_first_input(onnx::InferenceContext& ctx);

// Adds the schemas to ONNX's registry (checker, shape inference), and their domains to its
// known domains. Safe to call from several threads and more than once, and while other threads
// emit, check or infer: they wait while a schema is added.
RETARGET_LAZY_DECL void register_schemas(std::span<const op_schema> list);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/schema_impl.hpp>
#endif

#endif  // RETARGET_IR_SCHEMA_HPP
