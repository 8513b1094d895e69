// ONNX's version converter, as retarget's opset layer uses it: whether it has an adapter for a
// step, one step of a model through it, and the default domain's opset import set. With
// retarget::compiled they are compiled into that library, the one place that includes ONNX's
// version converter (its headers cost about a second per translation unit).
#ifndef RETARGET_IR_VERSION_CONVERTER_HPP
#define RETARGET_IR_VERSION_CONVERTER_HPP

#include <onnx/onnx_pb.h>

#include <retarget/ir/detail/linkage.hpp>
#include <string>

namespace retarget::ir {

// Whether ONNX's converter has an adapter for op from opset `from` to `to`; its "no previous
// version" adapter, which only fails, does not count.
RETARGET_IR_DECL bool onnx_converter_has(const std::string& op, int from, int to);

// The model's import of the default domain set to opset (added if it has none).
RETARGET_IR_DECL void set_default_opset(onnx::ModelProto& m, int opset);

// One step of the model through ONNX's converter; its assertion becomes a retarget::error.
// The opset imports of other domains are set aside while it runs (ONNX 1.12's converter fails
// on them) and put back.
RETARGET_IR_DECL onnx::ModelProto onnx_version_step(const onnx::ModelProto& m, int from, int to);

}  // namespace retarget::ir

#if defined(RETARGET_IR_DEFINITIONS)
#include <retarget/ir/detail/version_converter_impl.hpp>
#endif

#endif  // RETARGET_IR_VERSION_CONVERTER_HPP
