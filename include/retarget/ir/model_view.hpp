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

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/node_view.hpp>
#include <span>
#include <string>
#include <string_view>
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
  ~model_view();

  using options = model_view_options;

  explicit model_view(const model& m);
  model_view(const model& m, options o);
  // A model as a proto that holds all its bytes (the opset driver's, between its steps).
  explicit model_view(const onnx::ModelProto& m, options o = {});

  const onnx::ModelProto& proto() const noexcept { return proto_; }
  const onnx::GraphProto& graph() const noexcept;
  // The version of the default domain's opset, 0 when the model imports none.
  int opset() const;

  int node_count() const noexcept;
  const onnx::NodeProto& node(int i) const;
  // Node i read through its view: what the layers above ir/ read.
  node_view at(int i) const;

  // The node's op, with its domain in canonical form ("" for the default domain).
  std::string_view domain(int i) const;
  // "Clip '/features/0/Clip'": how every message names a node.
  std::string describe(int i) const;

  // The node that writes the value, or -1 (a graph input, an initializer, an unknown name).
  int producer(std::string_view name) const;
  // The nodes that read the value, in graph order (a node reading it twice is listed twice).
  std::span<const int> consumers(std::string_view name) const;

  // The stored tensor of a constant: an initializer (a shared weight's own tensor), a
  // Constant's value, or an Identity of either; nullptr for anything computed or unknown.
  const onnx::TensorProto* constant(std::string_view name) const;
  // The main graph's initializers' names, in order.
  std::vector<std::string> initializer_names() const;
  bool is_initializer(std::string_view name) const;
  // Whether the value is an input of the main graph (an initializer may be one too: its
  // default value).
  bool is_graph_input(std::string_view name) const;
  // Whether the value is an output of the main graph.
  bool is_graph_output(std::string_view name) const;
  // Whether the main graph declares a shape (of known rank, its dims known or not) for its
  // input or output `name`; a declared type may leave the shape out.
  bool declares_shape(std::string_view name) const;

  // The value's tensor type: a constant's from its tensor, others' as inferred or declared;
  // nullptr when none is known.
  const onnx::TypeProto* type(std::string_view name) const;
  // The element type, or 0 (undefined) when not known.
  int element_type(std::string_view name) const;
  // The rank, or nullopt when not known.
  std::optional<std::size_t> rank(std::string_view name) const;
  // The static dims, or nullopt when some dim (or the rank) is not known.
  std::optional<std::vector<std::int64_t>> static_shape(std::string_view name) const;

 private:
  model_view(const onnx::ModelProto& m, std::span<const shared_initializer> shared, options o);

  // What the view found: each value's facts and types, and the types it inferred (defined with
  // the members, in detail/model_view_impl.hpp).
  struct state;
  struct value_facts;

  const value_facts* find(std::string_view name) const;
  void note_type(const onnx::ValueInfoProto& v);
  // The model without its large weights (each an input of its type instead: no shape depends
  // on a weight's values), its types inferred; the view keeps the copy's value types.
  void infer_types(bool check_first);

  // Weights of this many bytes or more stay out of inference's copy of the graph.
  static constexpr std::size_t large_bytes = 1024;

  const onnx::ModelProto& proto_;
  std::unique_ptr<state> state_;
};

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/model_view_impl.hpp>
#endif

#endif  // RETARGET_IR_MODEL_VIEW_HPP
