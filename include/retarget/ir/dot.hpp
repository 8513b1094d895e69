// A model's graph in Graphviz's DOT language: inputs, outputs and weights as notes, nodes as
// boxes labelled with their op and its attributes, edges labelled with the value's shape
// when the model knows it (infer_shapes() first to know them all). `retarget draw` renders it
// with Graphviz's dot.
#ifndef RETARGET_IR_DOT_HPP
#define RETARGET_IR_DOT_HPP

#include <retarget/core/config.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/model.hpp>
#include <string>

namespace retarget::ir {

// The model's main graph in DOT.
RETARGET_COMPILED_DECL std::string to_dot(const model& m);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/dot_impl.hpp>
#endif

#endif  // RETARGET_IR_DOT_HPP
