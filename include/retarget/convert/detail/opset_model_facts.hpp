// What the opset planner and step driver know of a model at one opset: value types by name
// (after shape inference), the constants, and an adapter's input_facts of a node.
#ifndef RETARGET_CONVERT_DETAIL_OPSET_MODEL_FACTS_HPP
#define RETARGET_CONVERT_DETAIL_OPSET_MODEL_FACTS_HPP

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <cstddef>
#include <exception>
#include <optional>
#include <retarget/convert/opset_adapter.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/schema.hpp>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace retarget::convert::detail {

// What the plan and the conversion know of the model at one opset: value types by name, and
// the constants.
struct model_facts {
  std::unordered_map<std::string, onnx::TypeProto> types;
  std::unordered_map<std::string, const onnx::TensorProto*> constants;
  onnx::ModelProto inferred;

  explicit model_facts(const onnx::ModelProto& m) : inferred(m) {
    const ir::detail::schema_registry_reader reading;
    try {
      onnx::shape_inference::InferShapes(inferred, onnx::OpSchemaRegistry::Instance(),
                                         onnx::ShapeInferenceOptions(false, 0, false));
    } catch (const std::exception&) {
      inferred = m;  // what inference could not do, the types the model declares
    }
    const auto& g = inferred.graph();
    for (const auto& v : g.input()) types[v.name()] = v.type();
    for (const auto& v : g.value_info()) types[v.name()] = v.type();
    for (const auto& v : g.output()) types[v.name()] = v.type();
    for (const auto& t : g.initializer()) {
      constants[t.name()] = &t;
      onnx::TypeProto type;
      type.mutable_tensor_type()->set_elem_type(t.data_type());
      auto* shape = type.mutable_tensor_type()->mutable_shape();
      for (const auto d : t.dims()) shape->add_dim()->set_dim_value(d);
      types[t.name()] = type;
    }
    for (const auto& n : g.node())
      if (n.op_type() == "Constant" && ir::is_default_domain(n.domain()) && n.output_size() == 1)
        for (const auto& a : n.attribute())
          if (a.name() == "value" && a.has_t()) constants[n.output(0)] = &a.t();
  }
  const onnx::TypeProto* type(const std::string& name) const {
    const auto it = types.find(name);
    return it == types.end() || !it->second.has_tensor_type() ||
                   it->second.tensor_type().elem_type() == 0
               ? nullptr
               : &it->second;
  }
  input_facts facts_of(const onnx::NodeProto& n) const {
    std::vector<bool> present;
    std::vector<std::optional<std::size_t>> ranks;
    std::vector<bool> constant;
    for (const auto& i : n.input()) {
      present.push_back(!i.empty());
      const auto* t = i.empty() ? nullptr : type(i);
      ranks.push_back(t && t->tensor_type().has_shape()
                          ? std::optional<std::size_t>(t->tensor_type().shape().dim_size())
                          : std::nullopt);
      constant.push_back(!i.empty() && constants.count(i) > 0);
    }
    return {std::move(present), std::move(ranks), std::move(constant)};
  }
};

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_OPSET_MODEL_FACTS_HPP
