// The definitions of onnx_library.hpp (see linkage.hpp for where they are compiled).
#ifndef RETARGET_IR_DETAIL_ONNX_LIBRARY_IMPL_HPP
#define RETARGET_IR_DETAIL_ONNX_LIBRARY_IMPL_HPP

#include <onnx/checker.h>
#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/node_check.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/domain.hpp>
#include <string>
#include <string_view>

namespace retarget::ir::detail {

RETARGET_COMPILED_DECL std::optional<int> imported_version(const onnx::ModelProto& m,
                                                           std::string_view domain) {
  for (const auto& o : m.opset_import())
    if (canonical_domain(o.domain()) == canonical_domain(domain))
      return static_cast<int>(o.version());
  return std::nullopt;
}

RETARGET_COMPILED_DECL void check_model(const onnx::ModelProto& m) {
  onnx::checker::check_model(m);
}

RETARGET_COMPILED_DECL void infer_model_shapes(onnx::ModelProto& m, bool strict) {
  // What ONNX's inference would crash on rather than refuse (node_check.hpp).
  const auto version_of = [&](const std::string& domain) {
    return imported_version(m, domain).value_or(0);
  };
  check_strides_in(m.graph(), version_of);
  for (const auto& f : m.functions())
    for (const auto& node : f.node()) check_strides(node, version_of(node.domain()));
  onnx::shape_inference::InferShapes(m, onnx::OpSchemaRegistry::Instance(),
                                     strict ? onnx::ShapeInferenceOptions(true, 1, true)
                                            : onnx::ShapeInferenceOptions(false, 0, true));
}

RETARGET_COMPILED_DECL std::optional<int> newest_known_version(std::string_view domain) {
  const schema_registry_reader reading;
  const auto& known = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
  const auto it = known.find(std::string(domain));
  if (it == known.end()) return std::nullopt;
  return it->second.second;
}

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_ONNX_LIBRARY_IMPL_HPP
