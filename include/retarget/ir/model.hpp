// A finished model: the graph, its opset imports, the producer, and metadata (the target
// backend, the rewrites applied). check() runs ONNX's checker and strict shape inference.
// An export's weights stay in its parameters: proto() reads the model without copying them,
// and materialize() copies them in.
//
//   auto m = retarget::ir::make_model(std::move(g), {.metadata = {{"backend", "tensorrt"}}});
//   m.check();
#ifndef RETARGET_IR_MODEL_HPP
#define RETARGET_IR_MODEL_HPP

#include <onnx/onnx_pb.h>

#include <concepts>
#include <memory>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/graph.hpp>
#include <string>
#include <string_view>
#include <unordered_set>
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
  model() = default;
  explicit model(onnx::ModelProto proto) : proto_(std::move(proto)) {}
  // A model whose listed initializers share their bytes with tensors held elsewhere.
  model(onnx::ModelProto proto, std::vector<shared_initializer> shared)
      : proto_(std::move(proto)), shared_(std::move(shared)) {}

  // The proto, to read. While the model shares weights with their tensors (an export's
  // parameters), each shared initializer in it has its name, type and dims but no bytes:
  // shared_initializers() has them, save() writes them, materialize() copies them in. Reading
  // copies nothing, so a weight is copied only where that is asked for.
  const onnx::ModelProto& proto() const noexcept { return proto_; }
  // The proto, to change: the shared weights are copied in first (materialize()), so that
  // nothing done to it can lose them or move them from under their entries.
  onnx::ModelProto& proto() {
    materialize();
    return proto_;
  }
  // Copies the shared weights into the proto, once; the model then holds all its bytes.
  model& materialize() {
    auto& initializers = *proto_.mutable_graph()->mutable_initializer();
    for (const auto& s : shared_) {
      if (s.index < 0 || s.index >= initializers.size())
        throw error("retarget: shared initializer " + std::to_string(s.index) +
                    " is no longer in the model");
      const auto bytes = s.data->raw_bytes();  // held by the tensor, or mapped
      initializers[s.index].set_raw_data(bytes.data(), bytes.size());
    }
    shared_.clear();
    return *this;
  }

  // Moves the bytes of each raw initializer of the main graph of at least min_bytes into a
  // tensor of its own, which the model then shares: a copy of the model copies no such weight,
  // and a graph rebuilt from it can share them too (convert's passes do). Nothing is copied;
  // an initializer that is also a graph input (that input's default) stays as it is.
  model& share_weights(std::size_t min_bytes = 1024) {
    auto& graph = *proto_.mutable_graph();
    std::unordered_set<std::string> inputs;
    for (const auto& in : graph.input()) inputs.insert(in.name());
    std::vector<bool> is_shared(static_cast<std::size_t>(graph.initializer_size()), false);
    for (const auto& s : shared_) is_shared.at(static_cast<std::size_t>(s.index)) = true;
    for (int i = 0; i < graph.initializer_size(); ++i) {
      auto& t = *graph.mutable_initializer(i);
      if (is_shared[static_cast<std::size_t>(i)] || t.raw_data().size() < min_bytes ||
          t.data_location() == onnx::TensorProto::EXTERNAL || inputs.contains(t.name()))
        continue;
      // The whole proto moves; its entry keeps every field but the bytes.
      auto bytes = std::make_shared<tensor>();
      bytes->proto().Swap(&t);
      t = bytes->header();
      shared_.push_back({i, std::move(bytes)});
    }
    return *this;
  }

  // Whether some initializer of the main graph keeps its bytes in an external file (a model
  // read with read_model_file; load maps them, and they stay external).
  bool has_external_data() const {
    for (const auto& t : proto_.graph().initializer())
      if (t.data_location() == onnx::TensorProto::EXTERNAL) return true;
    return false;
  }

  // Keeps the main graph's initializers whose names `keep` accepts, in their order; a shared
  // one keeps its bytes. Returns how many went.
  template <std::predicate<const std::string&> Keep>
  std::size_t keep_initializers(Keep keep) {
    auto& initializers = *proto_.mutable_graph()->mutable_initializer();
    std::vector<int> new_index(static_cast<std::size_t>(initializers.size()), -1);
    google::protobuf::RepeatedPtrField<onnx::TensorProto> kept;
    for (int i = 0; i < initializers.size(); ++i)
      if (keep(initializers[i].name())) {
        new_index[static_cast<std::size_t>(i)] = kept.size();
        kept.Add()->Swap(&initializers[i]);
      }
    const auto removed = static_cast<std::size_t>(initializers.size() - kept.size());
    initializers.Swap(&kept);
    std::vector<shared_initializer> shared;
    for (auto& s : shared_)
      if (const int at = new_index.at(static_cast<std::size_t>(s.index)); at >= 0)
        shared.push_back({at, std::move(s.data)});
    shared_ = std::move(shared);
    return removed;
  }

  // The graph: nodes, inputs, outputs, types, and initializers by name, type and dims. A
  // shared initializer's entry has no bytes (shared_initializers() has them): reading the
  // graph copies nothing.
  const onnx::GraphProto& graph() const noexcept { return proto_.graph(); }

  // For writers that stream the weights: the initializers still sharing their bytes, and the
  // proto in which they have none (the const one is proto() const).
  const std::vector<shared_initializer>& shared_initializers() const noexcept { return shared_; }
  onnx::ModelProto& proto_without_shared_bytes() noexcept { return proto_; }
  const onnx::ModelProto& proto_without_shared_bytes() const noexcept { return proto_; }

  // The version of a domain's opset import, or nullopt when the model does not import it.
  std::optional<int> opset(std::string_view domain = "") const {
    return detail::imported_version(proto_, domain);
  }
  std::optional<std::string> metadata(std::string_view key) const {
    for (const auto& p : proto_.metadata_props())
      if (p.key() == key) return p.value();
    return std::nullopt;
  }
  void set_metadata(const std::string& key, const std::string& v) {
    for (auto& p : *proto_.mutable_metadata_props())
      if (p.key() == key) {
        p.set_value(v);
        return;
      }
    auto* p = proto_.add_metadata_props();
    p->set_key(key);
    p->set_value(v);
  }

  // ONNX's checker, then shape inference in its strict mode on a copy; retarget::error with
  // the checker's message on failure. Shared weights are not copied (see checked_copy).
  void check() const {
    const detail::schema_registry_reader reading;
    try {
      auto copy = checked_copy();
      detail::infer_model_shapes(copy, /*strict=*/true);
    } catch (const error&) {  // retarget's own refusal names the node already
      throw;
    } catch (const std::exception& e) {
      throw error(std::string("retarget: model check failed: ") + e.what());
    }
  }

  // Adds the inferred types of intermediate values (value_info) to the model. ONNX's inference
  // assumes a model its checker accepts (on others it can crash), so the checker runs first.
  void infer_shapes() {
    const detail::schema_registry_reader reading;
    // In place, unless weights are shared: then on a copy without them, whose inferred types
    // come back (the copy differs from the model in its weights only).
    std::optional<onnx::ModelProto> copy;
    try {
      if (shared_.empty())
        detail::check_model(proto_);
      else
        copy = checked_copy();
    } catch (const std::exception& e) {
      throw error(std::string("retarget: shape inference refused: model check failed: ") +
                  e.what());
    }
    try {
      detail::infer_model_shapes(copy ? *copy : proto_, /*strict=*/false);
    } catch (const error&) {
      throw;
    } catch (const std::exception& e) {
      throw error(std::string("retarget: shape inference failed: ") + e.what());
    }
    if (!copy) return;
    auto& graph = *proto_.mutable_graph();
    *graph.mutable_value_info() = std::move(*copy->mutable_graph()->mutable_value_info());
    *graph.mutable_output() = std::move(*copy->mutable_graph()->mutable_output());
    *graph.mutable_node() = std::move(*copy->mutable_graph()->mutable_node());
  }

 private:
  // A copy of the model that ONNX's checker accepted, ready for its shape inference, made
  // without the shared weights' bytes. The checker asks of a tensor that it has one field of
  // values, never how many bytes it holds, so a byte stands in for them; inference then
  // sees them as graph inputs of their type (the emitter's per-node inference had their
  // values when it built the graph).
  onnx::ModelProto checked_copy() const {
    onnx::ModelProto copy = proto_;
    if (shared_.empty()) {
      detail::check_model(copy);
      return copy;
    }
    auto& graph = *copy.mutable_graph();
    auto& initializers = *graph.mutable_initializer();
    std::vector<bool> is_shared(static_cast<std::size_t>(initializers.size()), false);
    for (const auto& s : shared_) {
      if (s.index < 0 || s.index >= initializers.size())
        throw error("retarget: shared initializer " + std::to_string(s.index) +
                    " is no longer in the model");
      is_shared[static_cast<std::size_t>(s.index)] = true;
      initializers[s.index].set_raw_data(std::string(1, '\0'));
    }
    detail::check_model(copy);

    std::unordered_set<std::string> inputs;
    for (const auto& in : graph.input()) inputs.insert(in.name());
    google::protobuf::RepeatedPtrField<onnx::TensorProto> kept;
    for (int i = 0; i < initializers.size(); ++i) {
      auto& t = initializers[i];
      if (!is_shared[static_cast<std::size_t>(i)]) {
        kept.Add()->Swap(&t);
        continue;
      }
      if (inputs.contains(t.name())) continue;  // already an input (initializers as inputs)
      auto* input = graph.add_input();
      input->set_name(t.name());
      *input->mutable_type() = type_of(t);
    }
    initializers.Swap(&kept);
    return copy;
  }

  onnx::ModelProto proto_;
  std::vector<shared_initializer> shared_;
};

// The graph becomes the model's main graph; its opset imports and the info are recorded.
inline model make_model(graph_base&& g, model_info info = {}) {
  onnx::ModelProto proto;
  proto.set_ir_version(info.ir_version ? info.ir_version : ir_version_for_opset(g.opset()));
  proto.set_producer_name(info.producer_name);
  proto.set_producer_version(info.producer_version);
  if (!info.doc_string.empty()) proto.set_doc_string(info.doc_string);
  for (const auto& [domain, version] : g.opset_imports()) {
    auto* o = proto.add_opset_import();
    o->set_domain(domain);
    o->set_version(version);
  }
  *proto.mutable_graph() = std::move(g.proto());
  if (proto.graph().name().empty()) proto.mutable_graph()->set_name(info.graph_name);
  model m(std::move(proto), g.take_shared_initializers());
  for (const auto& [k, v] : info.metadata) m.set_metadata(k, v);
  return m;
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_MODEL_HPP
