// The definitions of ir/inspect.hpp: inline header-only, compiled once into retarget::compiled
// otherwise.
#ifndef RETARGET_IR_DETAIL_INSPECT_IMPL_HPP
#define RETARGET_IR_DETAIL_INSPECT_IMPL_HPP

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/inspect.hpp>
#include <retarget/ir/model.hpp>
#include <set>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace retarget::ir {

namespace detail {

inline value_summary summarize_value(const onnx::ValueInfoProto& v) {
  value_summary out{v.name(), "?", {}, false};
  if (!v.type().has_tensor_type()) return out;
  const auto& t = v.type().tensor_type();
  if (t.elem_type() != onnx::TensorProto_DataType_UNDEFINED)
    out.type = std::string(to_string(static_cast<dtype>(t.elem_type())));
  if (!t.has_shape()) return out;
  out.has_shape = true;
  for (const auto& d : t.shape().dim())
    out.dims.push_back(d.has_dim_value()   ? std::to_string(d.dim_value())
                       : d.has_dim_param() ? d.dim_param()
                                           : std::string("?"));
  return out;
}

inline std::uint64_t tensor_bytes(const onnx::TensorProto& t, std::int64_t elements) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    for (const auto& e : t.external_data())
      if (std::uint64_t length = 0;
          e.key() == "length" &&
          std::from_chars(e.value().data(), e.value().data() + e.value().size(), length).ec ==
              std::errc())
        return length;  // a length that is not a number: counted from the dims below
  if (t.has_raw_data()) return t.raw_data().size();
  const auto size = size_of(static_cast<dtype>(t.data_type()));
  return size ? static_cast<std::uint64_t>(elements) * size : 0;
}

inline void count_ops(const onnx::GraphProto& g, std::map<std::string, std::size_t>& ops,
                      std::set<std::string>& domains, std::size_t& nodes) {
  for (const auto& n : g.node()) {
    ++nodes;
    ++ops[is_standard_domain(n.domain()) ? n.op_type() : n.domain() + "::" + n.op_type()];
    if (!is_standard_domain(n.domain())) domains.insert(n.domain());
    for (const auto& a : n.attribute()) {
      if (a.has_g()) count_ops(a.g(), ops, domains, nodes);
      for (const auto& sub : a.graphs()) count_ops(sub, ops, domains, nodes);
    }
  }
}

}  // namespace detail

RETARGET_COMPILED_DECL model_summary summarize(const model& m) {
  const auto& proto = m.proto_without_shared_bytes();  // a shared weight counts by its dims
  const auto& g = proto.graph();
  model_summary out;
  out.ir_version = proto.ir_version();
  out.producer = proto.producer_name() +
                 (proto.producer_version().empty() ? "" : " " + proto.producer_version());
  for (const auto& o : proto.opset_import())
    out.opsets.emplace_back(o.domain().empty() ? "ai.onnx" : o.domain(), o.version());

  std::set<std::string> weights;
  for (const auto& t : g.initializer()) {
    weights.insert(t.name());
    const auto elements = element_count(t.dims());
    ++out.weight_count;
    out.parameter_count += elements;
    out.weight_bytes += detail::tensor_bytes(t, elements);
  }
  for (const auto& v : g.input())
    if (!weights.contains(v.name())) out.inputs.push_back(detail::summarize_value(v));
  for (const auto& v : g.output()) out.outputs.push_back(detail::summarize_value(v));

  std::map<std::string, std::size_t> ops;
  std::set<std::string> domains;
  detail::count_ops(g, ops, domains, out.node_count);
  out.ops.assign(ops.begin(), ops.end());
  std::stable_sort(out.ops.begin(), out.ops.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  out.custom_domains.assign(domains.begin(), domains.end());

  for (const auto& p : proto.metadata_props()) {
    if (p.key() == "retarget:backend")
      out.backend = p.value();
    else if (p.key() == "retarget:rewrites")
      out.rewrites = p.value();
    else
      out.metadata.emplace_back(p.key(), p.value());
  }
  return out;
}

RETARGET_COMPILED_DECL std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  std::ostringstream out;
  out.precision(unit == 0 ? 0 : 1);
  out << std::fixed << value << " " << units[unit];
  return out.str();
}

RETARGET_COMPILED_DECL std::ostream& operator<<(std::ostream& out, const model_summary& s) {
  const auto value_line = [&](const value_summary& v) {
    out << "  " << v.name << ": " << v.type;
    if (v.has_shape)
      out << " " << detail::bracketed(v.dims, [](const std::string& d) { return d; });
    out << "\n";
  };
  out << "ir version " << s.ir_version << (s.producer.empty() ? "" : ", produced by " + s.producer)
      << "\nopsets:";
  for (const auto& [domain, version] : s.opsets) out << " " << domain << " " << version;
  out << "\ninputs:\n";
  for (const auto& v : s.inputs) value_line(v);
  out << "outputs:\n";
  for (const auto& v : s.outputs) value_line(v);
  out << "nodes: " << s.node_count << "\n";
  for (const auto& [op, count] : s.ops) out << "  " << op << " " << count << "\n";
  out << "custom domains: ";
  if (s.custom_domains.empty()) out << "none";
  for (std::size_t i = 0; i < s.custom_domains.size(); ++i)
    out << (i ? ", " : "") << s.custom_domains[i];
  out << "\nweights: " << s.weight_count << " tensors, " << s.parameter_count << " parameters, "
      << human_bytes(s.weight_bytes) << "\n";
  out << "backend: " << s.backend.value_or("not recorded (not exported by retarget)") << "\n";
  if (s.rewrites) out << "rewrites: " << (s.rewrites->empty() ? "none" : *s.rewrites) << "\n";
  for (const auto& [key, value] : s.metadata) out << key << ": " << value << "\n";
  return out;
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_INSPECT_IMPL_HPP
