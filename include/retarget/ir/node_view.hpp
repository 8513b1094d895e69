// A node, its attributes and its stored tensors as the layers above ir/ read them: read in
// place (nothing is copied; the model must outlive the view), the domain in canonical form,
// the node described the one way messages describe it.
//
//   const retarget::ir::node_view n(model.graph().node(0));
//   if (const auto t = n.attribute("transB"); n.op_type() == "Gemm" && t && t->i() == 1) ...
//   if (const auto a = n.attribute("value"); a && a->kind() == ir::attr_type::tensor)
//     std::vector<float> v = a->t().values<float>();
#ifndef RETARGET_IR_NODE_VIEW_HPP
#define RETARGET_IR_NODE_VIEW_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retarget::ir {

// A stored tensor (an initializer, a Constant's value, an attribute's tensor), read where it
// is. A default one is absent: an optional input not given.
class tensor_view {
 public:
  tensor_view() = default;
  // Implicit, so that a pointer that may be null (an absent input) is a view that may be absent.
  tensor_view(const onnx::TensorProto* p) noexcept : p_(p) {}   // NOLINT
  tensor_view(const onnx::TensorProto& p) noexcept : p_(&p) {}  // NOLINT
  tensor_view(const tensor& t) noexcept : p_(&t.proto()) {}     // NOLINT
  // A view of a temporary tensor would dangle once the statement ends: keep the tensor in a
  // variable, or view where it is stored (an initializer, an attribute).
  tensor_view(const tensor&&) = delete;

  explicit operator bool() const noexcept { return p_ != nullptr; }
  bool present() const noexcept { return p_ != nullptr; }

  RETARGET_COMPILED_DECL std::string_view name() const;
  RETARGET_COMPILED_DECL dtype type() const;
  RETARGET_COMPILED_DECL dims_t dims() const;
  std::int64_t element_count() const { return ir::element_count(dims()); }
  // Whether the bytes are in an external file; raw_bytes() has them when that file is mapped.
  RETARGET_COMPILED_DECL bool is_external() const;
  // The raw bytes, in the proto or mapped; nullopt for typed fields and unmapped external data.
  RETARGET_COMPILED_DECL std::optional<std::span<const std::byte>> raw_bytes() const;

  // The stored elements as T (see ir::for_each_value).
  template <class T>
  std::size_t stored_count() const {
    return ir::stored_count<T>(get());
  }
  template <class T, class F>
  void for_each_value(F&& f) const {
    ir::for_each_value<T>(get(), std::forward<F>(f));
  }
  template <class T>
  std::vector<T> values() const {
    return ir::values_of<T>(get());
  }

  // An owning copy, for a node or an initializer of another graph.
  RETARGET_COMPILED_DECL tensor copy() const;
  // An owning copy with other dims of as many elements, and no name: a new constant made of
  // this one's elements (a vector as [C, 1, 1]). retarget::error when the counts differ.
  RETARGET_COMPILED_DECL tensor reshaped(const dims_t& dims) const;

  // For the functions of ir/ that take the proto.
  const onnx::TensorProto& proto() const { return get(); }

  friend bool operator==(const tensor_view& a, const tensor_view& b) noexcept {
    return a.p_ == b.p_;
  }

 private:
  const onnx::TensorProto& get() const {
    if (!p_) throw error("retarget: reading an absent tensor");
    return *p_;
  }
  const onnx::TensorProto* p_ = nullptr;
};

// One attribute of a node: its name, its kind and its value read as that kind.
class attribute_view {
 public:
  explicit attribute_view(const onnx::AttributeProto& a) noexcept : a_(&a) {}

  RETARGET_COMPILED_DECL std::string_view name() const;
  RETARGET_COMPILED_DECL attr_type kind() const noexcept;

  RETARGET_COMPILED_DECL std::int64_t i() const;
  RETARGET_COMPILED_DECL float f() const;
  RETARGET_COMPILED_DECL const std::string& s() const;
  RETARGET_COMPILED_DECL std::vector<std::int64_t> ints() const;
  RETARGET_COMPILED_DECL std::vector<float> floats() const;
  RETARGET_COMPILED_DECL std::vector<std::string> strings() const;
  RETARGET_COMPILED_DECL tensor_view t() const;
  // Whether it holds a graph (If's branches, Loop's body, a GRAPHS list).
  RETARGET_COMPILED_DECL bool has_subgraph() const;

  // A copy (an onnx::AttributeProto) whose subgraphs (its GRAPH's, then each of its GRAPHS')
  // are rebuild(subgraph)'s. The copying is rebuilt_subgraphs's, out of line; the return type
  // is deduced, so that only a unit that calls this needs the complete message.
  template <class Rebuild>
  auto with_rebuilt_subgraphs(Rebuild&& rebuild) const {
    return rebuilt_subgraphs(
        &rebuild, [](const void* f, const onnx::GraphProto& from, onnx::GraphProto& to) {
          to = (*static_cast<std::remove_reference_t<Rebuild>*>(const_cast<void*>(f)))(from);
        });
  }

  // Whether the other attribute is this one: same name, kind and value.
  RETARGET_COMPILED_DECL bool same_as(const attribute_view& other) const;

  // Whether the other attribute holds the same value, of the same kind, whatever its name
  // (a node's attribute against a schema's default).
  RETARGET_COMPILED_DECL bool same_value(const attribute_view& other) const;

  // The attribute as the node has it, to be written into another node (ir::node_spec).
  const onnx::AttributeProto& proto() const noexcept { return *a_; }

 private:
  using rebuild_fn = void (*)(const void*, const onnx::GraphProto&, onnx::GraphProto&);
  // Called with a pointer to the template's Rebuild, so the call depends on it: a unit that
  // never instantiates with_rebuilt_subgraphs needs no complete AttributeProto.
  RETARGET_COMPILED_DECL onnx::AttributeProto rebuilt_subgraphs(const void* rebuild,
                                                                rebuild_fn call) const;

  const onnx::AttributeProto* a_;
};

// The attributes of a node to be emitted (ir::node_spec): a node's own, read as attribute_views,
// with others added from literals (attribute_entry) and some dropped.
class attribute_list {
 public:
  RETARGET_COMPILED_DECL attribute_list();
  // From entries (attribute_entry's, a node's attributes as they are).
  RETARGET_COMPILED_DECL attribute_list(std::initializer_list<onnx::AttributeProto> entries);
  RETARGET_COMPILED_DECL attribute_list(std::vector<onnx::AttributeProto> entries);  // NOLINT
  RETARGET_COMPILED_DECL attribute_list(std::initializer_list<runtime_attribute> entries);
  // A node's attributes as they are: {n.attribute().begin(), n.attribute().end()}.
  template <std::input_iterator It>
  attribute_list(It first, It last) : attribute_list() {
    for (; first != last; ++first) push_back(*first);
  }
  RETARGET_COMPILED_DECL attribute_list(const attribute_list& other);
  RETARGET_COMPILED_DECL attribute_list(attribute_list&& other) noexcept;
  RETARGET_COMPILED_DECL attribute_list& operator=(const attribute_list& other);
  RETARGET_COMPILED_DECL attribute_list& operator=(attribute_list&& other) noexcept;
  RETARGET_COMPILED_DECL ~attribute_list();

  // An attribute of another node, as it is.
  RETARGET_COMPILED_DECL void push_back(const attribute_view& a);
  // An entry made by attribute_entry.
  RETARGET_COMPILED_DECL void push_back(const runtime_attribute& entry);
  // A message made elsewhere (a unit that includes ir/proto.hpp).
  RETARGET_COMPILED_DECL void push_back(onnx::AttributeProto entry);

  RETARGET_COMPILED_DECL std::size_t size() const noexcept;
  bool empty() const noexcept { return size() == 0; }
  RETARGET_COMPILED_DECL attribute_view operator[](std::size_t i) const;
  RETARGET_COMPILED_DECL attribute_view back() const;

  // Read as attribute_views, in order.
  class const_iterator {
   public:
    using value_type = attribute_view;
    using difference_type = std::ptrdiff_t;
    const_iterator() = default;
    attribute_view operator*() const { return (*list_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      auto old = *this;
      ++i_;
      return old;
    }
    friend bool operator==(const const_iterator&, const const_iterator&) = default;

   private:
    friend class attribute_list;
    const_iterator(const attribute_list* list, std::size_t i) : list_(list), i_(i) {}
    const attribute_list* list_ = nullptr;
    std::size_t i_ = 0;
  };
  const_iterator begin() const { return const_iterator(this, 0); }
  const_iterator end() const { return const_iterator(this, size()); }

  // Drops each attribute `drop` says to (drop(attribute_view) is true).
  template <class Drop>
  void erase_if(Drop drop) {
    erase_where([&](const attribute_view& a) { return static_cast<bool>(drop(a)); });
  }

 private:
  friend class graph_base;  // writes them into the node it emits
  RETARGET_COMPILED_DECL void erase_where(const std::function<bool(const attribute_view&)>& drop);
  // Never null but after a move.
  std::unique_ptr<std::vector<onnx::AttributeProto>> items_;
};

namespace detail {
using attribute_writer = void (*)(const void*, onnx::AttributeProto&);
// What attribute_entry(literal) does: `write` writes the literal into a new AttributeProto.
RETARGET_COMPILED_DECL runtime_attribute written_attribute(const void* literal,
                                                           attribute_writer write);
}  // namespace detail

// An attribute for an attribute_list: from a literal ("axis"_i = 1), or with a name known only
// at run time (a STRING, an INTS). A runtime_attribute holds the message through a pointer, so
// a unit that makes entries needs no ONNX header.
template <class A>
requires detail::is_attribute<A> runtime_attribute attribute_entry(const A& literal) {
  return detail::written_attribute(
      &literal, [](const void* l, onnx::AttributeProto& a) { static_cast<const A*>(l)->write(a); });
}
RETARGET_COMPILED_DECL runtime_attribute attribute_entry(std::string_view name,
                                                         std::string_view value);
RETARGET_COMPILED_DECL runtime_attribute attribute_entry(std::string_view name,
                                                         const std::vector<std::int64_t>& values);

// Drops from the list each attribute `drop` says to (drop(attribute_view) is true).
template <class Drop>
void erase_attributes(attribute_list& list, Drop drop) {
  list.erase_if(std::move(drop));
}

// A node as messages name it: "Clip '/features/0/Clip'", or "Clip" when it has no name.
RETARGET_COMPILED_DECL std::string describe_node(const onnx::NodeProto& n);

class node_view {
 public:
  // Implicit: a node of a graph is read through its view wherever one is asked for.
  node_view(const onnx::NodeProto& n) noexcept : n_(&n) {}  // NOLINT

  RETARGET_COMPILED_DECL const std::string& op_type() const;
  // The domain in canonical form: "" for the default domain however it is spelled.
  RETARGET_COMPILED_DECL std::string_view domain() const;
  RETARGET_COMPILED_DECL bool in_default_domain() const;
  // Whether the node spells out its domain (an explicit "" too), and how.
  RETARGET_COMPILED_DECL bool has_domain() const;
  RETARGET_COMPILED_DECL const std::string& domain_as_written() const;
  RETARGET_COMPILED_DECL const std::string& name() const;
  RETARGET_COMPILED_DECL const std::string& doc_string() const;
  // "Clip '/features/0/Clip'": how every message names a node.
  std::string describe() const { return describe_node(*n_); }

  // Input and output names; an empty name is an absent optional input or output.
  RETARGET_COMPILED_DECL std::size_t input_count() const;
  RETARGET_COMPILED_DECL const std::string& input(std::size_t i) const;
  RETARGET_COMPILED_DECL std::vector<std::string> inputs() const;
  RETARGET_COMPILED_DECL std::size_t output_count() const;
  RETARGET_COMPILED_DECL const std::string& output(std::size_t i) const;
  RETARGET_COMPILED_DECL std::vector<std::string> outputs() const;

  RETARGET_COMPILED_DECL std::size_t attribute_count() const;
  RETARGET_COMPILED_DECL std::vector<attribute_view> attributes() const;
  // The attribute of that name, or nullopt when the node does not set it.
  RETARGET_COMPILED_DECL std::optional<attribute_view> attribute(std::string_view attr) const;
  // The attributes as they are, to be written into another node (ir::node_spec).
  RETARGET_COMPILED_DECL attribute_list attribute_protos() const;

  const onnx::NodeProto& proto() const noexcept { return *n_; }

 private:
  const onnx::NodeProto* n_;
};

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/node_view_impl.hpp>
#endif

#endif  // RETARGET_IR_NODE_VIEW_HPP
