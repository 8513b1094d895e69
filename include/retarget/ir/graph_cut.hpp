// Some nodes of a model cut out and put back: what a step that converts most of a model one way
// (ONNX's version converter) and a few nodes another (an emitter at the new opset) needs. The
// cut nodes' outputs become typed graph inputs of the rest, what they read of the rest its
// outputs; after the step, the nodes emitted for them are spliced back in.
//
//   auto cut = retarget::ir::without_nodes(m, view, {3, 7}, where);
//   auto converted = retarget::ir::onnx_version_step(cut.rest, 12, 13);
//   ...  // the cut nodes emitted in a scratch graph at opset 13
//   retarget::ir::splice_back(converted, m, scratch, {}, cut.temporary_inputs);
#ifndef RETARGET_IR_GRAPH_CUT_HPP
#define RETARGET_IR_GRAPH_CUT_HPP

#include <functional>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/topology.hpp>
#include <string>
#include <vector>

namespace retarget::ir {

// The type the view knows for a value read or given by node `node`; retarget::error, placed by
// where(node), when it knows none (a tensor type with its element type).
RETARGET_COMPILED_DECL const onnx::TypeProto& known_type(
    const model_view& view, const std::string& name, int node,
    const std::function<std::string(int)>& where);

// A graph input of g named `name`, of the type the view knows for it (see known_type).
RETARGET_COMPILED_DECL value input_of_known_type(graph_base& g, const model_view& view,
                                                 const std::string& name, int node,
                                                 const std::function<std::string(int)>& where);

struct cut_model {
  model rest;                                 // the model without the cut nodes
  std::vector<std::string> temporary_inputs;  // what the cut nodes gave the rest
};

// The model (the view's) without the nodes `cut` (indices, in graph order): a value a cut node
// gives that the rest reads (or a graph output) is a graph input of its known type; a value of
// the rest a cut node reads is a graph output. where(node) places a node in an error.
RETARGET_COMPILED_DECL cut_model without_nodes(const model& m, const model_view& view,
                                               const std::vector<int>& cut,
                                               const std::function<std::string(int)>& where);

// Prepares g to emit the cut nodes of `original` in: its other domains' imports, and every name
// of the converted rest and of the original graph taken.
RETARGET_COMPILED_DECL void prepare_for_cut_nodes(graph_base& g, const model& original,
                                                  const model& converted);

// Puts back into the converted rest the nodes emitted in `scratch` and the nodes of `original`
// kept as they are (indices), the original outputs restored and the temporary inputs dropped,
// in topological order, without dead nodes.
RETARGET_COMPILED_DECL void splice_back(model& converted, const model& original,
                                        const graph_base& scratch,
                                        const std::vector<int>& kept_as_they_are,
                                        const std::vector<std::string>& temporary_inputs);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/graph_cut_impl.hpp>
#endif

#endif  // RETARGET_IR_GRAPH_CUT_HPP
