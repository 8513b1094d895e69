// The definitions of ir/model_view.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_IR_DETAIL_MODEL_VIEW_IMPL_HPP
#define RETARGET_IR_DETAIL_MODEL_VIEW_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/value.hpp>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::ir {

struct model_view::value_facts {
  int producer = -1;
  std::vector<int> consumers;
  const onnx::TensorProto* constant = nullptr;
  bool initializer = false;
  bool graph_input = false;
  bool graph_output = false;
  bool declared_shape = false;  // a graph input's or output's ValueInfo has a shape
};

struct model_view::state {
  std::unordered_map<std::string, value_facts> facts;
  std::unordered_map<std::string, const onnx::TypeProto*> types;
  std::unordered_map<std::string, onnx::TypeProto> constant_types;
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inferred;
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inferred_outputs;
};

RETARGET_COMPILED_DECL model_view::model_view(const model& m) : model_view(m, options{}) {}
RETARGET_COMPILED_DECL model_view::model_view(const model& m, options o)
    : model_view(m.proto(), m.shared_initializers(), o) {}
RETARGET_COMPILED_DECL model_view::model_view(const onnx::ModelProto& m, options o)
    : model_view(m, {}, o) {}

RETARGET_COMPILED_DECL model_view::model_view(const onnx::ModelProto& m,
                                              std::span<const shared_initializer> shared, options o)
    : proto_(m), state_(std::make_unique<state>()) {
  auto& facts = state_->facts;
  const auto& g = m.graph();
  for (const auto& in : g.input()) {
    note_type(in);
    facts[in.name()].graph_input = true;
    facts[in.name()].declared_shape |= in.type().tensor_type().has_shape();
  }
  for (const auto& v : g.value_info()) note_type(v);
  for (const auto& out : g.output()) {
    note_type(out);
    facts[out.name()].graph_output = true;
    facts[out.name()].declared_shape |= out.type().tensor_type().has_shape();
  }
  for (const auto& t : g.initializer()) {
    facts[t.name()].constant = &t;
    facts[t.name()].initializer = true;
  }
  // A shared weight's entry has no bytes: its tensor has them.
  for (const auto& s : shared) facts[g.initializer(s.index).name()].constant = &s.data->proto();
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    for (const auto& in : n.input())
      if (!in.empty()) facts[in].consumers.push_back(i);
    for (const auto& out : n.output())
      if (!out.empty()) facts[out].producer = i;
  }
  // Constants made by nodes: a Constant's value, an Identity of a constant (in order, so a
  // chain of them resolves).
  for (const auto& n : g.node()) {
    if (!is_default_domain(n.domain()) || n.output_size() != 1 || n.output(0).empty()) continue;
    if (n.op_type() == "Constant") {
      for (const auto& a : n.attribute())
        if (a.name() == "value" && a.has_t()) facts[n.output(0)].constant = &a.t();
    } else if (n.op_type() == "Identity" && n.input_size() == 1) {
      if (const auto* c = constant(n.input(0))) facts[n.output(0)].constant = c;
    }
  }
  // A constant's type is its tensor's, whatever inference says.
  for (const auto& [name, f] : facts)
    if (f.constant) state_->constant_types[name] = type_of(*f.constant);
  if (o.infer_types) infer_types(o.check_before_inference);
}

RETARGET_COMPILED_DECL model_view::~model_view() = default;

RETARGET_COMPILED_DECL const onnx::GraphProto& model_view::graph() const noexcept {
  return proto_.graph();
}

RETARGET_COMPILED_DECL int model_view::opset() const {
  return detail::imported_version(proto_, "").value_or(0);
}

RETARGET_COMPILED_DECL int model_view::node_count() const noexcept { return graph().node_size(); }

RETARGET_COMPILED_DECL const onnx::NodeProto& model_view::node(int i) const {
  return graph().node(i);
}

RETARGET_COMPILED_DECL node_view model_view::at(int i) const { return node_view(graph().node(i)); }

RETARGET_COMPILED_DECL std::string_view model_view::domain(int i) const {
  return canonical_domain(node(i).domain());
}

RETARGET_COMPILED_DECL std::string model_view::describe(int i) const {
  return describe_node(node(i));
}

RETARGET_COMPILED_DECL int model_view::producer(std::string_view name) const {
  const auto* f = find(name);
  return f ? f->producer : -1;
}

RETARGET_COMPILED_DECL std::span<const int> model_view::consumers(std::string_view name) const {
  const auto* f = find(name);
  return f ? std::span<const int>(f->consumers) : std::span<const int>();
}

RETARGET_COMPILED_DECL const onnx::TensorProto* model_view::constant(std::string_view name) const {
  const auto* f = find(name);
  return f ? f->constant : nullptr;
}

RETARGET_COMPILED_DECL std::vector<std::string> model_view::initializer_names() const {
  std::vector<std::string> out;
  for (const auto& t : graph().initializer()) out.push_back(t.name());
  return out;
}

RETARGET_COMPILED_DECL bool model_view::is_initializer(std::string_view name) const {
  const auto* f = find(name);
  return f && f->initializer;
}

RETARGET_COMPILED_DECL bool model_view::is_graph_input(std::string_view name) const {
  const auto* f = find(name);
  return f && f->graph_input;
}

RETARGET_COMPILED_DECL bool model_view::is_graph_output(std::string_view name) const {
  const auto* f = find(name);
  return f && f->graph_output;
}

RETARGET_COMPILED_DECL bool model_view::declares_shape(std::string_view name) const {
  const auto* f = find(name);
  return f && f->declared_shape;
}

RETARGET_COMPILED_DECL const onnx::TypeProto* model_view::type(std::string_view name) const {
  const auto key = std::string(name);
  if (const auto it = state_->constant_types.find(key); it != state_->constant_types.end())
    return &it->second;
  const auto it = state_->types.find(key);
  return it == state_->types.end() ? nullptr : it->second;
}

RETARGET_COMPILED_DECL int model_view::element_type(std::string_view name) const {
  const auto* t = type(name);
  return t && t->has_tensor_type() ? t->tensor_type().elem_type() : 0;
}

RETARGET_COMPILED_DECL std::optional<std::size_t> model_view::rank(std::string_view name) const {
  const auto* t = type(name);
  if (!t || !t->has_tensor_type() || !t->tensor_type().has_shape()) return std::nullopt;
  return static_cast<std::size_t>(t->tensor_type().shape().dim_size());
}

RETARGET_COMPILED_DECL std::optional<std::vector<std::int64_t>> model_view::static_shape(
    std::string_view name) const {
  const auto* t = type(name);
  if (!t || !t->has_tensor_type() || !t->tensor_type().has_shape()) return std::nullopt;
  std::vector<std::int64_t> out;
  for (const auto& d : t->tensor_type().shape().dim()) {
    if (!d.has_dim_value()) return std::nullopt;
    out.push_back(d.dim_value());
  }
  return out;
}

RETARGET_COMPILED_DECL const model_view::value_facts* model_view::find(
    std::string_view name) const {
  const auto it = state_->facts.find(std::string(name));
  return it == state_->facts.end() ? nullptr : &it->second;
}

RETARGET_COMPILED_DECL void model_view::note_type(const onnx::ValueInfoProto& v) {
  if (v.has_type() && v.type().has_tensor_type()) state_->types[v.name()] = &v.type();
}

RETARGET_COMPILED_DECL void model_view::infer_types(bool check_first) {
  const auto& source = proto_;
  onnx::ModelProto skeleton;
  skeleton.set_ir_version(source.ir_version());
  *skeleton.mutable_opset_import() = source.opset_import();
  *skeleton.mutable_functions() = source.functions();
  const auto& g = source.graph();
  auto& out = *skeleton.mutable_graph();
  out.set_name(g.name());
  *out.mutable_node() = g.node();
  *out.mutable_input() = g.input();
  *out.mutable_output() = g.output();
  *out.mutable_value_info() = g.value_info();
  std::unordered_set<std::string> inputs;
  for (const auto& in : g.input()) inputs.insert(in.name());
  for (const auto& t : g.initializer()) {
    const auto* c = constant(t.name());
    const bool large = c && c->raw_data().size() >= large_bytes;
    if (!large && c == &t) {
      *out.add_initializer() = t;
    } else if (!inputs.contains(t.name())) {
      auto* in = out.add_input();
      in->set_name(t.name());
      *in->mutable_type() = type_of(t);
    }
  }
  try {
    const detail::schema_registry_reader reading;
    if (check_first) detail::check_model(skeleton);
    detail::infer_model_shapes(skeleton, /*strict=*/false);
  } catch (const std::exception&) {
    return;  // the declared types only: a layer reads what it can without the rest
  }
  state_->inferred = std::move(*out.mutable_value_info());
  for (const auto& v : state_->inferred) note_type(v);
  // Outputs whose declared type had no shape may have one now.
  state_->inferred_outputs = std::move(*out.mutable_output());
  for (const auto& v : state_->inferred_outputs) note_type(v);
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_MODEL_VIEW_IMPL_HPP
