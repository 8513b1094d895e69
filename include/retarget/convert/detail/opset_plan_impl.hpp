// The definitions of convert/opset_plan.hpp: inline header-only, compiled once into
// retarget::compiled otherwise, so that only that library reads ONNX's schema registry
// (<onnx/defs/schema.h>) for the planner.
#ifndef RETARGET_CONVERT_DETAIL_OPSET_PLAN_IMPL_HPP
#define RETARGET_CONVERT_DETAIL_OPSET_PLAN_IMPL_HPP

#include <cstddef>
#include <retarget/convert/opset_plan.hpp>
#include <retarget/convert/opset_schema.hpp>
#include <retarget/ir/node_view.hpp>
#include <string>

namespace retarget::convert {

// "node 3 'ln' (LayerNormalization), opset 17 → 16: why"
RETARGET_COMPILED_DECL std::string to_string(const unadaptable& u) {
  return "node " + std::to_string(u.index) + " " + (u.name.empty() ? "" : "'" + u.name + "' ") +
         "(" + u.op + "), opset " + std::to_string(u.from) + " -> " + std::to_string(u.to) + ": " +
         u.why;
}

namespace detail {

RETARGET_COMPILED_DECL bool in_opset(const std::string& op, int opset) {
  return schema_at(op, opset) != nullptr;
}

RETARGET_COMPILED_DECL bool step_needs_adapter(const std::string& op, int from, int to) {
  const auto* s = schema_at(op, to < from ? from : to);
  return s && s->SinceVersion() == (to < from ? from : to);
}

RETARGET_COMPILED_DECL bool same_node_fits(const ir::node_view& n, int from, int to,
                                           std::string* why) {
  const auto* a = schema_at(n.op_type(), from);
  const auto* b = schema_at(n.op_type(), to);
  if (!a || !b || a->Deprecated() || b->Deprecated()) return false;
  const bool up = to > from;
  const auto changes = schema_changes(up ? *a : *b, up ? *b : *a);
  if (!changes.empty() && !find_same_meaning(n.op_type(), from, to)) {
    if (why) {
      const auto& newer = up ? *b : *a;
      const auto& older = up ? *a : *b;
      *why = n.op_type() + "-" + std::to_string(newer.SinceVersion()) + " differs from " +
             n.op_type() + "-" + std::to_string(older.SinceVersion()) + " in more than types (";
      for (std::size_t i = 0; i < changes.size(); ++i) *why += (i ? "; " : "") + changes[i];
      *why +=
          "), and no adapter (retarget's or ONNX's) or same-meaning entry says the node keeps "
          "its meaning from opset " +
          std::to_string(from) + " to " + std::to_string(to);
    }
    return false;
  }
  for (const auto& set : n.attributes())
    if (!b->attributes().count(std::string(set.name())) && !holds_default(set, *a)) {
      if (why)
        *why = "attribute '" + std::string(set.name()) + "' is not in " + n.op_type() + "-" +
               std::to_string(b->SinceVersion()) + " (opset " + std::to_string(to) + ")";
      return false;
    }
  return true;
}

RETARGET_COMPILED_DECL std::string no_adapter_why(const ir::node_view& n, int from, int to) {
  if (to < from && !schema_at(n.op_type(), to))
    return n.op_type() + " is not in opset " + std::to_string(to) + " (it first appears in opset " +
           std::to_string(from) + ")";
  const auto* s = schema_at(n.op_type(), to < from ? from : to);
  return "no adapter in ONNX's converter or retarget's for " + n.op_type() + " from " +
         std::to_string(from) + " to " + std::to_string(to) +
         (s ? " (" + n.op_type() + "-" + std::to_string(s->SinceVersion()) + " changed it)" : "");
}

RETARGET_COMPILED_DECL void drop_attributes_not_at(ir::attribute_list& attributes,
                                                   const std::string& op, int to) {
  if (const auto* s = schema_at(op, to))
    ir::erase_attributes(attributes, [&](const ir::attribute_view& a) {
      return !s->attributes().count(std::string(a.name()));
    });
}

}  // namespace detail

// The plan's refusals as one error: every node, one a line.
RETARGET_COMPILED_DECL std::string to_string(const opset_plan& p) {
  std::string out = "cannot convert from opset " + std::to_string(p.from) + " to " +
                    std::to_string(p.to) + ": " + std::to_string(p.missing.size()) +
                    (p.missing.size() == 1 ? " node has" : " nodes have") + " no adapter";
  for (const auto& u : p.missing) out += "\n  " + to_string(u);
  return out;
}

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_DETAIL_OPSET_PLAN_IMPL_HPP
