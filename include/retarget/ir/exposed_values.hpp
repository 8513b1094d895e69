// A model that gives some of its intermediate values as outputs too: how the values a node
// makes are read off an engine (a bisection of where two engines diverge).
//
//   const std::string names[] = {"/conv1/Conv_output_0"};
//   retarget::ir::save(retarget::ir::exposing(m, names), "exposed.onnx");
#ifndef RETARGET_IR_EXPOSED_VALUES_HPP
#define RETARGET_IR_EXPOSED_VALUES_HPP

#include <onnx/onnx_pb.h>

#include <retarget/ir/model.hpp>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace retarget::ir {

// A copy of m whose outputs are its own, then each of `names` that is not one already, typed
// as m's value_info types it (untyped when it does not). Shared weights stay shared.
inline model exposing(const model& m, std::span<const std::string> names) {
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

#endif  // RETARGET_IR_EXPOSED_VALUES_HPP
