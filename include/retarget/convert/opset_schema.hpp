// How two schemas of an op differ, read from ONNX's schema registry: the schema in effect at an
// opset, and each change beyond the types they allow. The opset planner (opset_plan.hpp) asks
// it; opset.hpp does not include it, so that a unit that plans or converts through
// retarget::compiled does not compile <onnx/defs/schema.h>.
#ifndef RETARGET_CONVERT_OPSET_SCHEMA_HPP
#define RETARGET_CONVERT_OPSET_SCHEMA_HPP

#include <onnx/defs/schema.h>

#include <algorithm>
#include <cstddef>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/node_view.hpp>
#include <string>
#include <vector>

namespace retarget::convert {

// The schema of op in effect at an opset, or nullptr.
inline const onnx::OpSchema* schema_at(const std::string& op, int opset) {
  return onnx::OpSchemaRegistry::Schema(op, opset, "");
}

inline std::string attribute_default(const onnx::OpSchema::Attribute& a) {
  return a.default_value.SerializeAsString();
}

// A default as the changes below show it.
inline std::string describe_default(const onnx::OpSchema::Attribute& a) {
  if (!a.default_value.has_type()) return "none";
  const ir::attribute_view d(a.default_value);
  auto list = [](const auto& values) {
    std::string out = "[";
    for (const auto& v : values) out += (out.size() > 1 ? ", " : "") + std::to_string(v);
    return out + "]";
  };
  switch (d.kind()) {
    case ir::attr_type::int_:
      return std::to_string(d.i());
    case ir::attr_type::float_:
      return std::to_string(d.f());
    case ir::attr_type::string:
      return "'" + d.s() + "'";
    case ir::attr_type::ints:
      return list(d.ints());
    case ir::attr_type::floats:
      return list(d.floats());
    default:
      return "a value";
  }
}

// How schema `newer` differs from `older` of the same op beyond the types they allow: each
// attribute, input and output added, removed or changed (kind, requiredness, default; name,
// optionality). Empty when only types (or docs) changed.
inline std::vector<std::string> schema_changes(const onnx::OpSchema& older,
                                               const onnx::OpSchema& newer) {
  std::vector<std::string> out;
  auto option = [](onnx::OpSchema::FormalParameterOption o) -> std::string {
    return o == onnx::OpSchema::Single     ? "single"
           : o == onnx::OpSchema::Optional ? "optional"
                                           : "variadic";
  };
  auto parameters = [&](const char* what, const std::vector<onnx::OpSchema::FormalParameter>& a,
                        const std::vector<onnx::OpSchema::FormalParameter>& b) {
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      const auto at = std::string(what) + " " + std::to_string(i);
      if (i >= a.size())
        out.push_back(at + " '" + b[i].GetName() + "' added (" + option(b[i].GetOption()) + ")");
      else if (i >= b.size())
        out.push_back(at + " '" + a[i].GetName() + "' removed");
      else {
        if (a[i].GetName() != b[i].GetName())
          out.push_back(at + " renamed '" + a[i].GetName() + "' -> '" + b[i].GetName() + "'");
        if (a[i].GetOption() != b[i].GetOption())
          out.push_back(at + " '" + b[i].GetName() + "' " + option(a[i].GetOption()) + " -> " +
                        option(b[i].GetOption()));
      }
    }
  };
  parameters("input", older.inputs(), newer.inputs());
  parameters("output", older.outputs(), newer.outputs());
  for (const auto& [name, a] : older.attributes()) {
    const auto it = newer.attributes().find(name);
    if (it == newer.attributes().end()) {
      out.push_back("attribute '" + name + "' removed");
      continue;
    }
    const auto& b = it->second;
    if (b.type != a.type) out.push_back("attribute '" + name + "' changed kind");
    if (b.required != a.required)
      out.push_back("attribute '" + name + "' " + (b.required ? "now required" : "now optional"));
    if (attribute_default(b) != attribute_default(a))
      out.push_back("attribute '" + name + "' default " + describe_default(a) + " -> " +
                    describe_default(b));
  }
  for (const auto& [name, b] : newer.attributes())
    if (!older.attributes().count(name))
      out.push_back("attribute '" + name + "' added (" +
                    (b.required ? std::string("required") : "default " + describe_default(b)) +
                    ")");
  return out;
}

// Whether attribute `set` of a node holds the default schema s gives it.
inline bool holds_default(const ir::attribute_view& set, const onnx::OpSchema& s) {
  const auto it = s.attributes().find(std::string(set.name()));
  if (it == s.attributes().end() || !it->second.default_value.has_type()) return false;
  return set.same_value(ir::attribute_view(it->second.default_value));
}

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_OPSET_SCHEMA_HPP
