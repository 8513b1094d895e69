// Opset conversion: an existing model moved to another opset of the default domain, one step
// (v → v ± 1) at a time, through ONNX's version converter and retarget's own adapters. Before
// anything is converted, plan_opset() finds every node that no adapter covers, all at once.
//
//   auto plan = retarget::convert::plan_opset(model, 13);   // plan.missing: what cannot move
//   ir::model m13 = retarget::convert::to_opset(model, 13); // or a retarget::error naming them
//
// The parts, one concept each:
//   opset_adapter.hpp   how to declare an adapter for one op and one step (the declaration is
//                       the whole registration), and input_facts
//   opset_adapters.hpp  the adapters retarget ships
//   opset_plan.hpp      the planner: plan_opset, same_meaning_steps, how each node takes a step
//   opset_convert.hpp   the step driver: to_opset
#ifndef RETARGET_CONVERT_OPSET_HPP
#define RETARGET_CONVERT_OPSET_HPP

#include <retarget/convert/opset_adapter.hpp>
#include <retarget/convert/opset_adapters.hpp>
#include <retarget/convert/opset_convert.hpp>
#include <retarget/convert/opset_plan.hpp>

#endif  // RETARGET_CONVERT_OPSET_HPP
