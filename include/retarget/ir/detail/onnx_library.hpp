// What ir/ asks of the ONNX library for a whole model: its checker, its shape inference, and the
// newest opset it knows of a domain. Declared here so that the public headers need not include
// ONNX's checker and inference headers; defined in onnx_library_impl.hpp, which only the
// translation units holding the definitions include (see linkage.hpp).
#ifndef RETARGET_IR_DETAIL_ONNX_LIBRARY_HPP
#define RETARGET_IR_DETAIL_ONNX_LIBRARY_HPP

#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <string_view>

namespace retarget::ir::detail {

// The version the model imports of a domain's opset, however the domain is spelled; nullopt
// when it imports none.
RETARGET_COMPILED_DECL std::optional<int> imported_version(const onnx::ModelProto& m,
                                                           std::string_view domain);

// onnx::checker::check_model; throws what it throws.
RETARGET_COMPILED_DECL void check_model(const onnx::ModelProto& m);

// ONNX's shape inference over the model, in place: strict (types checked, errors thrown) or
// lenient (what can be inferred is). Throws what ONNX throws. The caller holds a
// schema_registry_reader.
RETARGET_COMPILED_DECL void infer_model_shapes(onnx::ModelProto& m, bool strict);

// The newest version of the domain the ONNX library knows, or nullopt when it knows none.
RETARGET_COMPILED_DECL std::optional<int> newest_known_version(std::string_view domain);

}  // namespace retarget::ir::detail

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/onnx_library_impl.hpp>
#endif

#endif  // RETARGET_IR_DETAIL_ONNX_LIBRARY_HPP
