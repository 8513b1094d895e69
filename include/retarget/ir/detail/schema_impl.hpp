// The definitions of schema.hpp's registration of custom schemas with the ONNX library (see
// linkage.hpp for where they are compiled).
#ifndef RETARGET_IR_DETAIL_SCHEMA_IMPL_HPP
#define RETARGET_IR_DETAIL_SCHEMA_IMPL_HPP

#include <onnx/defs/schema.h>
#include <onnx/defs/shape_inference.h>

#include <algorithm>
#include <climits>
#include <map>
#include <mutex>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/schema.hpp>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace retarget::ir {

namespace detail {

RETARGET_COMPILED_DECL void infer_first_input_type(onnx::InferenceContext& ctx) {
  if (ctx.getNumInputs() > 0 && ctx.getInputType(0) != nullptr && ctx.getNumOutputs() > 0)
    onnx::propagateElemTypeFromInputToOutput(ctx, 0, 0);
}

// The op names of a domain, for the suggestions of an unknown-op error. ONNX's
// get_all_schemas() copies every schema (a millisecond each time), so the names are kept, and
// gathered again when register_schemas has added schemas since.
RETARGET_LAZY_DEF std::vector<std::string> op_names_of(const std::string& domain) {
  const schema_registry_reader reading;
  static std::mutex kept_names;
  const std::lock_guard lock(kept_names);
  static std::size_t gathered = SIZE_MAX;
  static std::map<std::string, std::vector<std::string>> names;
  if (gathered != schema_generation()) {
    names.clear();
    for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas())
      names[s.domain()].push_back(s.Name());
    // In name order: the registry's order changes as it grows, and the suggestions of equal
    // distance must not.
    for (auto& [domain, list] : names) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    gathered = schema_generation();
  }
  const auto it = names.find(domain);
  return it == names.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace detail

// A ready shape function for element-wise custom ops: output 0 is like input 0.
RETARGET_COMPILED_DECL void same_as_first_input(onnx::InferenceContext& ctx) {
  detail::infer_first_input_type(ctx);
  if (ctx.getNumInputs() > 0 && onnx::hasInputShape(ctx, 0))
    onnx::propagateShapeFromInputToOutput(ctx, 0, 0);
}

// Adds the schemas to ONNX's registry (checker, shape inference), and their domains to its
// known domains. Safe to call from several threads and more than once, and while other threads
// emit, check or infer: they wait while a schema is added.
RETARGET_LAZY_DEF void register_schemas(std::span<const op_schema> list) {
  if (detail::schema_registry_reader::held())
    throw error(
        "retarget: register_schemas called while this thread reads the schema registry "
        "(from a shape function?); register schemas before emitting");
  const detail::schema_registry_writer writing;
  static std::set<std::tuple<std::string, std::string, int>> done;
  for (const auto& s : list) {
    if (is_standard_domain(s.domain))
      throw error("retarget: custom op schema " + std::string(s.name) +
                  " uses the standard domain '" + std::string(s.domain) +
                  "'; give it a domain of its own");
    const auto key = std::tuple(std::string(s.domain), std::string(s.name), s.since_version);
    if (!done.insert(key).second) continue;

    auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance();
    const auto known = ranges.Map().find(std::string(s.domain));
    if (known == ranges.Map().end())
      ranges.AddDomainToVersion(std::string(s.domain), 1, std::max(s.since_version, 1000));

    onnx::OpSchema schema(std::string(s.name), "retarget", 0);
    schema.SetDomain(std::string(s.domain)).SinceVersion(s.since_version);
    if (!s.doc.empty()) schema.SetDoc(std::string(s.doc));
    // One type variable per input and output: a custom op's types are its own business.
    const auto tensor_types = onnx::OpSchema::all_tensor_types();
    for (int i = 0; i < s.max_inputs && i < 64; ++i) {
      const bool optional = i >= s.min_inputs;
      const bool variadic = s.max_inputs == INT_MAX && i == s.min_inputs;
      const std::string type = "I" + std::to_string(i);
      schema.Input(i, "input" + std::to_string(i), "", type,
                   variadic   ? onnx::OpSchema::Variadic
                   : optional ? onnx::OpSchema::Optional
                              : onnx::OpSchema::Single,
                   true, variadic ? 0 : 1);
      schema.TypeConstraint(type, tensor_types, "");
      if (variadic) break;
    }
    for (int i = 0; i < s.max_outputs && i < 64; ++i) {
      const bool variadic = s.max_outputs == INT_MAX && i == s.min_outputs;
      const std::string type = "O" + std::to_string(i);
      schema.Output(i, "output" + std::to_string(i), "", type,
                    variadic             ? onnx::OpSchema::Variadic
                    : i >= s.min_outputs ? onnx::OpSchema::Optional
                                         : onnx::OpSchema::Single,
                    true, variadic ? 0 : 1);
      schema.TypeConstraint(type, tensor_types, "");
      if (variadic) break;
    }
    for (const auto& a : s.attributes)
      schema.Attr(std::string(a.name), "", static_cast<onnx::AttributeProto_AttributeType>(a.type),
                  a.required);
    schema.TypeAndShapeInferenceFunction(s.infer ? s.infer : &detail::infer_first_input_type);
    onnx::OpSchemaRegistry::OpSchemaRegisterOnce once(schema);
    ++detail::schema_generation();
  }
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_SCHEMA_IMPL_HPP
