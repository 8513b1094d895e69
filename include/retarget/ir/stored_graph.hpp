// A graph as a model stores it (the main graph, or an If's branch, a Loop's body), read in
// place by a pass that rebuilds it node by node: its declared inputs and outputs, its
// initializers, its nodes in an order where each comes after what it reads. Nothing is copied;
// the model must outlive the view. What the rebuild writes into the new graph from it (an
// input of its declared type, a rebuilt subgraph attribute) is written here too.
//
//   const retarget::ir::stored_graph source(model);
//   for (const auto& in : source.inputs()) scope[in.name()] = retarget::ir::declare_input(g, in);
//   for (const int i : source.topological_order()) rebuild(source.node(i));
#ifndef RETARGET_IR_STORED_GRAPH_HPP
#define RETARGET_IR_STORED_GRAPH_HPP

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <functional>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/topology.hpp>
#include <retarget/ir/value.hpp>
#include <string>
#include <vector>

namespace retarget::ir {

// An input or output a graph declares: its name and the type it declares, if any.
class declared_value {
 public:
  explicit declared_value(const onnx::ValueInfoProto& v) noexcept : v_(&v) {}

  const std::string& name() const { return v_->name(); }
  // Whether it declares a type (a subgraph's may leave it to its node).
  bool has_type() const { return v_->has_type(); }
  // Whether it declares a tensor type with a shape: a rank, its dims known or named.
  bool has_tensor_shape() const {
    return v_->type().has_tensor_type() && v_->type().tensor_type().has_shape();
  }
  // Whether it is a tensor, or declares no type: false for a sequence or an optional.
  bool is_tensor() const { return !has_type() || v_->type().has_tensor_type(); }

  const onnx::ValueInfoProto& proto() const noexcept { return *v_; }

 private:
  const onnx::ValueInfoProto* v_;
};

class stored_graph {
 public:
  explicit stored_graph(const onnx::GraphProto& g) noexcept : g_(&g) {}
  // The main graph of the model.
  explicit stored_graph(const model& m) noexcept : g_(&m.graph()) {}

  const std::string& name() const { return g_->name(); }
  // Sparse initializers, which a node-by-node rebuild cannot carry over.
  std::size_t sparse_initializer_count() const {
    return static_cast<std::size_t>(g_->sparse_initializer_size());
  }

  std::vector<declared_value> inputs() const { return declared(g_->input()); }
  std::vector<declared_value> outputs() const { return declared(g_->output()); }

  std::size_t initializer_count() const { return static_cast<std::size_t>(g_->initializer_size()); }
  // Initializer i as stored (a shared weight's entry has its name and dims, not its bytes).
  tensor_view initializer(std::size_t i) const { return g_->initializer(static_cast<int>(i)); }

  std::size_t node_count() const { return static_cast<std::size_t>(g_->node_size()); }
  node_view node(std::size_t i) const { return g_->node(static_cast<int>(i)); }
  // "node 3 'conv1' (Conv)": how an error points at node i.
  std::string place(std::size_t i) const {
    return node_place(g_->node(static_cast<int>(i)), static_cast<int>(i));
  }
  // Every name node i reads: its inputs and what its subgraphs read from outer scopes.
  std::vector<std::string> reads(std::size_t i) const {
    return reads_of(g_->node(static_cast<int>(i)));
  }
  // The nodes' indices in an order where each comes after what it reads (the stored order
  // where it is one); `outer` says which names outer scopes give. retarget::error on a read of
  // a name nothing gives, and on a cycle.
  std::vector<int> topological_order(const std::function<bool(const std::string&)>& outer =
                                         [](const std::string&) { return false; }) const {
    return ir::topological_order(*g_, outer);
  }

 private:
  template <class List>
  static std::vector<declared_value> declared(const List& list) {
    std::vector<declared_value> out;
    for (const auto& v : list) out.emplace_back(v);
    return out;
  }
  const onnx::GraphProto* g_;
};

// `in` declared as an input of g, with the type it declares: its element type and dims when it
// is a tensor with a shape; untyped when a subgraph's input declares none (its node types it);
// its type as written otherwise.
inline value declare_input(graph_base& g, const declared_value& in, bool subgraph) {
  if (in.has_tensor_shape()) {
    const auto& type = in.proto().type().tensor_type();
    return g.input(in.name(), static_cast<dtype>(type.elem_type()), dims_of(type.shape()));
  }
  if (!in.has_type() && subgraph) return g.input(in.name(), untyped);
  return g.input(in.name(), in.proto().type());
}

// v made output `name` of g ("" keeps v's name), with the type `declared` gives it: as written
// when it declares a tensor with a shape or another type; untyped for a subgraph's output that
// declares none; else as inferred (a tensor type without a shape would fail the checker).
inline void declare_output(graph_base& g, const value& v, std::string name,
                           const declared_value& declared, bool subgraph) {
  if (!declared.has_type() && subgraph)
    g.output(v, std::move(name), untyped);
  else if (declared.has_type() && (!declared.is_tensor() || declared.has_tensor_shape()))
    g.output(v, std::move(name), declared.proto().type());
  else
    g.output(v, std::move(name));
}

// t stored in g as the default value of g's input of its name (an initializer that is also a
// graph input): no value of g, only the stored default.
inline void add_input_default(graph_base& g, const tensor_view& t) {
  *g.proto().add_initializer() = t.proto();
}

// The attribute with each subgraph it holds (its GRAPH's, then each of its GRAPHS') rebuilt:
// fill(body, source) rebuilds `source` into `body`, a fresh subgraph of g named as source is.
template <class Fill>
auto with_rebuilt_subgraphs(graph& g, const attribute_view& a, Fill&& fill) {
  return a.with_rebuilt_subgraphs([&](const onnx::GraphProto& sub) {
    auto body = g.subgraph(sub.name());
    fill(body, stored_graph(sub));
    return body.proto();
  });
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_STORED_GRAPH_HPP
