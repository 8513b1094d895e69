// A named boundary in an export, as MMDeploy's mark: where a deploy config's partition_config
// cuts the model, so that the backend runs what computes the marked values and the rest runs
// elsewhere (ONNX Runtime, or the user's code).
//
//   auto features = retarget::trace::mark(relu(conv2(x)), "features");
//   // with export_options::apply_marks: an Identity whose output is named "features"
//
// Without apply_marks (a config without partition_config), a mark returns its tensor as it
// is: the model holds no trace of it.
#ifndef RETARGET_TRACE_MARK_HPP
#define RETARGET_TRACE_MARK_HPP

#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/trace/tensor.hpp>
#include <string>
#include <string_view>

namespace retarget::trace {

// x, its value named `name` when the export applies marks; retarget::error when the name is
// empty or the graph has it already (a mark used twice, an input's name).
template <Backend B>
tensor<B> mark(const tensor<B>& x, std::string_view name) {
  auto& s = x.owner();
  if (!s.marks_applied()) return x;
  const std::string wanted(name);
  if (wanted.empty()) throw error("retarget: a mark needs a name");
  if (s.graph().has_name(wanted))
    throw error("retarget: mark '" + wanted +
                "': the model has a value of that name already (a mark is placed once)");
  ir::node_spec spec;
  spec.op_type = "Identity";
  spec.inputs = {x.value()};
  spec.outputs = {wanted};
  return tensor<B>(s, s.graph().emit(std::move(spec)).front());
}

}  // namespace retarget::trace

#endif  // RETARGET_TRACE_MARK_HPP
