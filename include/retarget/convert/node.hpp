// A node of an existing model as a rewrite sees it: its op, its attributes, and its inputs as
// values of the graph being built (already converted), so a rewrite can ask their shapes and
// emit through the checked emitter. node_of<"Op"> reads attributes by their checked keys:
//
//   float eps = n["epsilon"_f].value_or(1e-5f);   // "epsilon" must be a FLOAT of the op
#ifndef RETARGET_CONVERT_NODE_HPP
#define RETARGET_CONVERT_NODE_HPP

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <retarget/core/error.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/schema.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::convert {

class node {
 public:
  // `attributes` are the node's, with any subgraph already rebuilt in the new graph.
  node(ir::node_view source, std::vector<ir::value> inputs, ir::attribute_list attributes)
      : source_(source),
        inputs_(std::move(inputs)),
        attributes_(std::make_shared<const ir::attribute_list>(std::move(attributes))) {}

  // The node as the model has it (its attributes before any subgraph was rebuilt).
  const ir::node_view& source() const noexcept { return source_; }
  const std::string& op_type() const { return source_.op_type(); }
  // The domain in canonical form: "" for the default domain however it is spelled.
  std::string_view domain() const { return source_.domain(); }
  const std::string& name() const { return source_.name(); }
  // "Relu 'conv1/relu'" or "Relu", for messages (ir::describe_node).
  std::string describe() const { return source_.describe(); }

  std::size_t input_count() const noexcept { return inputs_.size(); }
  bool has_input(std::size_t i) const noexcept { return i < inputs_.size() && inputs_[i].valid(); }
  // Input i; retarget::error naming the node when it is absent.
  const ir::value& input(std::size_t i) const {
    if (!has_input(i))
      throw error("retarget: " + describe() + " has no input " + std::to_string(i));
    return inputs_[i];
  }
  const std::vector<ir::value>& inputs() const noexcept { return inputs_; }
  std::size_t output_count() const { return source_.output_count(); }
  const std::string& output_name(std::size_t i) const { return source_.output(i); }

  const ir::attribute_list& attributes() const noexcept { return *attributes_; }
  // The attribute of that name (any subgraph rebuilt), or nullopt when the node does not set it.
  std::optional<ir::attribute_view> attribute(std::string_view attr) const {
    for (const auto& a : *attributes_)
      if (a.name() == attr) return ir::attribute_view(a);
    return std::nullopt;
  }

  // The node as it was: same op, inputs, attributes, output names, name and doc string.
  std::vector<ir::value> emit_unchanged(ir::graph_base& g) const {
    ir::node_spec spec;
    spec.op_type = op_type();
    if (source_.has_domain()) spec.domain = std::string(source_.domain_as_written());
    spec.inputs = inputs_;
    spec.attributes = *attributes_;
    spec.outputs = source_.outputs();
    spec.name = name();
    spec.doc_string = source_.doc_string();
    return g.emit(std::move(spec));
  }

 private:
  ir::node_view source_;
  std::vector<ir::value> inputs_;
  // Shared: node_of copies of a node are made per rewrite call.
  std::shared_ptr<const ir::attribute_list> attributes_;
};

namespace detail {

// What reading an attribute of kind T gives.
template <ir::attr_type T>
auto read_attribute(const ir::attribute_view& a) {
  using ir::attr_type;
  if constexpr (T == attr_type::int_)
    return a.i();
  else if constexpr (T == attr_type::float_)
    return a.f();
  else if constexpr (T == attr_type::string)
    return a.s();
  else if constexpr (T == attr_type::ints)
    return a.ints();
  else if constexpr (T == attr_type::floats)
    return a.floats();
  else if constexpr (T == attr_type::strings)
    return a.strings();
  else if constexpr (T == attr_type::tensor)
    return a.t().copy();
  else
    return a;
}

// The kinds a literal's key may read: _i reads INT or INTS, _f FLOAT or FLOATS, _s STRING or
// STRINGS, _t TENSOR.
template <class Key>
inline constexpr std::pair<ir::attr_type, ir::attr_type> key_kinds{ir::attr_type::undefined,
                                                                   ir::attr_type::undefined};
template <fixed_string N>
inline constexpr auto key_kinds<ir::int_key<N>> = std::pair(ir::attr_type::int_,
                                                            ir::attr_type::ints);
template <fixed_string N>
inline constexpr auto key_kinds<ir::float_key<N>> = std::pair(ir::attr_type::float_,
                                                              ir::attr_type::floats);
template <fixed_string N>
inline constexpr auto key_kinds<ir::string_key<N>> = std::pair(ir::attr_type::string,
                                                               ir::attr_type::strings);
template <fixed_string N>
inline constexpr auto key_kinds<ir::tensor_key<N>> = std::pair(ir::attr_type::tensor,
                                                               ir::attr_type::tensor);

// The attribute name a literal's key carries ("epsilon" of "epsilon"_f).
template <class Key>
struct key_name {
  static constexpr std::string_view value = Key::name;
};

// The attribute's kind in Op's schema, when the key may read it; undefined otherwise.
template <fixed_string Op, class Key>
constexpr ir::attr_type checked_kind() {
  constexpr auto kind = ir::onnx_attribute_type(Op, key_name<Key>::value);
  constexpr auto allowed = key_kinds<Key>;
  return kind == allowed.first || kind == allowed.second ? kind : ir::attr_type::undefined;
}

// Reads the attribute `a` (an optional attribute_view, or a pointer to the attribute; empty or
// null: not set) of an Op node by a literal's key, checking the key's name and kind against
// Op's schema at compile time.
template <fixed_string Op, class Key, class Found>
auto read_checked(const Found& a) {
  constexpr auto schema_kind = ir::onnx_attribute_type(Op, key_name<Key>::value);
  static_assert(schema_kind != ir::attr_type::undefined,
                "retarget: attribute name is not in the op's schema");
  constexpr auto kind = checked_kind<Op, Key>();
  static_assert(schema_kind == ir::attr_type::undefined || kind != ir::attr_type::undefined,
                "retarget: attribute kind does not match the op's schema");
  constexpr auto read_as = kind == ir::attr_type::undefined ? ir::attr_type::int_ : kind;
  using result = decltype(read_attribute<read_as>(std::declval<ir::attribute_view>()));
  return a ? std::optional<result>(read_attribute<read_as>(ir::attribute_view(*a))) : std::nullopt;
}

template <class Key>
concept attribute_key = key_kinds<Key>
.first != ir::attr_type::undefined;

}  // namespace detail

// A node whose op is known at compile time: its attributes are read by checked keys.
template <fixed_string Op>
class node_of : public node {
 public:
  static constexpr std::string_view op = Op;
  explicit node_of(const node& n) : node(n) {}

  // The attribute's value, or nullopt when the node does not set it. The key's name must be
  // an attribute of Op, of the key's kind.
  template <detail::attribute_key Key>
  auto operator[](Key) const {
    return detail::read_checked<Op, Key>(attribute(detail::key_name<Key>::value));
  }
};

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_NODE_HPP
