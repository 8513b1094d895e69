// What the emitter asks of ONNX for each node: its schema, its checks and its outputs' types.
// Declared here; defined in node_check.hpp and node_inference.hpp, which only the translation
// units holding the definitions include (see linkage.hpp).
#ifndef RETARGET_IR_DETAIL_EMITTER_HPP
#define RETARGET_IR_DETAIL_EMITTER_HPP

#include <memory>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace retarget::ir::detail {

class value_table;  // value_table.hpp, which the definitions include

// What inference shares across the nodes of a graph and its subgraphs (kept on the root).
struct inference_state;
RETARGET_COMPILED_DECL std::shared_ptr<inference_state> make_inference_state();

// The schema of the node's op at the version its domain is imported at; retarget::error when
// there is none.
RETARGET_COMPILED_DECL const onnx::OpSchema& schema_for(const onnx::NodeProto& node, int version);

// Every check, in order; the node's schema when it passes. The caller holds a
// schema_registry_reader.
RETARGET_COMPILED_DECL const onnx::OpSchema& check_node(
    const onnx::NodeProto& node, int version,
    const std::unordered_map<std::string, onnx::TypeProto*>& types);

// The types of the node's outputs, in order. `imports` are the versions of every domain a node
// of a subgraph may use. The caller holds a schema_registry_reader.
RETARGET_COMPILED_DECL std::vector<onnx::TypeProto> infer_node(
    const onnx::OpSchema& schema, onnx::NodeProto& node, int version, const value_table& values,
    const std::unordered_map<std::string, int>& imports, inference_state& state);

}  // namespace retarget::ir::detail

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/node_check.hpp>
#include <retarget/ir/detail/node_inference.hpp>
#endif

#endif  // RETARGET_IR_DETAIL_EMITTER_HPP
