// A model rebuilt node by node into a new graph (a conversion pass): the graph prepared as the
// source's (its name, its opset imports, the names its nodes give taken), and the finished graph
// made a model with the source's fields besides its graph, so that a pass that changes no node
// gives the model it was.
//
//   retarget::ir::graph g(source.opset().value_or(17));
//   retarget::ir::prepare_rebuild(g, source);
//   ...  // each node of source emitted in g
//   retarget::ir::model next = retarget::ir::rebuilt_model(std::move(g), source);
#ifndef RETARGET_IR_REBUILT_MODEL_HPP
#define RETARGET_IR_REBUILT_MODEL_HPP

#include <cstddef>
#include <retarget/core/config.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>

namespace retarget::ir {

// g takes the source graph's name and its other domains' opset imports; it imports the default
// domain only if a node uses it when the source does not import it; the names the source's
// nodes give are kept from the ones the rebuild generates.
RETARGET_COMPILED_DECL void prepare_rebuild(graph& g, const model& source);

namespace detail {

// The opset imports as `from` wrote them (the standard domain as "", "ai.onnx" or no domain
// field at all; their order), when `to` imports the same domains at the same versions.
RETARGET_COMPILED_DECL void keep_import_spelling(const onnx::ModelProto& from,
                                                 onnx::ModelProto& to);

}  // namespace detail

// g made a model with the source's IR version, producer (as set, or not), domain, model version,
// doc string, metadata, functions and opset imports as spelled. Shared weights stay shared.
RETARGET_COMPILED_DECL model rebuilt_model(graph_base&& g, const model& source);

// How many nodes the model's main graph has.
RETARGET_COMPILED_DECL std::size_t node_count(const model& m);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/rebuilt_model_impl.hpp>
#endif

#endif  // RETARGET_IR_REBUILT_MODEL_HPP
