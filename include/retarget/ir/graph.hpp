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

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/detail/emitter.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
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

namespace detail {
class value_table;
}

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
  RETARGET_COMPILED_DECL explicit graph_base(int opset = default_opset);
  RETARGET_COMPILED_DECL ~graph_base();
  graph_base(const graph_base&) = delete;
  graph_base& operator=(const graph_base&) = delete;
  graph_base(graph_base&&) = delete;
  graph_base& operator=(graph_base&&) = delete;

  int opset() const { return root_->domain_versions_.at(""); }

  // The version of a domain's opset this graph emits: "" is the graph's opset; others must be
  // set (custom schemas set theirs) except ai.onnx.ml and ai.onnx.preview.training, which
  // default to the newest the ONNX library knows.
  RETARGET_COMPILED_DECL int domain_version(std::string_view domain) const;
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
  RETARGET_COMPILED_DECL value input(std::string name, untyped_t);

  // A graph input of any type (a sequence, an optional, a map), as a converter reads it.
  RETARGET_COMPILED_DECL value input(std::string name, const onnx::TypeProto& type);

  RETARGET_COMPILED_DECL value input(std::string name, dtype type, const std::vector<dim>& shape);

  RETARGET_COMPILED_DECL value initializer(std::string name, tensor t);
  value initializer(std::string name, dtype type, dims_t dims, std::span<const std::byte> bytes) {
    return initializer(std::move(name), tensor::from_raw(type, std::move(dims), bytes));
  }
  // An initializer that shares t's bytes instead of copying them: the graph's proto holds
  // its name, type and dims, and the bytes stay in t until a model's proto is needed whole
  // (save() streams them to the file without that). Inside a subgraph, t is copied.
  RETARGET_COMPILED_DECL value initializer(std::string name, std::shared_ptr<const tensor> t);
  // The initializers sharing their bytes, for make_model.
  std::vector<shared_initializer> take_shared_initializers() noexcept { return std::move(shared_); }

  // Removes the initializers that no node (nor subgraph), graph output or graph input reads,
  // as when a symbolic stored a weight folded (transposed) in place of the weight itself;
  // returns how many went.
  RETARGET_COMPILED_DECL std::size_t prune_unused_initializers();

  // A Constant node holding the tensor.
  RETARGET_COMPILED_DECL value constant(tensor t);
  value constant(empty_tensor e) { return constant(tensor::empty(e.type)); }

  // Marks v as a graph output with a declared type, for when inference cannot tell the shape
  // (graph outputs must have one): ONNX's checker verifies it against the inferred one.
  RETARGET_COMPILED_DECL void output(const value& v, std::string name,
                                     const onnx::TypeProto& declared);

  // Marks v as an output of a subgraph that declares no type for it (its node infers it).
  RETARGET_COMPILED_DECL void output(const value& v, std::string name, untyped_t);

  // Marks v as a graph output, named `name` (v's own name when empty).
  RETARGET_COMPILED_DECL void output(const value& v, std::string name = {});

  // Whether a value of the graph (or of its outer graphs and subgraphs) has that name.
  bool has_name(const std::string& name) const { return root_->used_names_.count(name) > 0; }

  // The value of that name in this graph (or, for a subgraph, its outer graphs).
  RETARGET_COMPILED_DECL value find(std::string_view name) const;

  // The node of this graph that produces v, or nullopt for an input, an initializer or a
  // value of an outer graph: what a pattern walks up from.
  RETARGET_COMPILED_DECL std::optional<node_view> producer(const value& v) const;
  // The stored tensor of an initializer or a Constant's output, or nullptr when v is computed.
  RETARGET_COMPILED_DECL const onnx::TensorProto* constant_data(const value& v) const;
  // How many nodes of this graph read v, as an input or from a subgraph: what a pattern asks
  // of a node it would replace whole.
  RETARGET_COMPILED_DECL std::size_t readers(const value& v) const;
  // The attribute `name` of a node, or, when the node does not set it, the default its schema
  // gives it at this graph's opset; nullopt when neither has one.
  RETARGET_COMPILED_DECL std::optional<attribute_view> attribute_or_default(
      const node_view& node, std::string_view name) const;
  // Names that generated names stay clear of, though explicit ones may still take them: a
  // converter reserves the names of the model it rebuilds before emitting a node of its own.
  template <class Names>
  void reserve_names(const Names& names) {
    for (const auto& n : names) root_->reserved_names_.insert(std::string(n));
  }

  // The schema a node of this graph's opset would be checked against; retarget::error, naming
  // the op and the opset, when its op is unknown there (not yet defined, or deprecated).
  RETARGET_COMPILED_DECL const onnx::OpSchema& schema_of(const onnx::NodeProto& node) const;
  const onnx::OpSchema& schema_of(const node_view& node) const { return schema_of(node.proto()); }

  // ---- Nodes ----

  // Checks the node at this graph's opset, infers its outputs' types, and adds it.
  std::vector<value> emit(node_spec spec);

  const onnx::GraphProto& proto() const noexcept { return *proto_; }
  onnx::GraphProto& proto() noexcept { return *proto_; }
  RETARGET_COMPILED_DECL std::size_t node_count() const noexcept;
  // Node i, in the order they were emitted.
  RETARGET_COMPILED_DECL node_view node(std::size_t i) const;
  // Says in node i's doc string what made it (a rule's name, an approximation's mark).
  RETARGET_COMPILED_DECL void set_doc_string(std::size_t i, std::string doc);
  RETARGET_COMPILED_DECL void set_name(std::string name);

 protected:
  // A subgraph (an If branch, a Loop body) that sees this graph's values as outer scope.
  RETARGET_COMPILED_DECL explicit graph_base(graph_base& parent);

  // The node of g.op: attributes are written straight into it, then it goes the same way.
  // (Held through a pointer: this header declares NodeProto only.)
  struct draft {
    RETARGET_COMPILED_DECL draft();
    RETARGET_COMPILED_DECL draft(draft&& other) noexcept;
    RETARGET_COMPILED_DECL ~draft();
    draft(const draft&) = delete;
    draft& operator=(const draft&) = delete;
    draft& operator=(draft&&) = delete;
    std::unique_ptr<onnx::NodeProto> node;
  };

  RETARGET_COMPILED_DECL draft start(std::string_view domain, std::string_view type) const;
  RETARGET_COMPILED_DECL void add_argument(draft& d, const value& v) const;
  RETARGET_COMPILED_DECL void add_argument(draft& d, no_input_t) const;
  template <class Range>
  requires detail::is_input_list<Range>
  void add_argument(draft& d, const Range& values) const {
    for (const value& v : values) add_argument(d, v);
  }
  template <Attribute A>
  void add_argument(draft& d, const A& a) const {
    a.write(new_attribute(d));
  }
  // A new attribute of the draft's node, for an attribute to write itself into.
  RETARGET_COMPILED_DECL static onnx::AttributeProto& new_attribute(draft& d);
  RETARGET_COMPILED_DECL std::vector<value> finish(draft&& d, std::size_t outputs);

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

  RETARGET_COMPILED_DECL value add_value(std::string name, const onnx::TypeProto& type);

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
  RETARGET_COMPILED_DECL static void collect_reads(const onnx::GraphProto& g,
                                                   std::unordered_set<std::string>& read);

  // Gives a node output a new name, in its node and in every node that reads it.
  RETARGET_COMPILED_DECL void rename(const value& v, const std::string& to);

  graph_base* root_;
  graph_base* parent_ = nullptr;
  // Through pointers, never null: this header declares GraphProto only.
  std::unique_ptr<onnx::GraphProto> proto_;
  std::unique_ptr<detail::value_table> values_;
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

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/graph_impl.hpp>
#endif

#endif  // RETARGET_IR_GRAPH_HPP
