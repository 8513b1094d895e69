// The shape of a graph as another tool wrote it: which names each node reads (its subgraphs'
// reads from outer scopes included), an order in which each node comes after what it reads,
// the nodes nothing reads (remove_dead_nodes), and check_structure(), which refuses what no engine
// can run (a cycle, a read of a name nothing gives, an op the model's opset does not have) with the
// node named.
//
//   retarget::ir::check_structure(model);  // "retarget: node 0 'add' (Add) reads 'nowhere', ..."
#ifndef RETARGET_IR_TOPOLOGY_HPP
#define RETARGET_IR_TOPOLOGY_HPP

#include <cstddef>
#include <functional>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/node_view.hpp>
#include <set>
#include <string>
#include <vector>

namespace retarget::ir {

// "node 3 'conv1' (Conv)": how an error points at a node of a model read from a file.
RETARGET_COMPILED_DECL std::string node_place(const onnx::NodeProto& n, int index);

RETARGET_COMPILED_DECL std::string node_place(const node_view& n, int index);

// The names a node's subgraphs read from outer scopes (what they do not define themselves).
RETARGET_COMPILED_DECL void outer_reads(const onnx::GraphProto& g, std::set<std::string>& out);

// Every name a node reads: its inputs and what its subgraphs read from outside.
RETARGET_COMPILED_DECL std::vector<std::string> reads_of(const onnx::NodeProto& n);

// The nodes in an order where each comes after what it reads, keeping the given order where
// it already is one. A read of a name nothing defines, and a cycle, are errors naming nodes.
RETARGET_COMPILED_DECL std::vector<int> topological_order(
    const onnx::GraphProto& g, const std::function<bool(const std::string&)>& outer);

// Removes the nodes of g, which are in topological order, whose outputs nothing reads (the
// graph's outputs are read), in its subgraphs too; a node without outputs stays. Returns how
// many went.
RETARGET_COMPILED_DECL std::size_t remove_dead_nodes(onnx::GraphProto& g);

// What remove_unread removed.
struct removed_count {
  std::size_t nodes = 0;
  std::size_t initializers = 0;
};

// Removes the nodes whose outputs nothing reads (remove_dead_nodes, subgraphs included), then
// the initializers nothing reads (a graph input's default stays); shared weights stay shared.
RETARGET_COMPILED_DECL removed_count remove_unread(model& m);

// Throws retarget::error naming the node when the main graph has a cycle or a node reads a name
// nothing gives, or when a node of a domain ONNX defines is not an op of the model's opset for
// that domain. Ops of other domains, and of opsets newer than the ONNX library retarget links
// knows, are the engines' to know.
RETARGET_COMPILED_DECL void check_structure(const model& m);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/topology_impl.hpp>
#endif

#endif  // RETARGET_IR_TOPOLOGY_HPP
