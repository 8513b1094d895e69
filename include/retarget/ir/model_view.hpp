// A model analyzed once, for every layer that reads one: each value's producer and consumers,
// whether it is a constant and its stored tensor, its type and static shape as shape inference
// finds them, and one way to name a node in a message. The view copies no weight: it points
// into the model (shared weights included), and inference runs on a copy of the graph that
// leaves large weights out.
//
//   const retarget::ir::model_view view(model);
//   for (int i = 0; i < view.node_count(); ++i)
//     if (view.node(i).op_type() == "Expand" && view.constant(view.node(i).input(1)))
//       std::cout << view.describe(i) << " expands to a constant shape\n";
#ifndef RETARGET_IR_MODEL_VIEW_HPP
#define RETARGET_IR_MODEL_VIEW_HPP

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/value.hpp>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace retarget::ir {

struct model_view_options {
  // Shape inference for the types of intermediate values; without it, the types the model
  // declares.
  bool infer_types = true;
  // ONNX's checker before its inference, which assumes a model the checker accepts (on
  // others it can crash); off for a model known to be valid but for what a caller is fixing.
  bool check_before_inference = true;
};

class model_view {
 public:
  // The view points into m, which must outlive it; it is not copied itself.
  model_view(const model_view&) = delete;
  model_view& operator=(const model_view&) = delete;

  using options = model_view_options;

  explicit model_view(const model& m) : model_view(m, options{}) {}
  model_view(const model& m, options o) : model_view(m.proto(), m.shared_initializers(), o) {}
  // A model as a proto that holds all its bytes (the opset driver's, between its steps).
  explicit model_view(const onnx::ModelProto& m, options o = {}) : model_view(m, {}, o) {}

  const onnx::ModelProto& proto() const noexcept { return proto_; }
  const onnx::GraphProto& graph() const noexcept { return proto_.graph(); }
  // The version of the default domain's opset, 0 when the model imports none.
  int opset() const { return detail::imported_version(proto_, "").value_or(0); }

  int node_count() const noexcept { return graph().node_size(); }
  const onnx::NodeProto& node(int i) const { return graph().node(i); }
  // Node i read through its view: what the layers above ir/ read.
  node_view at(int i) const { return node_view(graph().node(i)); }

  // The node's op, with its domain in canonical form ("" for the default domain).
  std::string_view domain(int i) const { return canonical_domain(node(i).domain()); }
  // "Clip '/features/0/Clip'": how every message names a node.
  std::string describe(int i) const { return describe_node(node(i)); }

  // The node that writes the value, or -1 (a graph input, an initializer, an unknown name).
  int producer(std::string_view name) const {
    const auto* f = find(name);
    return f ? f->producer : -1;
  }
  // The nodes that read the value, in graph order (a node reading it twice is listed twice).
  std::span<const int> consumers(std::string_view name) const {
    const auto* f = find(name);
    return f ? std::span<const int>(f->consumers) : std::span<const int>();
  }

  // The stored tensor of a constant: an initializer (a shared weight's own tensor), a
  // Constant's value, or an Identity of either; nullptr for anything computed or unknown.
  const onnx::TensorProto* constant(std::string_view name) const {
    const auto* f = find(name);
    return f ? f->constant : nullptr;
  }
  // The main graph's initializers' names, in order.
  std::vector<std::string> initializer_names() const {
    std::vector<std::string> out;
    for (const auto& t : graph().initializer()) out.push_back(t.name());
    return out;
  }
  bool is_initializer(std::string_view name) const {
    const auto* f = find(name);
    return f && f->initializer;
  }
  // Whether the value is an input of the main graph (an initializer may be one too: its
  // default value).
  bool is_graph_input(std::string_view name) const {
    const auto* f = find(name);
    return f && f->graph_input;
  }

  // The value's tensor type: a constant's from its tensor, others' as inferred or declared;
  // nullptr when none is known.
  const onnx::TypeProto* type(std::string_view name) const {
    const auto key = std::string(name);
    if (const auto it = constant_types_.find(key); it != constant_types_.end()) return &it->second;
    const auto it = types_.find(key);
    return it == types_.end() ? nullptr : it->second;
  }
  // The element type, or 0 (undefined) when not known.
  int element_type(std::string_view name) const {
    const auto* t = type(name);
    return t && t->has_tensor_type() ? t->tensor_type().elem_type() : 0;
  }
  // The rank, or nullopt when not known.
  std::optional<std::size_t> rank(std::string_view name) const {
    const auto* t = type(name);
    if (!t || !t->has_tensor_type() || !t->tensor_type().has_shape()) return std::nullopt;
    return static_cast<std::size_t>(t->tensor_type().shape().dim_size());
  }
  // The static dims, or nullopt when some dim (or the rank) is not known.
  std::optional<std::vector<std::int64_t>> static_shape(std::string_view name) const {
    const auto* t = type(name);
    if (!t || !t->has_tensor_type() || !t->tensor_type().has_shape()) return std::nullopt;
    std::vector<std::int64_t> out;
    for (const auto& d : t->tensor_type().shape().dim()) {
      if (!d.has_dim_value()) return std::nullopt;
      out.push_back(d.dim_value());
    }
    return out;
  }

 private:
  model_view(const onnx::ModelProto& m, std::span<const shared_initializer> shared, options o)
      : proto_(m) {
    const auto& g = m.graph();
    for (const auto& in : g.input()) {
      note_type(in);
      facts_[in.name()].graph_input = true;
    }
    for (const auto& v : g.value_info()) note_type(v);
    for (const auto& out : g.output()) note_type(out);
    for (const auto& t : g.initializer()) {
      facts_[t.name()].constant = &t;
      facts_[t.name()].initializer = true;
    }
    // A shared weight's entry has no bytes: its tensor has them.
    for (const auto& s : shared) facts_[g.initializer(s.index).name()].constant = &s.data->proto();
    for (int i = 0; i < g.node_size(); ++i) {
      const auto& n = g.node(i);
      for (const auto& in : n.input())
        if (!in.empty()) facts_[in].consumers.push_back(i);
      for (const auto& out : n.output())
        if (!out.empty()) facts_[out].producer = i;
    }
    // Constants made by nodes: a Constant's value, an Identity of a constant (in order, so a
    // chain of them resolves).
    for (const auto& n : g.node()) {
      if (!is_default_domain(n.domain()) || n.output_size() != 1 || n.output(0).empty()) continue;
      if (n.op_type() == "Constant") {
        for (const auto& a : n.attribute())
          if (a.name() == "value" && a.has_t()) facts_[n.output(0)].constant = &a.t();
      } else if (n.op_type() == "Identity" && n.input_size() == 1) {
        if (const auto* c = constant(n.input(0))) facts_[n.output(0)].constant = c;
      }
    }
    // A constant's type is its tensor's, whatever inference says.
    for (const auto& [name, f] : facts_)
      if (f.constant) constant_types_[name] = type_of(*f.constant);
    if (o.infer_types) infer_types(o.check_before_inference);
  }

  struct value_facts {
    int producer = -1;
    std::vector<int> consumers;
    const onnx::TensorProto* constant = nullptr;
    bool initializer = false;
    bool graph_input = false;
  };

  const value_facts* find(std::string_view name) const {
    const auto it = facts_.find(std::string(name));
    return it == facts_.end() ? nullptr : &it->second;
  }

  void note_type(const onnx::ValueInfoProto& v) {
    if (v.has_type() && v.type().has_tensor_type()) types_[v.name()] = &v.type();
  }

  // The model without its large weights (each an input of its type instead: no shape depends
  // on a weight's values), its types inferred; the view keeps the copy's value types.
  void infer_types(bool check_first) {
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
    inferred_ = std::move(*out.mutable_value_info());
    for (const auto& v : inferred_) note_type(v);
    // Outputs whose declared type had no shape may have one now.
    inferred_outputs_ = std::move(*out.mutable_output());
    for (const auto& v : inferred_outputs_) note_type(v);
  }

  // Weights of this many bytes or more stay out of inference's copy of the graph.
  static constexpr std::size_t large_bytes = 1024;

  const onnx::ModelProto& proto_;
  std::unordered_map<std::string, value_facts> facts_;
  std::unordered_map<std::string, const onnx::TypeProto*> types_;
  std::unordered_map<std::string, onnx::TypeProto> constant_types_;
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inferred_;
  google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inferred_outputs_;
};

}  // namespace retarget::ir

#endif  // RETARGET_IR_MODEL_VIEW_HPP
