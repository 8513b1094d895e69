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

#include <cstddef>
#include <functional>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
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

  const std::string& name() const;
  // Whether it declares a type (a subgraph's may leave it to its node).
  bool has_type() const;
  // Whether it declares a tensor type with a shape: a rank, its dims known or named.
  bool has_tensor_shape() const;
  // Whether it is a tensor, or declares no type: false for a sequence or an optional.
  bool is_tensor() const;

  const onnx::ValueInfoProto& proto() const noexcept { return *v_; }

 private:
  const onnx::ValueInfoProto* v_;
};

class stored_graph {
 public:
  explicit stored_graph(const onnx::GraphProto& g) noexcept : g_(&g) {}
  // The main graph of the model.
  explicit stored_graph(const model& m) noexcept : g_(&m.graph()) {}

  const std::string& name() const;
  // Sparse initializers, which a node-by-node rebuild cannot carry over.
  std::size_t sparse_initializer_count() const;

  std::vector<declared_value> inputs() const;
  std::vector<declared_value> outputs() const;

  std::size_t initializer_count() const;
  // Initializer i as stored (a shared weight's entry has its name and dims, not its bytes).
  tensor_view initializer(std::size_t i) const;

  std::size_t node_count() const;
  node_view node(std::size_t i) const;
  // "node 3 'conv1' (Conv)": how an error points at node i.
  std::string place(std::size_t i) const;
  // Every name node i reads: its inputs and what its subgraphs read from outer scopes.
  std::vector<std::string> reads(std::size_t i) const;
  // The nodes' indices in an order where each comes after what it reads (the stored order
  // where it is one); `outer` says which names outer scopes give. retarget::error on a read of
  // a name nothing gives, and on a cycle.
  std::vector<int> topological_order(const std::function<bool(const std::string&)>& outer =
                                         [](const std::string&) { return false; }) const;

 private:
  const onnx::GraphProto* g_;
};

// `in` declared as an input of g, with the type it declares: its element type and dims when it
// is a tensor with a shape; untyped when a subgraph's input declares none (its node types it);
// its type as written otherwise.
RETARGET_COMPILED_DECL value declare_input(graph_base& g, const declared_value& in, bool subgraph);

// v made output `name` of g ("" keeps v's name), with the type `declared` gives it: as written
// when it declares a tensor with a shape or another type; untyped for a subgraph's output that
// declares none; else as inferred (a tensor type without a shape would fail the checker).
RETARGET_COMPILED_DECL void declare_output(graph_base& g, const value& v, std::string name,
                                           const declared_value& declared, bool subgraph);

// t stored in g as the default value of g's input of its name (an initializer that is also a
// graph input): no value of g, only the stored default.
RETARGET_COMPILED_DECL void add_input_default(graph_base& g, const tensor_view& t);

namespace detail {

// with_rebuilt_subgraphs' work, for any fill: the attribute is returned by value, so only a
// caller that reads it (with ONNX's messages defined) instantiates the template.
RETARGET_COMPILED_DECL onnx::AttributeProto rebuilt_subgraphs(
    graph& g, const attribute_view& a,
    const std::function<void(graph& body, const stored_graph& source)>& fill);

}  // namespace detail

// The attribute with each subgraph it holds (its GRAPH's, then each of its GRAPHS') rebuilt:
// fill(body, source) rebuilds `source` into `body`, a fresh subgraph of g named as source is.
template <class Fill>
auto with_rebuilt_subgraphs(graph& g, const attribute_view& a, Fill&& fill) {
  return detail::rebuilt_subgraphs(
      g, a, [&fill](graph& body, const stored_graph& source) { fill(body, source); });
}

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/stored_graph_impl.hpp>
#endif

#endif  // RETARGET_IR_STORED_GRAPH_HPP
