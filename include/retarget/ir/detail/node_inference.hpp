// Shape inference for one node as it is emitted: its outputs' types from ONNX's inference
// function (or through its function body), with the graph's types and constant data, the
// outer scope of subgraphs, and the graph context that If, Loop and Scan need for their bodies;
// then data propagation, so shape arithmetic (Shape → Gather → Concat) stays known.
#ifndef RETARGET_IR_DETAIL_NODE_INFERENCE_HPP
#define RETARGET_IR_DETAIL_NODE_INFERENCE_HPP

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/node_check.hpp>
#include <retarget/ir/detail/value_table.hpp>
#include <string>
#include <unordered_map>
#include <vector>

namespace retarget::ir::detail {

// What inference shares across the nodes of a graph and its subgraphs (kept on the root).
struct inference_state {
  onnx::shape_inference::SymbolTableImpl symbols;
  std::unordered_map<std::string, onnx::TensorShapeProto> generated_shapes;
};

RETARGET_COMPILED_DECL std::shared_ptr<inference_state> make_inference_state() {
  return std::make_shared<inference_state>();
}

// The types of the node's outputs, in order (ONNX's contexts take the node by non-const
// reference; only a copy of a node with subgraphs is changed). `imports` are the versions of every
// domain a node of a subgraph may use. The caller holds a schema_registry_reader.
RETARGET_COMPILED_DECL std::vector<onnx::TypeProto> infer_node(
    const onnx::OpSchema& schema, onnx::NodeProto& node, int version, const value_table& values,
    const std::unordered_map<std::string, int>& imports, inference_state& state) {
  std::vector<onnx::TypeProto> inferred;
  try {
    onnx::shape_inference::GraphInferenceContext graph_context(
        values.types(), imports, &state.symbols, {}, onnx::OpSchemaRegistry::Instance(),
        &state.generated_shapes);
    // ONNX infers If/Loop/Scan bodies in place; the node keeps its bodies as they were given.
    const bool has_subgraphs =
        std::any_of(node.attribute().begin(), node.attribute().end(),
                    [](const auto& a) { return a.has_g() || a.graphs_size() > 0; });
    onnx::NodeProto scratch;
    if (has_subgraphs) scratch = node;
    onnx::shape_inference::InferenceContextImpl ctx(has_subgraphs ? scratch : node, values.types(),
                                                    values.data(), {}, &state.generated_shapes,
                                                    &graph_context);
    if (schema.has_type_and_shape_inference_function())
      schema.GetTypeAndShapeInferenceFunction()(ctx);
    else if (schema.HasFunction())  // an op defined by a function body: infer through it
      onnx::shape_inference::InferShapeForFunctionNode(*schema.GetFunction(),
                                                       onnx::OpSchemaRegistry::Instance(), ctx, {},
                                                       {}, &state.symbols, &state.generated_shapes);
    for (std::size_t i = 0; i < ctx.getNumOutputs(); ++i) inferred.push_back(*ctx.getOutputType(i));
    if (schema.has_data_propagation_function()) {
      onnx::shape_inference::DataPropagationContextImpl propagation(
          node, values.types(), values.data(), state.generated_shapes);
      schema.GetDataPropagationFunction()(propagation);
    }
  } catch (const std::exception& e) {
    throw error(node_where(node, version) + ": shape inference failed: " + e.what() +
                " (inputs: " + describe_inputs(node, values.types()) + ")");
  }
  return inferred;
}

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_NODE_INFERENCE_HPP
