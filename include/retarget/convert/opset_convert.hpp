// The opset step driver: a model moved to another opset of the default domain, one step
// (v → v ± 1) at a time, after the planner has found that every node can take every step.
//
//   ir::model m13 = retarget::convert::to_opset(model, 13);  // or a retarget::error naming
//                                                            // every node that cannot move
#ifndef RETARGET_CONVERT_OPSET_CONVERT_HPP
#define RETARGET_CONVERT_OPSET_CONVERT_HPP

#include <boost/mp11/list.hpp>
#include <retarget/convert/detail/opset_step.hpp>
#include <retarget/convert/opset_plan.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/model.hpp>
#include <utility>

namespace retarget::convert {

struct opset_options {
  bool check = true;  // ONNX's checker and strict shape inference on the result
};

// The model at `opset`, one step at a time; a retarget::error listing every node that cannot
// be converted (plan_opset), before anything is done, or naming the node a step failed at.
// Extra: adapters to use besides the declared ones (a boost::mp11::mp_list of opset_adapter
// specializations), as for plan_opset.
template <class Extra = boost::mp11::mp_list<>>
ir::model to_opset(const ir::model& source, int opset, const opset_options& o = {}) {
  ir::model copy = source;
  copy.materialize();
  const auto plan = plan_opset<Extra>(copy, opset);
  if (!plan.ok()) throw error("retarget: " + to_string(plan));
  ir::model out = std::move(copy);
  const int dir = opset < plan.from ? -1 : 1;
  for (int v = plan.from; v != opset; v += dir) out = detail::one_step<Extra>(out, v, v + dir);
  ir::require_ir_version(out, ir::ir_version_for_opset(opset));
  if (o.check) out.check();
  return out;
}

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_OPSET_CONVERT_HPP
