// The graph builder symbolics write to: the `g` of `g.op(...)`. Each node is checked against
// its schema at the graph's opset when it is emitted, and its outputs get their element
// types and shapes from ONNX shape inference at once.
//
//   retarget::ir::graph g(17);
//   auto x = g.input("x", dtype::f32, {1, 3, "height", "width"});
//   auto y = g.op("Resize", x, g.constant(empty_f32), scales, "mode"_s = "cubic");
//   g.output(y, "y");
#ifndef RETARGET_IR_GRAPH_HPP
#define RETARGET_IR_GRAPH_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <retarget/core/error.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/detail/emitter.hpp>
#include <retarget/ir/detail/linkage.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/detail/value_table.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/op_name.hpp>
#include <retarget/ir/schema.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/value.hpp>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::ir {

// The opsets the ONNX library knows. Exports choose among 7 to 17 (trace/export.hpp); a
// converter that rebuilds an older model node by node may go lower.
inline constexpr int min_opset = 1;
inline constexpr int max_opset = 17;
inline constexpr int default_opset = 17;

// A node described at run time: for converters that read nodes from a file.
struct node_spec {
  std::string op_type;
  std::optional<std::string> domain;  // kept as given: an explicit "" stays in the node
  std::vector<value> inputs;          // an invalid value() is an absent optional input
  attribute_list attributes;
  std::vector<std::string> outputs;  // names to give the outputs; empty: generated
  std::size_t output_count = 1;      // how many outputs, when no names are given
  std::string name;                  // the node's name, kept as given (empty: none)
  std::string doc_string;
};

// Declares a subgraph's input or output without a type (its node gives the type), as ONNX allows
// there: g.input("i", untyped), g.output(v, "o", untyped).
struct untyped_t {
  explicit untyped_t() = default;
};
inline constexpr untyped_t untyped{};

class graph_base {
 public:
  explicit graph_base(int opset = default_opset) : root_(this) {
    if (opset < min_opset || opset > max_opset)
      throw error("retarget: opset " + std::to_string(opset) +
                  " is out of range: retarget emits opsets " + std::to_string(min_opset) + " to " +
                  std::to_string(max_opset));
    domain_versions_[""] = opset;
  }
  graph_base(const graph_base&) = delete;
  graph_base& operator=(const graph_base&) = delete;
  graph_base(graph_base&&) = delete;
  graph_base& operator=(graph_base&&) = delete;

  int opset() const { return root_->domain_versions_.at(""); }

  // The version of a domain's opset this graph emits: "" is the graph's opset; others must be
  // set (custom schemas set theirs) except ai.onnx.ml and ai.onnx.preview.training, which
  // default to the newest the ONNX library knows.
  int domain_version(std::string_view domain) const {
    const std::string d(canonical_domain(domain));
    const auto& versions = root_->domain_versions_;
    if (const auto it = versions.find(d); it != versions.end()) return it->second;
    if (is_standard_domain(d))
      if (const auto newest = detail::newest_known_version(d)) return *newest;
    throw error("retarget: custom domain '" + d +
                "' has no declared version: declare its schemas or call set_domain_version");
  }
  void set_domain_version(std::string domain, int version) {
    if (canonical_domain(domain).empty())
      throw error(
          "retarget: the standard domain's version is the graph's opset, fixed at construction");
    if (version < 1)
      throw error("retarget: domain '" + domain + "' version " + std::to_string(version) +
                  " is out of range: versions start at 1");
    root_->domain_versions_[std::move(domain)] = version;
  }
  // The (domain, version) pairs of the domains this graph's nodes use, the standard one first
  // (always, unless import_standard_domain_only_if_used was called).
  std::vector<std::pair<std::string, int>> opset_imports() const {
    std::vector<std::pair<std::string, int>> out;
    if (root_->standard_domain_used_ || !root_->standard_domain_only_if_used_)
      out.emplace_back("", opset());
    for (const auto& d : root_->used_domains_) out.emplace_back(d, domain_version(d));
    return out;
  }
  // Imports the standard domain only if a node uses it: for a model of other domains alone (a
  // training graph of ai.onnx.preview.training), which imports nothing else. The graph's opset
  // still checks the nodes of the standard domain a rewrite may add.
  void import_standard_domain_only_if_used() { root_->standard_domain_only_if_used_ = true; }

  // ---- Values that are not node outputs ----

  // A subgraph input without a type: the node that runs the subgraph gives it.
  value input(std::string name, untyped_t) {
    require_subgraph("input", name);
    claim_name(name, "graph input");
    proto_.add_input()->set_name(name);
    return add_value(std::move(name), onnx::TypeProto{});
  }

  // A graph input of any type (a sequence, an optional, a map), as a converter reads it.
  value input(std::string name, const onnx::TypeProto& type) {
    claim_name(name, "graph input");
    auto* info = proto_.add_input();
    info->set_name(name);
    *info->mutable_type() = type;
    return add_value(std::move(name), info->type());
  }

  value input(std::string name, dtype type, const std::vector<dim>& shape) {
    claim_name(name, "graph input");
    auto* info = proto_.add_input();
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

  value initializer(std::string name, tensor t) {
    claim_name(name, "initializer");
    auto* init = proto_.add_initializer();
    *init = std::move(t.proto());
    init->set_name(name);
    const value v = add_value(std::move(name), type_of(*init));
    values_.set_data(v.name(), init);
    return v;
  }
  value initializer(std::string name, dtype type, dims_t dims, std::span<const std::byte> bytes) {
    return initializer(std::move(name), tensor::from_raw(type, std::move(dims), bytes));
  }
  // An initializer that shares t's bytes instead of copying them: the graph's proto holds
  // its name, type and dims, and the bytes stay in t until a model's proto is needed whole
  // (save() streams them to the file without that). Inside a subgraph, t is copied.
  value initializer(std::string name, std::shared_ptr<const tensor> t) {
    if (!t) throw error("retarget: initializer '" + name + "' given no tensor");
    if (parent_ || !t->has_raw_data()) return initializer(std::move(name), *t);
    claim_name(name, "initializer");
    auto* init = proto_.add_initializer();
    *init = t->header();
    init->set_name(name);
    const value v = add_value(std::move(name), type_of(*init));
    values_.set_data(v.name(), &t->proto());  // shape inference sees the values
    shared_.push_back({proto_.initializer_size() - 1, std::move(t)});
    return v;
  }
  // The initializers sharing their bytes, for make_model.
  std::vector<shared_initializer> take_shared_initializers() noexcept { return std::move(shared_); }

  // Removes the initializers that no node (nor subgraph), graph output or graph input reads,
  // as when a symbolic stored a weight folded (transposed) in place of the weight itself;
  // returns how many went.
  std::size_t prune_unused_initializers() {
    std::unordered_set<std::string> read;
    collect_reads(proto_, read);
    for (const auto& o : proto_.output()) read.insert(o.name());
    for (const auto& i : proto_.input()) read.insert(i.name());
    auto& initializers = *proto_.mutable_initializer();
    std::vector<int> new_index(static_cast<std::size_t>(initializers.size()), -1);
    google::protobuf::RepeatedPtrField<onnx::TensorProto> kept;
    for (int i = 0; i < initializers.size(); ++i)
      if (read.count(initializers[i].name())) {
        new_index[static_cast<std::size_t>(i)] = kept.size();
        kept.Add()->Swap(&initializers[i]);
      } else {
        values_.clear_data(initializers[i].name());
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
    for (const auto& t : proto_.initializer()) values_.set_data(t.name(), &t);
    for (const auto& s : shared_)
      values_.set_data(proto_.initializer(s.index).name(), &s.data->proto());
    return removed;
  }

  // A Constant node holding the tensor.
  value constant(tensor t) {
    auto d = start("", "Constant");
    add_argument(d, attribute<"value", attr_type::tensor, tensor>{std::move(t)});
    return finish(std::move(d), 1).front();
  }
  value constant(empty_tensor e) { return constant(tensor::empty(e.type)); }

  // Marks v as a graph output with a declared type, for when inference cannot tell the shape
  // (graph outputs must have one): ONNX's checker verifies it against the inferred one.
  void output(const value& v, std::string name, const onnx::TypeProto& declared) {
    output(v, std::move(name));
    *proto_.mutable_output(proto_.output_size() - 1)->mutable_type() = declared;
  }

  // Marks v as an output of a subgraph that declares no type for it (its node infers it).
  void output(const value& v, std::string name, untyped_t) {
    require_subgraph("output", name.empty() ? v.name() : name);
    output(v, std::move(name));
    proto_.mutable_output(proto_.output_size() - 1)->clear_type();
  }

  // Marks v as a graph output, named `name` (v's own name when empty).
  void output(const value& v, std::string name = {}) {
    check_owned(v, "output");
    if (output_names_.count(name.empty() ? v.name() : name))
      throw error("retarget: graph output name '" + (name.empty() ? v.name() : name) +
                  "' is used twice");
    value out = v;
    if (!name.empty() && name != v.name()) {
      if (values_.is_node_output(v.name()) && !output_names_.count(v.name()) &&
          !root_->used_names_.count(name)) {
        rename(v, name);
      } else {
        if (root_->used_names_.count(name))
          throw error("retarget: graph output name '" + name +
                      "' is already the name of another value");
        // An input or a value already given out under its own name is copied under the new one.
        auto d = start("", "Identity");
        add_argument(d, v);
        out = emit_node(std::move(d.node), {name}, 1, std::nullopt, {}).front();
      }
    }
    output_names_.insert(out.name());
    auto* info = proto_.add_output();
    info->set_name(out.name());
    *info->mutable_type() = out.type();
  }

  // Whether a value of the graph (or of its outer graphs and subgraphs) has that name.
  bool has_name(const std::string& name) const { return root_->used_names_.count(name) > 0; }

  // The value of that name in this graph (or, for a subgraph, its outer graphs).
  value find(std::string_view name) const {
    for (const graph_base* g = this; g; g = g->parent_)
      if (const auto id = g->values_.find(std::string(name)))
        return value(const_cast<graph_base*>(g), *id);
    throw error("retarget: no value named '" + std::string(name) + "' in the graph");
  }

  // The node of this graph that produces v, or nullopt for an input, an initializer or a
  // value of an outer graph: what a pattern walks up from.
  std::optional<node_view> producer(const value& v) const {
    const int index = v.graph_ == this ? values_.producer(v.name()) : -1;
    if (index < 0) return std::nullopt;
    return node_view(proto_.node(index));
  }
  // The stored tensor of an initializer or a Constant's output, or nullptr when v is computed.
  const onnx::TensorProto* constant_data(const value& v) const {
    const auto& data = v.graph_->values_.data();
    const auto it = data.find(v.name());
    return it == data.end() ? nullptr : it->second;
  }
  // Names that generated names stay clear of, though explicit ones may still take them: a
  // converter reserves the names of the model it rebuilds before emitting a node of its own.
  template <class Names>
  void reserve_names(const Names& names) {
    for (const auto& n : names) root_->reserved_names_.insert(std::string(n));
  }

  // The schema a node of this graph's opset would be checked against; retarget::error, naming
  // the op and the opset, when its op is unknown there (not yet defined, or deprecated).
  const onnx::OpSchema& schema_of(const onnx::NodeProto& node) const {
    const detail::schema_registry_reader reading;
    return detail::schema_for(node, domain_version(node.domain()));
  }
  const onnx::OpSchema& schema_of(const node_view& node) const { return schema_of(node.proto()); }

  // ---- Nodes ----

  // Checks the node at this graph's opset, infers its outputs' types, and adds it.
  std::vector<value> emit(node_spec spec);

  const onnx::GraphProto& proto() const noexcept { return proto_; }
  onnx::GraphProto& proto() noexcept { return proto_; }
  std::size_t node_count() const noexcept { return static_cast<std::size_t>(proto_.node_size()); }
  // Node i, in the order they were emitted.
  node_view node(std::size_t i) const { return node_view(proto_.node(static_cast<int>(i))); }
  // Says in node i's doc string what made it (a rule's name, an approximation's mark).
  void set_doc_string(std::size_t i, std::string doc) {
    proto_.mutable_node(static_cast<int>(i))->set_doc_string(std::move(doc));
  }
  void set_name(std::string name) { proto_.set_name(std::move(name)); }

 protected:
  // A subgraph (an If branch, a Loop body) that sees this graph's values as outer scope.
  explicit graph_base(graph_base& parent) : root_(parent.root_), parent_(&parent) {
    values_.see_outer_scope(parent.values_);
  }

  // The node of g.op: attributes are written straight into it, then it goes the same way.
  struct draft {
    onnx::NodeProto node;
  };

  draft start(std::string_view domain, std::string_view type) const {
    draft d;
    d.node.set_op_type(std::string(type));
    if (!domain.empty()) d.node.set_domain(std::string(domain));
    return d;
  }
  void add_argument(draft& d, const value& v) const {
    check_owned(v, d.node.op_type() + " input");
    d.node.add_input(v.name());
  }
  void add_argument(draft& d, no_input_t) const { d.node.add_input(""); }
  template <class Range>
  requires detail::is_input_list<Range>
  void add_argument(draft& d, const Range& values) const {
    for (const value& v : values) add_argument(d, v);
  }
  template <Attribute A>
  void add_argument(draft& d, const A& a) const {
    a.write(*d.node.add_attribute());
  }
  std::vector<value> finish(draft&& d, std::size_t outputs) {
    return emit_node(std::move(d.node), {}, outputs, std::nullopt, {});
  }

  // The body of g.op: the name was checked by the compiler; the node is checked again here.
  template <std::size_t N, class... Args>
  auto emit_op(std::string_view domain, std::string_view type, const Args&... args) {
    static_assert(N >= 1, "retarget: g.op<N> needs N >= 1 outputs");
    constexpr bool takes_all =
        ((detail::is_single_input<std::remove_cvref_t<Args>> ||
          detail::is_input_list<std::remove_cvref_t<Args>> || Attribute<Args>)&&...);
    static_assert(takes_all,
                  "retarget: g.op takes values, ranges of values, no_input and "
                  "attributes after the op name");
    // A wrong argument stops here, so the assertion is the only error.
    if constexpr (!takes_all)
      return value{};
    else if constexpr (N == 1) {
      auto d = start(domain, type);
      (add_argument(d, args), ...);
      return finish(std::move(d), N).front();
    } else {
      auto d = start(domain, type);
      (add_argument(d, args), ...);
      auto outs = finish(std::move(d), N);
      std::array<value, N> out;
      for (std::size_t i = 0; i < N; ++i) out[i] = outs[i];
      return out;
    }
  }

  // Makes the custom schemas known to ONNX and their domains importable by this graph.
  template <class Schemas>
  void use_schemas() {
    if constexpr (Schemas::size > 0) {
      register_schemas(Schemas::all);
      for (const auto& s : Schemas::all) {
        const std::string d(s.domain);
        const auto& versions = root_->domain_versions_;
        const auto it = versions.find(d);
        if (it == versions.end() || it->second < s.since_version)
          set_domain_version(d, s.since_version);
      }
    }
  }

  template <class Schemas>
  friend class graph_view;

 private:
  friend class value;

  value add_value(std::string name, const onnx::TypeProto& type) {
    return value(this, values_.add(std::move(name), type));
  }

  void claim_name(const std::string& name, const char* what) {
    if (name.empty()) throw error(std::string("retarget: a ") + what + " needs a name");
    if (!root_->used_names_.insert(name).second)
      throw error(std::string("retarget: duplicate value name '") + name + "' for " +
                  (what[0] == 'i' ? "an " : "a ") + what);
  }

  // A fresh name: "Relu_12", then "Relu_12_1" for a second output.
  std::string generate_name(const std::string& op_type, std::size_t counter, std::size_t output,
                            const std::vector<std::string>& siblings) const;

  void require_subgraph(const char* what, const std::string& name) const {
    if (!parent_)
      throw error(std::string("retarget: graph ") + what + " '" + name +
                  "' needs a type: only a subgraph's inputs and outputs may go without one");
  }

  void check_owned(const value& v, const std::string& where) const {
    if (!v.valid()) throw error("retarget: " + where + " is an empty value");
    for (const graph_base* g = this; g; g = g->parent_)
      if (v.graph_ == g) return;
    throw error("retarget: " + where + " '" + v.name() + "' is a value of another graph");
  }

  // Every domain a node could use: for inference inside subgraphs, which may use domains the
  // graph's own nodes do not.
  std::unordered_map<std::string, int> import_map() const;

  // The domains of a node and of the nodes of its subgraphs, for the opset imports.
  void note_domains(const onnx::NodeProto& node);

  std::vector<value> emit_node(onnx::NodeProto node, std::vector<std::string> output_names,
                               std::size_t output_count, std::optional<std::string> node_name,
                               std::string doc);

  // Every name the nodes of g (and of their subgraphs) read.
  static void collect_reads(const onnx::GraphProto& g, std::unordered_set<std::string>& read) {
    for (const auto& n : g.node()) {
      for (const auto& i : n.input())
        if (!i.empty()) read.insert(i);
      for (const auto& a : n.attribute()) {
        if (a.has_g()) collect_reads(a.g(), read);
        for (const auto& body : a.graphs()) collect_reads(body, read);
      }
    }
  }

  // Gives a node output a new name, in its node and in every node that reads it.
  void rename(const value& v, const std::string& to) {
    const std::string from = v.name();
    root_->used_names_.insert(to);
    for (auto& node : *proto_.mutable_node()) {
      for (auto& in : *node.mutable_input())
        if (in == from) in = to;
      for (auto& out : *node.mutable_output())
        if (out == from) out = to;
    }
    values_.rename(v.id_, to);
  }

  graph_base* root_;
  graph_base* parent_ = nullptr;
  onnx::GraphProto proto_;
  detail::value_table values_;
  std::unordered_set<std::string> output_names_;
  std::vector<shared_initializer> shared_;
  // Shared by a root graph and its subgraphs (kept on the root).
  std::map<std::string, int> domain_versions_;
  std::set<std::string> used_domains_;
  bool standard_domain_used_ = false;
  bool standard_domain_only_if_used_ = false;
  std::unordered_set<std::string> used_names_;
  std::unordered_set<std::string> reserved_names_;
  std::size_t node_counter_ = 0;
  std::shared_ptr<detail::inference_state> inference_;  // made by the first node
};

inline const std::string& value::name() const { return graph_->values_.name(id_); }
inline const onnx::TypeProto& value::type() const { return graph_->values_.type(id_); }

// A graph whose g.op calls are checked at compile time against the ONNX schemas and the
// custom op schemas of Schemas.
template <class Schemas = no_schemas>
class basic_graph : public graph_base {
 public:
  explicit basic_graph(int opset = default_opset) : graph_base(opset) { use_schemas<Schemas>(); }

  // Emits one node and returns its output, or its first N outputs as an array:
  //   auto y = g.op("Relu", x);
  //   auto [values, indices] = g.op<2>("TopK", x, k, "axis"_i = -1);
  template <std::size_t N = 1, class... Args>
  auto op(basic_op_name<Schemas, std::type_identity_t<Args>...> name, const Args&... args) {
    return emit_op<N>(name.domain(), name.type(), args...);
  }
  // The same, the name a template argument, for code that has it as one (an adapter of
  // several ops); checked the same way:
  //   template <fixed_string Op> ir::value f(ir::graph& g, ir::value x) { return g.op<Op>(x); }
  template <fixed_string Name, std::size_t N = 1, class... Args>
  auto op(const Args&... args) {
    return op<N>(Name.chars, args...);
  }

  // A graph for an If branch or a Loop body: it may read this graph's values.
  basic_graph subgraph(std::string name) { return basic_graph(*this, std::move(name)); }

 private:
  basic_graph(basic_graph& parent, std::string name) : graph_base(parent) {
    set_name(std::move(name));
  }
};

using graph = basic_graph<>;

// Any graph, seen with the custom schemas of Schemas: for a symbolic that emits a custom op
// into the graph it was given.
//   rx::graph_view<rx::schemas<plugin_ops>>(g).op("mmdeploy::DynamicTRTResize", x, size);
template <class Schemas>
class graph_view {
 public:
  explicit graph_view(graph_base& g) : graph_(g) { graph_.use_schemas<Schemas>(); }

  template <std::size_t N = 1, class... Args>
  auto op(basic_op_name<Schemas, std::type_identity_t<Args>...> name, const Args&... args) {
    return graph_.emit_op<N>(name.domain(), name.type(), args...);
  }
  template <fixed_string Name, std::size_t N = 1, class... Args>
  auto op(const Args&... args) {
    return op<N>(Name.chars, args...);
  }
  graph_base& graph() const noexcept { return graph_; }

 private:
  graph_base& graph_;
};

}  // namespace retarget::ir

#if defined(RETARGET_IR_DEFINITIONS)
#include <retarget/ir/detail/graph_impl.hpp>
#endif

#endif  // RETARGET_IR_GRAPH_HPP
