// The definitions of ir/stored_graph.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_IR_DETAIL_STORED_GRAPH_IMPL_HPP
#define RETARGET_IR_DETAIL_STORED_GRAPH_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <functional>
#include <retarget/core/config.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/stored_graph.hpp>
#include <retarget/ir/topology.hpp>
#include <retarget/ir/value.hpp>
#include <string>
#include <utility>
#include <vector>

namespace retarget::ir {

RETARGET_COMPILED_DECL const std::string& declared_value::name() const { return v_->name(); }

RETARGET_COMPILED_DECL bool declared_value::has_type() const { return v_->has_type(); }

RETARGET_COMPILED_DECL bool declared_value::has_tensor_shape() const {
  return v_->type().has_tensor_type() && v_->type().tensor_type().has_shape();
}

RETARGET_COMPILED_DECL bool declared_value::is_tensor() const {
  return !has_type() || v_->type().has_tensor_type();
}

namespace detail {

template <class List>
std::vector<declared_value> declared(const List& list) {
  std::vector<declared_value> out;
  for (const auto& v : list) out.emplace_back(v);
  return out;
}

}  // namespace detail

RETARGET_COMPILED_DECL const std::string& stored_graph::name() const { return g_->name(); }

RETARGET_COMPILED_DECL std::size_t stored_graph::sparse_initializer_count() const {
  return static_cast<std::size_t>(g_->sparse_initializer_size());
}

RETARGET_COMPILED_DECL std::vector<declared_value> stored_graph::inputs() const {
  return detail::declared(g_->input());
}

RETARGET_COMPILED_DECL std::vector<declared_value> stored_graph::outputs() const {
  return detail::declared(g_->output());
}

RETARGET_COMPILED_DECL std::size_t stored_graph::initializer_count() const {
  return static_cast<std::size_t>(g_->initializer_size());
}

RETARGET_COMPILED_DECL tensor_view stored_graph::initializer(std::size_t i) const {
  return g_->initializer(static_cast<int>(i));
}

RETARGET_COMPILED_DECL std::size_t stored_graph::node_count() const {
  return static_cast<std::size_t>(g_->node_size());
}

RETARGET_COMPILED_DECL node_view stored_graph::node(std::size_t i) const {
  return g_->node(static_cast<int>(i));
}

RETARGET_COMPILED_DECL std::string stored_graph::place(std::size_t i) const {
  return node_place(g_->node(static_cast<int>(i)), static_cast<int>(i));
}

RETARGET_COMPILED_DECL std::vector<std::string> stored_graph::reads(std::size_t i) const {
  return reads_of(g_->node(static_cast<int>(i)));
}

RETARGET_COMPILED_DECL std::vector<int> stored_graph::topological_order(
    const std::function<bool(const std::string&)>& outer) const {
  return ir::topological_order(*g_, outer);
}

RETARGET_COMPILED_DECL value declare_input(graph_base& g, const declared_value& in, bool subgraph) {
  if (in.has_tensor_shape()) {
    const auto& type = in.proto().type().tensor_type();
    return g.input(in.name(), static_cast<dtype>(type.elem_type()), dims_of(type.shape()));
  }
  if (!in.has_type() && subgraph) return g.input(in.name(), untyped);
  return g.input(in.name(), in.proto().type());
}

RETARGET_COMPILED_DECL void declare_output(graph_base& g, const value& v, std::string name,
                                           const declared_value& declared, bool subgraph) {
  if (!declared.has_type() && subgraph)
    g.output(v, std::move(name), untyped);
  else if (declared.has_type() && (!declared.is_tensor() || declared.has_tensor_shape()))
    g.output(v, std::move(name), declared.proto().type());
  else
    g.output(v, std::move(name));
}

RETARGET_COMPILED_DECL void add_input_default(graph_base& g, const tensor_view& t) {
  *g.proto().add_initializer() = t.proto();
}

RETARGET_COMPILED_DECL onnx::AttributeProto detail::rebuilt_subgraphs(
    graph& g, const attribute_view& a,
    const std::function<void(graph& body, const stored_graph& source)>& fill) {
  return a.with_rebuilt_subgraphs([&](const onnx::GraphProto& sub) {
    auto body = g.subgraph(sub.name());
    fill(body, stored_graph(sub));
    return body.proto();
  });
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_STORED_GRAPH_IMPL_HPP
