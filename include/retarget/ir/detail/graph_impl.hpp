// The definitions of graph_base's emitter (ir/graph.hpp): inline header-only, compiled once
// into retarget::compiled otherwise, so that a unit that emits nodes compiles only its calls.
#ifndef RETARGET_IR_DETAIL_GRAPH_IMPL_HPP
#define RETARGET_IR_DETAIL_GRAPH_IMPL_HPP

#include <algorithm>
#include <cstddef>
#include <optional>
#include <retarget/ir/graph.hpp>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace retarget::ir {

RETARGET_IR_DECL std::vector<value> graph_base::emit(node_spec spec) {
  onnx::NodeProto node;
  node.set_op_type(spec.op_type);
  if (spec.domain) node.set_domain(*spec.domain);
  for (const auto& in : spec.inputs) {
    if (!in.valid()) {
      node.add_input("");
      continue;
    }
    check_owned(in, spec.op_type + " input");
    node.add_input(in.name());
  }
  for (auto& a : spec.attributes.items_) *node.add_attribute() = std::move(a);
  return emit_node(std::move(node), std::move(spec.outputs), spec.output_count,
                   std::optional<std::string>(std::move(spec.name)), std::move(spec.doc_string));
}

RETARGET_IR_DECL std::string graph_base::generate_name(
    const std::string& op_type, std::size_t counter, std::size_t output,
    const std::vector<std::string>& siblings) const {
  std::string base = op_type + "_" + std::to_string(counter);
  if (output > 0) base += "_" + std::to_string(output);
  const auto taken = [&](const std::string& n) {
    return root_->used_names_.count(n) || root_->reserved_names_.count(n) ||
           std::find(siblings.begin(), siblings.end(), n) != siblings.end();
  };
  std::string name = base;
  for (int k = 1; taken(name); ++k) name = base + "_x" + std::to_string(k);
  return name;
}

RETARGET_IR_DECL std::unordered_map<std::string, int> graph_base::import_map() const {
  std::unordered_map<std::string, int> out;
  for (const auto& [d, v] : root_->domain_versions_) out[d] = v;
  for (const char* d : {"ai.onnx.ml", "ai.onnx.preview.training"})
    if (!out.count(d)) out[d] = domain_version(d);
  return out;
}

RETARGET_IR_DECL void graph_base::note_domains(const onnx::NodeProto& node) {
  if (!canonical_domain(node.domain()).empty())
    root_->used_domains_.insert(node.domain());
  else
    root_->standard_domain_used_ = true;
  for (const auto& a : node.attribute()) {
    if (a.has_g())
      for (const auto& n : a.g().node()) note_domains(n);
    for (const auto& g : a.graphs())
      for (const auto& n : g.node()) note_domains(n);
  }
}

RETARGET_IR_DECL std::vector<value> graph_base::emit_node(onnx::NodeProto node,
                                                          std::vector<std::string> output_names,
                                                          std::size_t output_count,
                                                          std::optional<std::string> node_name,
                                                          std::string doc) {
  // Names are only claimed once the node is accepted, so a rejected node leaves no trace.
  const std::size_t counter = root_->node_counter_;
  if (node.op_type().empty()) throw error("retarget: a node needs an op type");
  if (output_names.empty())
    for (std::size_t i = 0; i < output_count; ++i)
      output_names.push_back(generate_name(node.op_type(), counter, i, output_names));
  else
    for (std::size_t i = 0; i < output_names.size(); ++i) {
      const auto& n = output_names[i];
      if (!n.empty() &&
          (root_->used_names_.count(n) ||
           std::find(output_names.begin(), output_names.begin() + static_cast<std::ptrdiff_t>(i),
                     n) != output_names.begin() + static_cast<std::ptrdiff_t>(i)))
        throw error("retarget: duplicate value name '" + n + "' for an output of " +
                    node.op_type());
    }
  for (const auto& n : output_names) node.add_output(n);
  // g.op names its nodes; a node_spec keeps the name it was given, even none.
  if (!node_name)
    node.set_name(node.op_type() + "_" + std::to_string(counter));
  else if (!node_name->empty())
    node.set_name(std::move(*node_name));
  if (!doc.empty()) node.set_doc_string(std::move(doc));

  // From the schema lookup to the end of inference: ONNX's registry is read throughout.
  const detail::schema_registry_reader reading;
  const int version = domain_version(node.domain());
  const auto& schema = detail::check_node(node, version, values_.types());
  if (!root_->inference_) root_->inference_ = detail::make_inference_state();
  const auto inferred =
      detail::infer_node(schema, node, version, values_, import_map(), *root_->inference_);

  note_domains(node);
  ++root_->node_counter_;
  for (const auto& n : node.output())
    if (!n.empty()) root_->used_names_.insert(n);
  auto* added = proto_.add_node();
  *added = std::move(node);
  std::vector<value> outs;
  for (int i = 0; i < added->output_size(); ++i) {
    const auto& n = added->output(i);
    if (n.empty()) continue;
    outs.push_back(add_value(n, i < static_cast<int>(inferred.size())
                                    ? inferred[static_cast<std::size_t>(i)]
                                    : onnx::TypeProto{}));
    values_.set_producer(n, proto_.node_size() - 1);
  }
  if (added->op_type() == "Constant" && added->domain().empty() && added->attribute_size() == 1) {
    const auto& a = added->attribute(0);
    if (a.has_t())
      values_.set_data(added->output(0), &a.t());
    else if (auto t = detail::constant_as_tensor(a))
      values_.own_data(added->output(0), std::move(*t));
  }
  return outs;
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_GRAPH_IMPL_HPP
