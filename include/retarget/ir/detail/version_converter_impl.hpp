// The definitions of ir/version_converter.hpp: inline header-only, compiled once into
// retarget::compiled otherwise, so that only that library includes ONNX's version converter.
#ifndef RETARGET_IR_DETAIL_VERSION_CONVERTER_IMPL_HPP
#define RETARGET_IR_DETAIL_VERSION_CONVERTER_IMPL_HPP

#include <onnx/onnx_pb.h>
#include <onnx/version_converter/convert.h>

#include <cstdint>
#include <exception>
#include <retarget/core/error.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/schema.hpp>
#include <retarget/ir/version_converter.hpp>
#include <string>
#include <utility>

namespace retarget::ir {

namespace detail {

// ONNX's converter, asked whether it has an adapter (its table is protected).
class onnx_converter : public onnx::version_conversion::DefaultVersionConverter {
 public:
  bool has(const std::string& op, int from, int to) const {
    const auto by_op = adapters.find(op);
    if (by_op == adapters.end()) return false;
    const auto by_from = by_op->second.find(onnx::OpSetID(from).toString());
    if (by_from == by_op->second.end()) return false;
    const auto a = by_from->second.find(onnx::OpSetID(to).toString());
    // Its "no previous version" adapter is one that fails.
    return a != by_from->second.end() &&
           !dynamic_cast<const onnx::version_conversion::NoPreviousVersionAdapter*>(
               a->second.get());
  }
  static const onnx_converter& instance() {
    static const onnx_converter c;
    return c;
  }
};

}  // namespace detail

RETARGET_COMPILED_DECL bool onnx_converter_has(const std::string& op, int from, int to) {
  return detail::onnx_converter::instance().has(op, from, to);
}

// Both edit fields of the model alone: its shared weights stay shared (proto() would copy them).
RETARGET_COMPILED_DECL void set_default_opset(model& m, int opset) {
  auto& proto = m.proto_without_shared_bytes();
  bool found = false;
  for (auto& o : *proto.mutable_opset_import())
    if (is_default_domain(o.domain())) {
      o.set_version(opset);
      found = true;
    }
  if (!found) {
    auto* o = proto.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
  }
}

RETARGET_COMPILED_DECL void require_ir_version(model& m, std::int64_t version) {
  auto& proto = m.proto_without_shared_bytes();
  if (proto.ir_version() < version) proto.set_ir_version(version);
}

RETARGET_COMPILED_DECL model onnx_version_step(const model& m, int from, int to) {
  const schema_registry_reader reading;
  model copy = m;
  onnx::ModelProto in = std::move(copy.proto());
  google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto> others, standard;
  for (const auto& o : in.opset_import())
    *(is_default_domain(o.domain()) ? standard : others).Add() = o;
  in.mutable_opset_import()->Swap(&standard);
  try {
    auto out = detail::onnx_converter::instance().convert_version(in, onnx::OpSetID(from),
                                                                  onnx::OpSetID(to));
    for (const auto& o : others) *out.add_opset_import() = o;
    return model(std::move(out));
  } catch (const std::exception& e) {
    throw error("retarget: ONNX's version converter, opset " + std::to_string(from) + " -> " +
                std::to_string(to) + ": " + e.what());
  }
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_VERSION_CONVERTER_IMPL_HPP
