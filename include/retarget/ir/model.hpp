// A finished model: the graph, its opset imports, the producer, and metadata (the target
// backend, the rewrites applied). check() runs ONNX's checker and strict shape inference.
// An export's weights stay in its parameters: proto() reads the model without copying them,
// and materialize() copies them in.
//
//   auto m = retarget::ir::make_model(std::move(g), {.metadata = {{"backend", "tensorrt"}}});
//   m.check();
#ifndef RETARGET_IR_MODEL_HPP
#define RETARGET_IR_MODEL_HPP

#include <concepts>
#include <functional>
#include <memory>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/deep_ptr.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/node_view.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retarget::ir {

struct model_info {
  std::string producer_name = "retarget";
  std::string producer_version = std::to_string(RETARGET_VERSION_MAJOR) + "." +
                                 std::to_string(RETARGET_VERSION_MINOR) + "." +
                                 std::to_string(RETARGET_VERSION_PATCH);
  std::string graph_name = "main";
  std::string doc_string = {};
  std::vector<std::pair<std::string, std::string>> metadata = {};
  // 0: the oldest IR version that the opset needs, so older runtimes can load the file.
  std::int64_t ir_version = 0;
};

// The IR version that came with each opset (the ONNX versioning table).
constexpr std::int64_t ir_version_for_opset(int opset) noexcept {
  if (opset <= 8) return 3;
  if (opset == 9) return 4;
  if (opset == 10) return 5;
  if (opset == 11) return 6;
  if (opset <= 14) return 7;
  return 8;
}

class model {
 public:
  // An empty model (an empty proto).
  model();
  explicit model(const onnx::ModelProto& proto);
  explicit model(onnx::ModelProto&& proto);
  // A model whose listed initializers share their bytes with tensors held elsewhere.
  model(const onnx::ModelProto& proto, std::vector<shared_initializer> shared);
  model(onnx::ModelProto&& proto, std::vector<shared_initializer> shared);
  // A copy copies the proto (shared weights stay shared); a moved-from model may only be
  // destroyed or assigned to.
  model(const model& other);
  model(model&& other) noexcept;
  model& operator=(const model& other);
  model& operator=(model&& other) noexcept;
  ~model();

  // The proto, to read. While the model shares weights with their tensors (an export's
  // parameters), each shared initializer in it has its name, type and dims but no bytes:
  // shared_initializers() has them, save() writes them, materialize() copies them in. Reading
  // copies nothing, so a weight is copied only where that is asked for.
  const onnx::ModelProto& proto() const noexcept { return *proto_; }
  // The proto, to change: the shared weights are copied in first (materialize()), so that
  // nothing done to it can lose them or move them from under their entries.
  onnx::ModelProto& proto() {
    materialize();
    return *proto_;
  }
  // Copies the shared weights into the proto, once; the model then holds all its bytes.
  model& materialize();

  // Moves the bytes of each raw initializer of the main graph of at least min_bytes into a
  // tensor of its own, which the model then shares: a copy of the model copies no such weight,
  // and a graph rebuilt from it can share them too (convert's passes do). Nothing is copied;
  // an initializer that is also a graph input (that input's default) stays as it is.
  model& share_weights(std::size_t min_bytes = 1024);

  // Whether some initializer of the main graph keeps its bytes in an external file (a model
  // read with read_model_file; load maps them, and they stay external).
  bool has_external_data() const;
  // The files the main graph's initializers keep their bytes in, each once, in order of use.
  std::vector<std::string> external_data_files() const;

  // The main graph at a glance, for messages and engines: its node count (subgraphs' left out)
  // and its outputs' names, in order.
  std::size_t node_count() const;
  // Node i of the main graph, and all of them in order, read in place (the model must outlive
  // the views): for (const auto& n : m.nodes()) if (n.op_type() == "Resize") ...
  node_view node(std::size_t i) const;
  std::vector<node_view> nodes() const;
  std::vector<std::string> output_names() const;

  // Keeps the main graph's initializers whose names `keep` accepts, in their order; a shared
  // one keeps its bytes. Returns how many went.
  template <std::predicate<const std::string&> Keep>
  std::size_t keep_initializers(Keep keep) {
    return keep_initializers_where(
        [&keep](const std::string& name) { return static_cast<bool>(keep(name)); });
  }

  // The graph: nodes, inputs, outputs, types, and initializers by name, type and dims. A
  // shared initializer's entry has no bytes (shared_initializers() has them): reading the
  // graph copies nothing.
  const onnx::GraphProto& graph() const noexcept;

  // For writers that stream the weights: the initializers still sharing their bytes, and the
  // proto in which they have none (the const one is proto() const).
  const std::vector<shared_initializer>& shared_initializers() const noexcept { return shared_; }
  onnx::ModelProto& proto_without_shared_bytes() noexcept { return *proto_; }
  const onnx::ModelProto& proto_without_shared_bytes() const noexcept { return *proto_; }

  // The version of a domain's opset import, or nullopt when the model does not import it.
  std::optional<int> opset(std::string_view domain = "") const;
  std::optional<std::string> metadata(std::string_view key) const;
  void set_metadata(const std::string& key, const std::string& v);

  // ONNX's checker, then shape inference in its strict mode on a copy; retarget::error with
  // the checker's message on failure. Shared weights are not copied (see checked_copy).
  void check() const;

  // Adds the inferred types of intermediate values (value_info) to the model. ONNX's inference
  // assumes a model its checker accepts (on others it can crash), so the checker runs first.
  void infer_shapes();

 private:
  // keep_initializers' work, for any predicate.
  std::size_t keep_initializers_where(const std::function<bool(const std::string&)>& keep);
  // Makes `copy` (empty) a copy of the model that ONNX's checker accepted, ready for its shape
  // inference, made without the shared weights' bytes (see the definition).
  void checked_copy(onnx::ModelProto& copy) const;

  detail::deep_ptr<onnx::ModelProto> proto_;
  std::vector<shared_initializer> shared_;
};

// The graph becomes the model's main graph; its opset imports and the info are recorded.
RETARGET_COMPILED_DECL model make_model(graph_base&& g, model_info info = {});

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/model_impl.hpp>
#endif

#endif  // RETARGET_IR_MODEL_HPP
