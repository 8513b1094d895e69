// The definitions of ir/rebuilt_model.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_IR_DETAIL_REBUILT_MODEL_IMPL_HPP
#define RETARGET_IR_DETAIL_REBUILT_MODEL_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <retarget/core/config.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/rebuilt_model.hpp>
#include <string>
#include <utility>
#include <vector>

namespace retarget::ir {

RETARGET_COMPILED_DECL void prepare_rebuild(graph& g, const model& source) {
  const auto& in = source.proto();
  bool imports_standard = in.opset_import_size() == 0;
  for (const auto& import : in.opset_import())
    if (!is_default_domain(import.domain()))
      g.set_domain_version(import.domain(), static_cast<int>(import.version()));
    else
      imports_standard = true;
  if (!imports_standard) g.import_standard_domain_only_if_used();
  g.set_name(in.graph().name());
  std::vector<std::string> names;
  for (const auto& n : in.graph().node()) {
    names.insert(names.end(), n.output().begin(), n.output().end());
    if (!n.name().empty()) names.push_back(n.name());
  }
  g.reserve_names(names);
}

RETARGET_COMPILED_DECL void detail::keep_import_spelling(const onnx::ModelProto& from,
                                                         onnx::ModelProto& to) {
  const auto imports = [](const onnx::ModelProto& m) {
    std::map<std::string, std::int64_t> out;
    for (const auto& o : m.opset_import())
      out[std::string(canonical_domain(o.domain()))] = o.version();
    return out;
  };
  if (from.opset_import_size() == to.opset_import_size() && imports(from) == imports(to))
    *to.mutable_opset_import() = from.opset_import();
}

RETARGET_COMPILED_DECL model rebuilt_model(graph_base&& g, const model& source) {
  const auto& in = source.proto();
  model_info info;
  info.ir_version = in.ir_version();
  info.producer_name = in.producer_name();
  info.producer_version = in.producer_version();
  info.doc_string = in.doc_string();
  model next = make_model(std::move(g), info);
  auto& out = next.proto_without_shared_bytes();
  if (!in.has_producer_name()) out.clear_producer_name();
  if (!in.has_producer_version()) out.clear_producer_version();
  if (in.has_domain()) out.set_domain(in.domain());
  if (in.has_model_version()) out.set_model_version(in.model_version());
  *out.mutable_metadata_props() = in.metadata_props();
  *out.mutable_functions() = in.functions();
  detail::keep_import_spelling(in, out);
  return next;
}

RETARGET_COMPILED_DECL std::size_t node_count(const model& m) {
  return static_cast<std::size_t>(m.proto().graph().node_size());
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_REBUILT_MODEL_IMPL_HPP
