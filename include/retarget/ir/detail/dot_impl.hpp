// The definitions of ir/dot.hpp: inline header-only, compiled once into retarget::compiled
// otherwise.
#ifndef RETARGET_IR_DETAIL_DOT_IMPL_HPP
#define RETARGET_IR_DETAIL_DOT_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <map>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/dot.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::ir {

namespace detail {

inline std::string dot_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";  // a line break in a Graphviz label
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

inline std::optional<std::vector<double>> small_values(const onnx::TensorProto& proto) {
  if (element_count(proto.dims()) > 8) return std::nullopt;
  try {
    return values_as_double(tensor(proto));
  } catch (const error&) {
    return std::nullopt;
  }
}

inline std::string attribute_text(const onnx::AttributeProto& a) {
  std::string out = a.name() + "=";
  const auto list = [&](const auto& values) {
    out += "[";
    int shown = 0;
    for (const auto& v : values) {
      if (shown == 8) {
        out += ", …";
        break;
      }
      std::ostringstream s;
      s << v;
      out += (shown++ ? ", " : "") + s.str();
    }
    out += "]";
  };
  switch (a.type()) {
    case onnx::AttributeProto::INT:
      out += std::to_string(a.i());
      break;
    case onnx::AttributeProto::FLOAT: {
      std::ostringstream s;
      s << a.f();
      out += s.str();
      break;
    }
    case onnx::AttributeProto::STRING:
      out += a.s();
      break;
    case onnx::AttributeProto::INTS:
      list(a.ints());
      break;
    case onnx::AttributeProto::FLOATS:
      list(a.floats());
      break;
    case onnx::AttributeProto::TENSOR:
      // Small constants (scales, axes) are worth reading; weights are not.
      if (const auto values = small_values(a.t()))
        list(*values);
      else
        out += std::string(to_string(static_cast<dtype>(a.t().data_type()))) + " tensor";
      break;
    case onnx::AttributeProto::GRAPH:
      out += "graph";
      break;
    default:
      out += "…";
      break;
  }
  return out;
}

// "[1, 3, height, width]", or nothing when the value's shape is not known.
inline std::string shape_text(const onnx::ValueInfoProto& v) {
  if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return {};
  return format_dims(v.type().tensor_type().shape());
}

}  // namespace detail

RETARGET_COMPILED_DECL std::string to_dot(const model& m) {
  const auto& g = m.graph();
  std::map<std::string, std::string> shapes;  // value → its shape, where known
  for (const auto* list : {&g.input(), &g.output(), &g.value_info()})
    for (const auto& v : *list) shapes[v.name()] = detail::shape_text(v);
  std::set<std::string> weights;
  for (const auto& t : g.initializer()) weights.insert(t.name());

  std::string out = "digraph \"" + detail::dot_escape(g.name().empty() ? "model" : g.name()) +
                    "\" {\n  rankdir=TB;\n  node [fontname=\"Helvetica\", fontsize=11];\n"
                    "  edge [fontname=\"Helvetica\", fontsize=9];\n";
  std::map<std::string, std::string> producer;  // value → the DOT node that makes it
  for (const auto& v : g.input()) {
    if (weights.contains(v.name())) continue;
    const std::string id = "in_" + std::to_string(producer.size());
    producer[v.name()] = id;
    out += "  " + id + " [shape=ellipse, style=filled, fillcolor=\"#d8ecff\", label=\"" +
           detail::dot_escape(v.name() + "\n" + detail::shape_text(v)) + "\"];\n";
  }
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    const std::string id = "n" + std::to_string(i);
    std::string label = (is_standard_domain(n.domain()) ? "" : n.domain() + "::") + n.op_type();
    for (const auto& a : n.attribute()) label += "\n" + detail::attribute_text(a);
    std::string weight_names;
    for (const auto& in : n.input())
      if (weights.contains(in)) weight_names += "\n" + in;
    out += "  " + id + " [shape=box, style=\"rounded,filled\", fillcolor=\"#f4f4f4\", label=\"" +
           detail::dot_escape(label + weight_names) + "\"];\n";
    for (const auto& in : n.input()) {
      const auto from = producer.find(in);
      if (from == producer.end()) continue;
      out += "  " + from->second + " -> " + id + " [label=\"" + detail::dot_escape(shapes[in]) +
             "\"];\n";
    }
    for (const auto& o : n.output())
      if (!o.empty()) producer[o] = id;
  }
  for (int i = 0; i < g.output_size(); ++i) {
    const auto& v = g.output(i);
    const std::string id = "out_" + std::to_string(i);
    out += "  " + id + " [shape=ellipse, style=filled, fillcolor=\"#dff5df\", label=\"" +
           detail::dot_escape(v.name() + "\n" + detail::shape_text(v)) + "\"];\n";
    if (const auto from = producer.find(v.name()); from != producer.end())
      out += "  " + from->second + " -> " + id + ";\n";
  }
  return out + "}\n";
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_DOT_IMPL_HPP
