// A finished model: the graph, its opset imports, the producer, and metadata (the target
// backend, the rewrites applied). check() runs ONNX's checker and strict shape inference.
//
//   auto m = retarget::ir::make_model(std::move(g), {.metadata = {{"backend", "tensorrt"}}});
//   m.check();
#ifndef RETARGET_IR_MODEL_HPP
#define RETARGET_IR_MODEL_HPP

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <atomic>
#include <mutex>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/graph.hpp>
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
  model() = default;
  explicit model(onnx::ModelProto proto) : proto_(std::move(proto)) {}
  // A model whose listed initializers share their bytes with tensors held elsewhere.
  model(onnx::ModelProto proto, std::vector<shared_initializer> shared)
      : proto_(std::move(proto)), shared_(std::move(shared)) {}

  // The whole proto. Shared initializers get their bytes copied in at the first call: only
  // what needs the proto itself pays for the copy, which save() does not.
  const onnx::ModelProto& proto() const {
    materialize();
    return proto_;
  }
  onnx::ModelProto& proto() {
    materialize();
    return proto_;
  }
  const onnx::GraphProto& graph() const { return proto().graph(); }

  // For writers that stream the weights: the initializers still sharing their bytes, and the
  // proto in which they have none.
  const std::vector<shared_initializer>& shared_initializers() const noexcept { return shared_; }
  onnx::ModelProto& proto_without_shared_bytes() noexcept { return proto_; }

  // The version of a domain's opset import, or nullopt when the model does not import it.
  std::optional<int> opset(std::string_view domain = "") const {
    for (const auto& o : proto_.opset_import())
      if (o.domain() == domain || (domain.empty() && o.domain() == "ai.onnx"))
        return static_cast<int>(o.version());
    return std::nullopt;
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
  // the checker's message on failure.
  void check() const {
    const detail::schema_registry_reader reading;
    try {
      onnx::checker::check_model(proto());
      onnx::ModelProto copy = proto();
      onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(),
                                         onnx::ShapeInferenceOptions(true, 1, true));
    } catch (const std::exception& e) {
      throw error(std::string("retarget: model check failed: ") + e.what());
    }
  }

  // Adds the inferred types of intermediate values (value_info) to the model. ONNX's inference
  // assumes a model its checker accepts (on others it can crash), so the checker runs first.
  void infer_shapes() {
    const detail::schema_registry_reader reading;
    try {
      onnx::checker::check_model(proto());
    } catch (const std::exception& e) {
      throw error(std::string("retarget: shape inference refused: model check failed: ") +
                  e.what());
    }
    try {
      onnx::shape_inference::InferShapes(proto(), onnx::OpSchemaRegistry::Instance(),
                                         onnx::ShapeInferenceOptions(false, 0, true));
    } catch (const std::exception& e) {
      throw error(std::string("retarget: shape inference failed: ") + e.what());
    }
  }

 private:
  // The copy is made once, under a lock, so concurrent readers of a const model are safe.
  void materialize() const {
    if (!pending_.load(std::memory_order_acquire)) return;
    std::lock_guard lock(mutex_.m);
    if (!pending_.load(std::memory_order_relaxed)) return;
    auto& initializers = *proto_.mutable_graph()->mutable_initializer();
    for (const auto& s : shared_) {
      if (s.index < 0 || s.index >= initializers.size())
        throw error("retarget: shared initializer " + std::to_string(s.index) +
                    " is no longer in the model");
      auto& t = initializers[s.index];
      t.set_raw_data(s.data->proto().raw_data());
    }
    shared_.clear();
    pending_.store(false, std::memory_order_release);
  }

  // A mutex and a flag that copies of the model do not share: each copy starts unlocked.
  struct fresh_mutex {
    std::mutex m;
    fresh_mutex() = default;
    fresh_mutex(const fresh_mutex&) noexcept {}
    fresh_mutex& operator=(const fresh_mutex&) noexcept { return *this; }
  };
  struct flag {
    std::atomic<bool> value;
    explicit flag(bool v) noexcept : value(v) {}
    flag(const flag& o) noexcept : value(o.value.load()) {}
    flag& operator=(const flag& o) noexcept {
      value.store(o.value.load());
      return *this;
    }
    bool load(std::memory_order order) const noexcept { return value.load(order); }
    void store(bool v, std::memory_order order) noexcept { value.store(v, order); }
  };

  mutable onnx::ModelProto proto_;
  mutable std::vector<shared_initializer> shared_;
  mutable flag pending_{!shared_.empty()};
  mutable fresh_mutex mutex_;
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
