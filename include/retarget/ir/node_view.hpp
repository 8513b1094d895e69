// A node, its attributes and its stored tensors as the layers above ir/ read them: read in
// place (nothing is copied; the model must outlive the view), the domain in canonical form,
// the node described the one way messages describe it.
//
//   const retarget::ir::node_view n(model.graph().node(0));
//   if (n.op_type() == "Gemm" && n.attribute("transB").value_or_int(0) == 1) ...
//   if (const auto a = n.attribute("value"); a && a->kind() == ir::attr_type::tensor)
//     std::vector<float> v = a->t().values<float>();
#ifndef RETARGET_IR_NODE_VIEW_HPP
#define RETARGET_IR_NODE_VIEW_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <retarget/core/error.hpp>
#include <retarget/ir/attribute.hpp>
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

  explicit operator bool() const noexcept { return p_ != nullptr; }
  bool present() const noexcept { return p_ != nullptr; }

  std::string_view name() const { return get().name(); }
  dtype type() const { return static_cast<dtype>(get().data_type()); }
  dims_t dims() const { return {get().dims().begin(), get().dims().end()}; }
  std::int64_t element_count() const { return ir::element_count(dims()); }
  // Whether the bytes are in an external file; raw_bytes() has them when that file is mapped.
  bool is_external() const { return get().data_location() == onnx::TensorProto::EXTERNAL; }
  // The raw bytes, in the proto or mapped; nullopt for typed fields and unmapped external data.
  std::optional<std::span<const std::byte>> raw_bytes() const { return ir::raw_bytes(get()); }

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
  tensor copy() const { return tensor(get()); }
  // An owning copy with other dims of as many elements, and no name: a new constant made of
  // this one's elements (a vector as [C, 1, 1]). retarget::error when the counts differ.
  tensor reshaped(const dims_t& dims) const {
    if (ir::element_count(dims) != element_count())
      throw error("retarget: cannot reshape a tensor of " + std::to_string(element_count()) +
                  " elements to dims of " + std::to_string(ir::element_count(dims)));
    tensor t = copy();
    t.proto().clear_dims();
    for (const auto d : dims) t.proto().add_dims(d);
    t.proto().clear_name();
    return t;
  }

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

  std::string_view name() const { return a_->name(); }
  attr_type kind() const noexcept { return static_cast<attr_type>(a_->type()); }

  std::int64_t i() const { return a_->i(); }
  float f() const { return a_->f(); }
  const std::string& s() const { return a_->s(); }
  std::vector<std::int64_t> ints() const { return {a_->ints().begin(), a_->ints().end()}; }
  std::vector<float> floats() const { return {a_->floats().begin(), a_->floats().end()}; }
  std::vector<std::string> strings() const { return {a_->strings().begin(), a_->strings().end()}; }
  tensor_view t() const { return tensor_view(a_->has_t() ? &a_->t() : nullptr); }
  // Whether it holds a graph (If's branches, Loop's body, a GRAPHS list).
  bool has_subgraph() const { return a_->has_g() || a_->graphs_size() > 0; }

  // A copy whose subgraphs (its GRAPH's, then each of its GRAPHS') are rebuild(subgraph)'s.
  template <class Rebuild>
  onnx::AttributeProto with_rebuilt_subgraphs(Rebuild&& rebuild) const {
    onnx::AttributeProto copy = *a_;
    copy.clear_g();
    copy.clear_graphs();
    if (a_->has_g()) *copy.mutable_g() = rebuild(a_->g());
    for (const auto& b : a_->graphs()) *copy.add_graphs() = rebuild(b);
    return copy;
  }

  // Whether the other attribute is this one: same name, kind and value.
  bool same_as(const attribute_view& other) const {
    return a_->SerializeAsString() == other.a_->SerializeAsString();
  }

  // Whether the other attribute holds the same value, of the same kind, whatever its name
  // (a node's attribute against a schema's default).
  bool same_value(const attribute_view& other) const {
    auto a = *a_, b = *other.a_;
    for (auto* x : {&a, &b}) {
      x->clear_name();
      x->clear_doc_string();
      x->clear_ref_attr_name();
    }
    return a.SerializeAsString() == b.SerializeAsString();
  }

  // The attribute as the node has it, to be written into another node (ir::node_spec).
  const onnx::AttributeProto& proto() const noexcept { return *a_; }

 private:
  const onnx::AttributeProto* a_;
};

// The attributes of a node to be emitted (ir::node_spec): a node's own, read as attribute_views,
// with others added from literals (attribute_entry) and some dropped.
class attribute_list {
 public:
  attribute_list() = default;
  // From entries (attribute_entry's, a node's attributes as they are).
  attribute_list(std::initializer_list<onnx::AttributeProto> entries) : items_(entries) {}
  attribute_list(std::vector<onnx::AttributeProto> entries)  // NOLINT
      : items_(std::move(entries)) {}
  // A node's attributes as they are: {n.attribute().begin(), n.attribute().end()}.
  template <std::input_iterator It>
  attribute_list(It first, It last) : items_(first, last) {}

  // An attribute of another node, as it is.
  void push_back(const attribute_view& a) { items_.push_back(a.proto()); }
  // An entry made by attribute_entry.
  void push_back(onnx::AttributeProto entry) { items_.push_back(std::move(entry)); }

  std::size_t size() const noexcept { return items_.size(); }
  bool empty() const noexcept { return items_.empty(); }
  attribute_view operator[](std::size_t i) const { return attribute_view(items_.at(i)); }
  attribute_view back() const { return attribute_view(items_.back()); }

  // Read as attribute_views, in order.
  class const_iterator {
   public:
    using value_type = attribute_view;
    using difference_type = std::ptrdiff_t;
    const_iterator() = default;
    attribute_view operator*() const { return attribute_view(*it_); }
    const_iterator& operator++() {
      ++it_;
      return *this;
    }
    const_iterator operator++(int) {
      auto old = *this;
      ++it_;
      return old;
    }
    friend bool operator==(const const_iterator&, const const_iterator&) = default;

   private:
    friend class attribute_list;
    explicit const_iterator(std::vector<onnx::AttributeProto>::const_iterator it) : it_(it) {}
    std::vector<onnx::AttributeProto>::const_iterator it_;
  };
  const_iterator begin() const { return const_iterator(items_.begin()); }
  const_iterator end() const { return const_iterator(items_.end()); }

  // Drops each attribute `drop` says to (drop(attribute_view) is true).
  template <class Drop>
  void erase_if(Drop drop) {
    std::erase_if(items_, [&](const onnx::AttributeProto& a) { return drop(attribute_view(a)); });
  }

 private:
  friend class graph_base;  // writes them into the node it emits
  std::vector<onnx::AttributeProto> items_;
};

// An attribute for an attribute_list: from a literal ("axis"_i = 1), or with a name known only
// at run time (a STRING, an INTS).
template <class A>
requires detail::is_attribute<A> onnx::AttributeProto attribute_entry(const A& literal) {
  onnx::AttributeProto a;
  literal.write(a);
  return a;
}
inline onnx::AttributeProto attribute_entry(std::string_view name, std::string_view value) {
  onnx::AttributeProto a;
  a.set_name(std::string(name));
  a.set_type(onnx::AttributeProto::STRING);
  a.set_s(std::string(value));
  return a;
}
inline onnx::AttributeProto attribute_entry(std::string_view name,
                                            const std::vector<std::int64_t>& values) {
  onnx::AttributeProto a;
  a.set_name(std::string(name));
  a.set_type(onnx::AttributeProto::INTS);
  for (const auto v : values) a.add_ints(v);
  return a;
}

// Drops from the list each attribute `drop` says to (drop(attribute_view) is true).
template <class Drop>
void erase_attributes(attribute_list& list, Drop drop) {
  list.erase_if(std::move(drop));
}

// A node as messages name it: "Clip '/features/0/Clip'", or "Clip" when it has no name.
inline std::string describe_node(const onnx::NodeProto& n) {
  return n.op_type() + (n.name().empty() ? std::string() : " '" + n.name() + "'");
}

class node_view {
 public:
  // Implicit: a node of a graph is read through its view wherever one is asked for.
  node_view(const onnx::NodeProto& n) noexcept : n_(&n) {}  // NOLINT

  const std::string& op_type() const { return n_->op_type(); }
  // The domain in canonical form: "" for the default domain however it is spelled.
  std::string_view domain() const { return canonical_domain(n_->domain()); }
  bool in_default_domain() const { return is_default_domain(n_->domain()); }
  // Whether the node spells out its domain (an explicit "" too), and how.
  bool has_domain() const { return n_->has_domain(); }
  const std::string& domain_as_written() const { return n_->domain(); }
  const std::string& name() const { return n_->name(); }
  const std::string& doc_string() const { return n_->doc_string(); }
  // "Clip '/features/0/Clip'": how every message names a node.
  std::string describe() const { return describe_node(*n_); }

  // Input and output names; an empty name is an absent optional input or output.
  std::size_t input_count() const { return static_cast<std::size_t>(n_->input_size()); }
  const std::string& input(std::size_t i) const { return n_->input(static_cast<int>(i)); }
  std::vector<std::string> inputs() const { return {n_->input().begin(), n_->input().end()}; }
  std::size_t output_count() const { return static_cast<std::size_t>(n_->output_size()); }
  const std::string& output(std::size_t i) const { return n_->output(static_cast<int>(i)); }
  std::vector<std::string> outputs() const { return {n_->output().begin(), n_->output().end()}; }

  std::size_t attribute_count() const { return static_cast<std::size_t>(n_->attribute_size()); }
  std::vector<attribute_view> attributes() const {
    std::vector<attribute_view> out;
    for (const auto& a : n_->attribute()) out.emplace_back(a);
    return out;
  }
  // The attribute of that name, or nullopt when the node does not set it.
  std::optional<attribute_view> attribute(std::string_view attr) const {
    for (const auto& a : n_->attribute())
      if (a.name() == attr) return attribute_view(a);
    return std::nullopt;
  }
  // The attributes as they are, to be written into another node (ir::node_spec).
  attribute_list attribute_protos() const {
    attribute_list out;
    for (const auto& a : n_->attribute()) out.push_back(attribute_view(a));
    return out;
  }

  const onnx::NodeProto& proto() const noexcept { return *n_; }

 private:
  const onnx::NodeProto* n_;
};

}  // namespace retarget::ir

#endif  // RETARGET_IR_NODE_VIEW_HPP
