// apply<Op> with an op that is not a symbolic op: it has a symbolic, but no symbolic_op base.
// expect: static assertion failed.*apply<Op> needs a symbolic op
// page-section: Calls
// page-title: apply<Op> with an op that is not a symbolic op
// page-snippet:
// | struct relu_op {   // no symbolic_op base
// |   static rx::value symbolic(rx::graph& g, const rx::value& x);
// | };
// | retarget::trace::apply<relu_op>(x);
// page-meaning:
// | `apply<Op>` runs a symbolic op through the symbolic rewrites of the arguments' backend, so
// | `Op` must derive from `retarget::symbolic_op`. A function of the op library or an
// | `op_function` is not applied but called. The same static_assert family also says when no
// | argument is a traced tensor (there is no session to write the nodes to).
// page-fix:
// | Derive the op from `retarget::symbolic_op<relu_op, "relu">`, or call the function:
// | `ops::relu(x)`, `my_op_fn(x)`.
#include <retarget/core/symbolic.hpp>
#include <retarget/ir/proto.hpp>  // the exported model read below
#include <retarget/trace/export.hpp>
#include <retarget/trace/op_function.hpp>

namespace rx = retarget::ir;

#ifdef RETARGET_COMPILE_FAIL
struct relu_op {
#else
struct relu_op : retarget::symbolic_op<relu_op, "relu"> {
#endif
  static rx::value symbolic(rx::graph& g, const rx::value& x) { return g.op("Relu", x); }
};

int main() {
  const auto model = [](const auto& x) { return retarget::trace::apply<relu_op>(x); };
  const retarget::input_spec inputs[] = {{"x", rx::dtype::f32, {2}}};
  return retarget::export_onnx<retarget::backends::default_>(model, inputs)
                     .model.graph()
                     .node_size() == 1
             ? 0
             : 1;
}
