// The definitions of graph_base's emitter (ir/graph.hpp): inline header-only, compiled once
// into retarget::compiled otherwise, so that a unit that emits nodes compiles only its calls.
#ifndef RETARGET_IR_DETAIL_GRAPH_IMPL_HPP
#define RETARGET_IR_DETAIL_GRAPH_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <optional>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/detail/value_table.hpp>
#include <retarget/ir/graph.hpp>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::ir {

RETARGET_COMPILED_DECL graph_base::graph_base(int opset)
    : root_(this),
      proto_(std::make_unique<onnx::GraphProto>()),
      values_(std::make_unique<detail::value_table>()) {
  if (opset < min_opset || opset > max_opset)
    throw error("retarget: opset " + std::to_string(opset) +
                " is out of range: retarget emits opsets " + std::to_string(min_opset) + " to " +
                std::to_string(max_opset));
  domain_versions_[""] = opset;
}

RETARGET_COMPILED_DECL graph_base::graph_base(graph_base& parent)
    : root_(parent.root_),
      parent_(&parent),
      proto_(std::make_unique<onnx::GraphProto>()),
      values_(std::make_unique<detail::value_table>()) {
  values_->see_outer_scope(*parent.values_);
}

RETARGET_COMPILED_DECL graph_base::~graph_base() = default;

RETARGET_COMPILED_DECL const std::string& value::name() const { return graph_->values_->name(id_); }
RETARGET_COMPILED_DECL const onnx::TypeProto& value::type() const {
  return graph_->values_->type(id_);
}

RETARGET_COMPILED_DECL int graph_base::domain_version(std::string_view domain) const {
  const std::string d(canonical_domain(domain));
  const auto& versions = root_->domain_versions_;
  if (const auto it = versions.find(d); it != versions.end()) return it->second;
  if (is_standard_domain(d))
    if (const auto newest = detail::newest_known_version(d)) return *newest;
  throw error("retarget: custom domain '" + d +
              "' has no declared version: declare its schemas or call set_domain_version");
}

RETARGET_COMPILED_DECL value graph_base::input(std::string name, untyped_t) {
  require_subgraph("input", name);
  claim_name(name, "graph input");
  proto_->add_input()->set_name(name);
  return add_value(std::move(name), onnx::TypeProto{});
}

RETARGET_COMPILED_DECL value graph_base::input(std::string name, const onnx::TypeProto& type) {
  claim_name(name, "graph input");
  auto* info = proto_->add_input();
  info->set_name(name);
  *info->mutable_type() = type;
  return add_value(std::move(name), info->type());
}

RETARGET_COMPILED_DECL value graph_base::input(std::string name, dtype type,
                                               const std::vector<dim>& shape) {
  claim_name(name, "graph input");
  auto* info = proto_->add_input();
  info->set_name(name);
  auto* tensor_type = info->mutable_type()->mutable_tensor_type();
  tensor_type->set_elem_type(static_cast<int>(type));
  auto* s = tensor_type->mutable_shape();
  for (const auto& d : shape) {
    auto* out = s->add_dim();
    if (d.is_static())
      out->set_dim_value(d.size);
    else if (d.is_symbolic())
      out->set_dim_param(d.symbol);
  }
  return add_value(std::move(name), info->type());
}

RETARGET_COMPILED_DECL value graph_base::initializer(std::string name, tensor t) {
  claim_name(name, "initializer");
  auto* init = proto_->add_initializer();
  *init = std::move(t.proto());
  init->set_name(name);
  const value v = add_value(std::move(name), type_of(*init));
  values_->set_data(v.name(), init);
  return v;
}

RETARGET_COMPILED_DECL value graph_base::initializer(std::string name,
                                                     std::shared_ptr<const tensor> t) {
  if (!t) throw error("retarget: initializer '" + name + "' given no tensor");
  if (parent_ || !t->has_raw_data()) return initializer(std::move(name), *t);
  claim_name(name, "initializer");
  auto* init = proto_->add_initializer();
  *init = t->header();
  init->set_name(name);
  const value v = add_value(std::move(name), type_of(*init));
  values_->set_data(v.name(), &t->proto());  // shape inference sees the values
  shared_.push_back({proto_->initializer_size() - 1, std::move(t)});
  return v;
}

RETARGET_COMPILED_DECL std::size_t graph_base::prune_unused_initializers() {
  std::unordered_set<std::string> read;
  collect_reads(*proto_, read);
  for (const auto& o : proto_->output()) read.insert(o.name());
  for (const auto& i : proto_->input()) read.insert(i.name());
  auto& initializers = *proto_->mutable_initializer();
  std::vector<int> new_index(static_cast<std::size_t>(initializers.size()), -1);
  google::protobuf::RepeatedPtrField<onnx::TensorProto> kept;
  for (int i = 0; i < initializers.size(); ++i)
    if (read.count(initializers[i].name())) {
      new_index[static_cast<std::size_t>(i)] = kept.size();
      kept.Add()->Swap(&initializers[i]);
    } else {
      values_->clear_data(initializers[i].name());
    }
  const auto removed = static_cast<std::size_t>(initializers.size() - kept.size());
  initializers.Swap(&kept);
  std::vector<shared_initializer> shared;
  for (auto& s : shared_)
    if (const int at = new_index[static_cast<std::size_t>(s.index)]; at >= 0) {
      s.index = at;
      shared.push_back(std::move(s));
    }
  shared_ = std::move(shared);
  // The values' data pointed into the initializers moved by the swap: point them anew.
  for (const auto& t : proto_->initializer()) values_->set_data(t.name(), &t);
  for (const auto& s : shared_)
    values_->set_data(proto_->initializer(s.index).name(), &s.data->proto());
  return removed;
}

RETARGET_COMPILED_DECL value graph_base::constant(tensor t) {
  auto d = start("", "Constant");
  add_argument(d, attribute<"value", attr_type::tensor, tensor>{std::move(t)});
  return finish(std::move(d), 1).front();
}

RETARGET_COMPILED_DECL void graph_base::output(const value& v, std::string name,
                                               const onnx::TypeProto& declared) {
  output(v, std::move(name));
  *proto_->mutable_output(proto_->output_size() - 1)->mutable_type() = declared;
}

RETARGET_COMPILED_DECL void graph_base::output(const value& v, std::string name, untyped_t) {
  require_subgraph("output", name.empty() ? v.name() : name);
  output(v, std::move(name));
  proto_->mutable_output(proto_->output_size() - 1)->clear_type();
}

RETARGET_COMPILED_DECL void graph_base::output(const value& v, std::string name) {
  check_owned(v, "output");
  if (output_names_.count(name.empty() ? v.name() : name))
    throw error("retarget: graph output name '" + (name.empty() ? v.name() : name) +
                "' is used twice");
  value out = v;
  if (!name.empty() && name != v.name()) {
    if (values_->is_node_output(v.name()) && !output_names_.count(v.name()) &&
        !root_->used_names_.count(name)) {
      rename(v, name);
    } else {
      if (root_->used_names_.count(name))
        throw error("retarget: graph output name '" + name +
                    "' is already the name of another value");
      // An input or a value already given out under its own name is copied under the new one.
      auto d = start("", "Identity");
      add_argument(d, v);
      out = emit_node(std::move(*d.node), {name}, 1, std::nullopt, {}).front();
    }
  }
  output_names_.insert(out.name());
  auto* info = proto_->add_output();
  info->set_name(out.name());
  *info->mutable_type() = out.type();
}

RETARGET_COMPILED_DECL value graph_base::find(std::string_view name) const {
  for (const graph_base* g = this; g; g = g->parent_)
    if (const auto id = g->values_->find(std::string(name)))
      return value(const_cast<graph_base*>(g), *id);
  throw error("retarget: no value named '" + std::string(name) + "' in the graph");
}

RETARGET_COMPILED_DECL std::optional<node_view> graph_base::producer(const value& v) const {
  const int index = v.graph_ == this ? values_->producer(v.name()) : -1;
  if (index < 0) return std::nullopt;
  return node_view(proto_->node(index));
}

RETARGET_COMPILED_DECL const onnx::TensorProto* graph_base::constant_data(const value& v) const {
  const auto& data = v.graph_->values_->data();
  const auto it = data.find(v.name());
  return it == data.end() ? nullptr : it->second;
}

// How many of the nodes read `name`, each once however often it reads it (a subgraph's nodes
// reading it count for the node that holds the subgraph: names are unique across subgraphs).
RETARGET_LAZY_HELPER std::size_t count_readers(
    const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes, const std::string& name) {
  std::size_t n = 0;
  for (const auto& node : nodes) {
    bool reads = std::find(node.input().begin(), node.input().end(), name) != node.input().end();
    for (const auto& a : node.attribute()) {
      if (reads) break;
      if (a.has_g() && count_readers(a.g().node(), name)) reads = true;
      for (const auto& body : a.graphs())
        if (count_readers(body.node(), name)) reads = true;
    }
    n += reads;
  }
  return n;
}

RETARGET_COMPILED_DECL std::size_t graph_base::readers(const value& v) const {
  return count_readers(proto_->node(), v.name());
}

RETARGET_COMPILED_DECL std::optional<attribute_view> graph_base::attribute_or_default(
    const node_view& node, std::string_view name) const {
  if (auto own = node.attribute(name)) return own;
  const auto& attributes = schema_of(node).attributes();
  const auto it = attributes.find(std::string(name));
  if (it == attributes.end() || !it->second.default_value.has_type()) return std::nullopt;
  return attribute_view(it->second.default_value);
}

RETARGET_COMPILED_DECL const onnx::OpSchema& graph_base::schema_of(
    const onnx::NodeProto& node) const {
  const detail::schema_registry_reader reading;
  return detail::schema_for(node, domain_version(node.domain()));
}

RETARGET_COMPILED_DECL std::size_t graph_base::node_count() const noexcept {
  return static_cast<std::size_t>(proto_->node_size());
}
RETARGET_COMPILED_DECL node_view graph_base::node(std::size_t i) const {
  return node_view(proto_->node(static_cast<int>(i)));
}
RETARGET_COMPILED_DECL void graph_base::set_doc_string(std::size_t i, std::string doc) {
  proto_->mutable_node(static_cast<int>(i))->set_doc_string(std::move(doc));
}
RETARGET_COMPILED_DECL void graph_base::set_name(std::string name) {
  proto_->set_name(std::move(name));
}

RETARGET_COMPILED_DECL graph_base::draft::draft() : node(std::make_unique<onnx::NodeProto>()) {}
RETARGET_COMPILED_DECL graph_base::draft::draft(draft&& other) noexcept = default;
RETARGET_COMPILED_DECL graph_base::draft::~draft() = default;

RETARGET_COMPILED_DECL graph_base::draft graph_base::start(std::string_view domain,
                                                           std::string_view type) const {
  draft d;
  d.node->set_op_type(std::string(type));
  if (!domain.empty()) d.node->set_domain(std::string(domain));
  return d;
}
RETARGET_COMPILED_DECL void graph_base::add_argument(draft& d, const value& v) const {
  check_owned(v, d.node->op_type() + " input");
  d.node->add_input(v.name());
}
RETARGET_COMPILED_DECL void graph_base::add_argument(draft& d, no_input_t) const {
  d.node->add_input("");
}
RETARGET_COMPILED_DECL onnx::AttributeProto& graph_base::new_attribute(draft& d) {
  return *d.node->add_attribute();
}
RETARGET_COMPILED_DECL std::vector<value> graph_base::finish(draft&& d, std::size_t outputs) {
  return emit_node(std::move(*d.node), {}, outputs, std::nullopt, {});
}

RETARGET_COMPILED_DECL value graph_base::add_value(std::string name, const onnx::TypeProto& type) {
  return value(this, values_->add(std::move(name), type));
}

RETARGET_COMPILED_DECL void graph_base::collect_reads(const onnx::GraphProto& g,
                                                      std::unordered_set<std::string>& read) {
  for (const auto& n : g.node()) {
    for (const auto& i : n.input())
      if (!i.empty()) read.insert(i);
    for (const auto& a : n.attribute()) {
      if (a.has_g()) collect_reads(a.g(), read);
      for (const auto& body : a.graphs()) collect_reads(body, read);
    }
  }
}

RETARGET_COMPILED_DECL void graph_base::rename(const value& v, const std::string& to) {
  const std::string from = v.name();
  root_->used_names_.insert(to);
  for (auto& node : *proto_->mutable_node()) {
    for (auto& in : *node.mutable_input())
      if (in == from) in = to;
    for (auto& out : *node.mutable_output())
      if (out == from) out = to;
  }
  values_->rename(v.id_, to);
}

RETARGET_COMPILED_DECL std::vector<value> graph_base::emit(node_spec spec) {
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
  for (auto& a : *spec.attributes.items_) *node.add_attribute() = std::move(a);
  return emit_node(std::move(node), std::move(spec.outputs), spec.output_count,
                   std::optional<std::string>(std::move(spec.name)), std::move(spec.doc_string));
}

RETARGET_COMPILED_DECL std::string graph_base::generate_name(
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

RETARGET_COMPILED_DECL std::unordered_map<std::string, int> graph_base::import_map() const {
  std::unordered_map<std::string, int> out;
  for (const auto& [d, v] : root_->domain_versions_) out[d] = v;
  for (const char* d : {"ai.onnx.ml", "ai.onnx.preview.training"})
    if (!out.count(d)) out[d] = domain_version(d);
  return out;
}

RETARGET_COMPILED_DECL void graph_base::note_domains(const onnx::NodeProto& node) {
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

RETARGET_COMPILED_DECL std::vector<value> graph_base::emit_node(
    onnx::NodeProto node, std::vector<std::string> output_names, std::size_t output_count,
    std::optional<std::string> node_name, std::string doc) {
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
  // g.op names its nodes, clear of every name taken or reserved (a rebuilt model's node names:
  // a later pass must not name a node as an earlier one did); a node_spec keeps the name it was
  // given, even none.
  if (!node_name)
    node.set_name(generate_name(node.op_type(), counter, 0, {}));
  else if (!node_name->empty())
    node.set_name(std::move(*node_name));
  if (!doc.empty()) node.set_doc_string(std::move(doc));

  // From the schema lookup to the end of inference: ONNX's registry is read throughout.
  const detail::schema_registry_reader reading;
  const int version = domain_version(node.domain());
  const auto& schema = detail::check_node(node, version, values_->types());
  if (!root_->inference_) root_->inference_ = detail::make_inference_state();
  const auto inferred =
      detail::infer_node(schema, node, version, *values_, import_map(), *root_->inference_);

  note_domains(node);
  ++root_->node_counter_;
  for (const auto& n : node.output())
    if (!n.empty()) root_->used_names_.insert(n);
  auto* added = proto_->add_node();
  *added = std::move(node);
  std::vector<value> outs;
  for (int i = 0; i < added->output_size(); ++i) {
    const auto& n = added->output(i);
    if (n.empty()) continue;
    outs.push_back(add_value(n, i < static_cast<int>(inferred.size())
                                    ? inferred[static_cast<std::size_t>(i)]
                                    : onnx::TypeProto{}));
    values_->set_producer(n, proto_->node_size() - 1);
  }
  if (added->op_type() == "Constant" && added->domain().empty() && added->attribute_size() == 1) {
    const auto& a = added->attribute(0);
    if (a.has_t())
      values_->set_data(added->output(0), &a.t());
    else if (auto t = detail::constant_as_tensor(a))
      values_->own_data(added->output(0), std::move(*t));
  }
  return outs;
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_GRAPH_IMPL_HPP
