// The definitions of ir/exposed_values.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_IR_DETAIL_EXPOSED_VALUES_IMPL_HPP
#define RETARGET_IR_DETAIL_EXPOSED_VALUES_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <retarget/core/config.hpp>
#include <retarget/ir/exposed_values.hpp>
#include <retarget/ir/model.hpp>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace retarget::ir {

RETARGET_COMPILED_DECL model exposing(const model& m, std::span<const std::string> names) {
  onnx::ModelProto proto = m.proto();
  auto& g = *proto.mutable_graph();
  std::set<std::string> outputs;
  for (const auto& o : g.output()) outputs.insert(o.name());
  std::unordered_map<std::string, const onnx::ValueInfoProto*> typed;
  for (const auto& v : m.proto().graph().value_info()) typed.emplace(v.name(), &v);
  for (const auto& name : names) {
    if (!outputs.insert(name).second) continue;
    if (const auto t = typed.find(name); t != typed.end())
      *g.add_output() = *t->second;
    else
      g.add_output()->set_name(name);
  }
  const auto& shared = m.shared_initializers();
  return model(std::move(proto), std::vector<shared_initializer>(shared.begin(), shared.end()));
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_EXPOSED_VALUES_IMPL_HPP
