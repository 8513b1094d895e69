// A model that gives some of its intermediate values as outputs too: how the values a node
// makes are read off an engine (a bisection of where two engines diverge).
//
//   const std::string names[] = {"/conv1/Conv_output_0"};
//   retarget::ir::save(retarget::ir::exposing(m, names), "exposed.onnx");
#ifndef RETARGET_IR_EXPOSED_VALUES_HPP
#define RETARGET_IR_EXPOSED_VALUES_HPP

#include <retarget/core/config.hpp>
#include <retarget/ir/model.hpp>
#include <span>
#include <string>

namespace retarget::ir {

// A copy of m whose outputs are its own, then each of `names` that is not one already, typed
// as m's value_info types it (untyped when it does not). Shared weights stay shared.
RETARGET_COMPILED_DECL model exposing(const model& m, std::span<const std::string> names);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/exposed_values_impl.hpp>
#endif

#endif  // RETARGET_IR_EXPOSED_VALUES_HPP
