// The definitions of node_view.hpp's readers of nodes, attributes and stored tensors, and of
// attribute_list (see linkage.hpp for where they are compiled).
#ifndef RETARGET_IR_DETAIL_NODE_VIEW_IMPL_HPP
#define RETARGET_IR_DETAIL_NODE_VIEW_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/deep_ptr_impl.hpp>
#include <retarget/ir/node_view.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retarget::ir {

// ---- tensor_view ----

RETARGET_COMPILED_DECL std::string_view tensor_view::name() const { return get().name(); }
RETARGET_COMPILED_DECL dtype tensor_view::type() const {
  return static_cast<dtype>(get().data_type());
}
RETARGET_COMPILED_DECL dims_t tensor_view::dims() const {
  return {get().dims().begin(), get().dims().end()};
}
RETARGET_COMPILED_DECL bool tensor_view::is_external() const {
  return get().data_location() == onnx::TensorProto::EXTERNAL;
}
RETARGET_COMPILED_DECL std::optional<std::span<const std::byte>> tensor_view::raw_bytes() const {
  return ir::raw_bytes(get());
}
RETARGET_COMPILED_DECL tensor tensor_view::copy() const { return tensor(get()); }
RETARGET_COMPILED_DECL tensor tensor_view::reshaped(const dims_t& dims) const {
  if (ir::element_count(dims) != element_count())
    throw error("retarget: cannot reshape a tensor of " + std::to_string(element_count()) +
                " elements to dims of " + std::to_string(ir::element_count(dims)));
  tensor t = copy();
  t.proto().clear_dims();
  for (const auto d : dims) t.proto().add_dims(d);
  t.proto().clear_name();
  return t;
}

// ---- attribute_view ----

RETARGET_COMPILED_DECL std::string_view attribute_view::name() const { return a_->name(); }
RETARGET_COMPILED_DECL attr_type attribute_view::kind() const noexcept {
  return static_cast<attr_type>(a_->type());
}
RETARGET_COMPILED_DECL std::int64_t attribute_view::i() const { return a_->i(); }
RETARGET_COMPILED_DECL float attribute_view::f() const { return a_->f(); }
RETARGET_COMPILED_DECL const std::string& attribute_view::s() const { return a_->s(); }
RETARGET_COMPILED_DECL std::vector<std::int64_t> attribute_view::ints() const {
  return {a_->ints().begin(), a_->ints().end()};
}
RETARGET_COMPILED_DECL std::vector<float> attribute_view::floats() const {
  return {a_->floats().begin(), a_->floats().end()};
}
RETARGET_COMPILED_DECL std::vector<std::string> attribute_view::strings() const {
  return {a_->strings().begin(), a_->strings().end()};
}
RETARGET_COMPILED_DECL tensor_view attribute_view::t() const {
  return tensor_view(a_->has_t() ? &a_->t() : nullptr);
}
RETARGET_COMPILED_DECL bool attribute_view::has_subgraph() const {
  return a_->has_g() || a_->graphs_size() > 0;
}
RETARGET_COMPILED_DECL onnx::AttributeProto attribute_view::rebuilt_subgraphs(
    const void* rebuild, rebuild_fn call) const {
  onnx::AttributeProto copy = *a_;
  copy.clear_g();
  copy.clear_graphs();
  if (a_->has_g()) call(rebuild, a_->g(), *copy.mutable_g());
  for (const auto& b : a_->graphs()) call(rebuild, b, *copy.add_graphs());
  return copy;
}
RETARGET_COMPILED_DECL bool attribute_view::same_as(const attribute_view& other) const {
  return a_->SerializeAsString() == other.a_->SerializeAsString();
}
RETARGET_COMPILED_DECL bool attribute_view::same_value(const attribute_view& other) const {
  auto a = *a_, b = *other.a_;
  for (auto* x : {&a, &b}) {
    x->clear_name();
    x->clear_doc_string();
    x->clear_ref_attr_name();
  }
  return a.SerializeAsString() == b.SerializeAsString();
}

// ---- attribute_list ----

RETARGET_COMPILED_DECL attribute_list::attribute_list()
    : items_(std::make_unique<std::vector<onnx::AttributeProto>>()) {}
RETARGET_COMPILED_DECL attribute_list::attribute_list(
    std::initializer_list<onnx::AttributeProto> entries)
    : items_(std::make_unique<std::vector<onnx::AttributeProto>>(entries)) {}
RETARGET_COMPILED_DECL attribute_list::attribute_list(std::vector<onnx::AttributeProto> entries)
    : items_(std::make_unique<std::vector<onnx::AttributeProto>>(std::move(entries))) {}
RETARGET_COMPILED_DECL attribute_list::attribute_list(
    std::initializer_list<runtime_attribute> entries)
    : attribute_list() {
  for (const auto& e : entries) items_->push_back(*e.proto);
}
RETARGET_COMPILED_DECL attribute_list::attribute_list(const attribute_list& other)
    : items_(std::make_unique<std::vector<onnx::AttributeProto>>(*other.items_)) {}
RETARGET_COMPILED_DECL attribute_list::attribute_list(attribute_list&& other) noexcept
    : items_(std::move(other.items_)) {}
RETARGET_COMPILED_DECL attribute_list& attribute_list::operator=(const attribute_list& other) {
  if (this != &other) items_ = std::make_unique<std::vector<onnx::AttributeProto>>(*other.items_);
  return *this;
}
RETARGET_COMPILED_DECL attribute_list& attribute_list::operator=(attribute_list&& other) noexcept {
  items_ = std::move(other.items_);
  return *this;
}
RETARGET_COMPILED_DECL attribute_list::~attribute_list() = default;

RETARGET_COMPILED_DECL void attribute_list::push_back(const attribute_view& a) {
  items_->push_back(a.proto());
}
RETARGET_COMPILED_DECL void attribute_list::push_back(const runtime_attribute& entry) {
  items_->push_back(*entry.proto);
}
RETARGET_COMPILED_DECL void attribute_list::push_back(onnx::AttributeProto entry) {
  items_->push_back(std::move(entry));
}
RETARGET_COMPILED_DECL std::size_t attribute_list::size() const noexcept { return items_->size(); }
RETARGET_COMPILED_DECL attribute_view attribute_list::operator[](std::size_t i) const {
  return attribute_view(items_->at(i));
}
RETARGET_COMPILED_DECL attribute_view attribute_list::back() const {
  return attribute_view(items_->back());
}
RETARGET_COMPILED_DECL void attribute_list::erase_where(
    const std::function<bool(const attribute_view&)>& drop) {
  std::erase_if(*items_, [&](const onnx::AttributeProto& a) { return drop(attribute_view(a)); });
}

// ---- attribute entries ----

RETARGET_COMPILED_DECL runtime_attribute detail::written_attribute(const void* literal,
                                                                   attribute_writer write) {
  runtime_attribute entry;
  write(literal, *entry.proto);
  return entry;
}
RETARGET_COMPILED_DECL runtime_attribute attribute_entry(std::string_view name,
                                                         std::string_view value) {
  runtime_attribute entry;
  auto& a = *entry.proto;
  a.set_name(std::string(name));
  a.set_type(onnx::AttributeProto::STRING);
  a.set_s(std::string(value));
  return entry;
}
RETARGET_COMPILED_DECL runtime_attribute attribute_entry(std::string_view name,
                                                         const std::vector<std::int64_t>& values) {
  runtime_attribute entry;
  auto& a = *entry.proto;
  a.set_name(std::string(name));
  a.set_type(onnx::AttributeProto::INTS);
  for (const auto v : values) a.add_ints(v);
  return entry;
}

// ---- node_view ----

RETARGET_COMPILED_DECL std::string describe_node(const onnx::NodeProto& n) {
  return n.op_type() + (n.name().empty() ? std::string() : " '" + n.name() + "'");
}

RETARGET_COMPILED_DECL const std::string& node_view::op_type() const { return n_->op_type(); }
RETARGET_COMPILED_DECL std::string_view node_view::domain() const {
  return canonical_domain(n_->domain());
}
RETARGET_COMPILED_DECL bool node_view::in_default_domain() const {
  return is_default_domain(n_->domain());
}
RETARGET_COMPILED_DECL bool node_view::has_domain() const { return n_->has_domain(); }
RETARGET_COMPILED_DECL const std::string& node_view::domain_as_written() const {
  return n_->domain();
}
RETARGET_COMPILED_DECL const std::string& node_view::name() const { return n_->name(); }
RETARGET_COMPILED_DECL const std::string& node_view::doc_string() const { return n_->doc_string(); }
RETARGET_COMPILED_DECL std::size_t node_view::input_count() const {
  return static_cast<std::size_t>(n_->input_size());
}
RETARGET_COMPILED_DECL const std::string& node_view::input(std::size_t i) const {
  return n_->input(static_cast<int>(i));
}
RETARGET_COMPILED_DECL std::vector<std::string> node_view::inputs() const {
  return {n_->input().begin(), n_->input().end()};
}
RETARGET_COMPILED_DECL std::size_t node_view::output_count() const {
  return static_cast<std::size_t>(n_->output_size());
}
RETARGET_COMPILED_DECL const std::string& node_view::output(std::size_t i) const {
  return n_->output(static_cast<int>(i));
}
RETARGET_COMPILED_DECL std::vector<std::string> node_view::outputs() const {
  return {n_->output().begin(), n_->output().end()};
}
RETARGET_COMPILED_DECL std::size_t node_view::attribute_count() const {
  return static_cast<std::size_t>(n_->attribute_size());
}
RETARGET_COMPILED_DECL std::vector<attribute_view> node_view::attributes() const {
  std::vector<attribute_view> out;
  for (const auto& a : n_->attribute()) out.emplace_back(a);
  return out;
}
RETARGET_COMPILED_DECL std::optional<attribute_view> node_view::attribute(
    std::string_view attr) const {
  for (const auto& a : n_->attribute())
    if (a.name() == attr) return attribute_view(a);
  return std::nullopt;
}
RETARGET_COMPILED_DECL attribute_list node_view::attribute_protos() const {
  attribute_list out;
  for (const auto& a : n_->attribute()) out.push_back(attribute_view(a));
  return out;
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_NODE_VIEW_IMPL_HPP
