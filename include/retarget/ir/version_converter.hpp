// ONNX's version converter behind ir's types: whether it has an adapter for a step of an op,
// one step of a whole model through it, and a model's default-domain opset import set. With
// retarget::compiled they are compiled into that library, the one place that includes ONNX's
// version converter (its headers cost about a second per translation unit).
//
//   auto next = retarget::ir::onnx_version_step(m, 12, 13);
//   retarget::ir::set_default_opset(next, 13);
#ifndef RETARGET_IR_VERSION_CONVERTER_HPP
#define RETARGET_IR_VERSION_CONVERTER_HPP

#include <cstdint>
#include <retarget/core/config.hpp>
#include <retarget/ir/model.hpp>
#include <string>

namespace retarget::ir {

// Whether ONNX's converter has an adapter for op's step from → to; its "no previous version"
// adapter, which only fails, does not count.
RETARGET_COMPILED_DECL bool onnx_converter_has(const std::string& op, int from, int to);

// The model's import of the default domain set to opset (added if it has none).
RETARGET_COMPILED_DECL void set_default_opset(model& m, int opset);

// The model's IR version raised to at least `version`.
RETARGET_COMPILED_DECL void require_ir_version(model& m, std::int64_t version);

// One step of the model through ONNX's converter; its assertion becomes a retarget::error.
// The opset imports of other domains are set aside while it runs (ONNX 1.12's converter fails
// on them) and put back.
RETARGET_COMPILED_DECL model onnx_version_step(const model& m, int from, int to);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/version_converter_impl.hpp>
#endif

#endif  // RETARGET_IR_VERSION_CONVERTER_HPP
