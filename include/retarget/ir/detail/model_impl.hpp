// The definitions of ir/model.hpp: inline header-only, compiled once into retarget::compiled
// otherwise.
#ifndef RETARGET_IR_DETAIL_MODEL_IMPL_HPP
#define RETARGET_IR_DETAIL_MODEL_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/detail/deep_ptr_impl.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/detail/schema_registry.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/value.hpp>
#include <string>
#include <string_view>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::ir {

RETARGET_COMPILED_DECL model::model() = default;

RETARGET_COMPILED_DECL model::model(const onnx::ModelProto& proto) : proto_(proto) {}

RETARGET_COMPILED_DECL model::model(onnx::ModelProto&& proto) : proto_(std::move(proto)) {}

RETARGET_COMPILED_DECL model::model(const onnx::ModelProto& proto,
                                    std::vector<shared_initializer> shared)
    : proto_(proto), shared_(std::move(shared)) {}

RETARGET_COMPILED_DECL model::model(onnx::ModelProto&& proto,
                                    std::vector<shared_initializer> shared)
    : proto_(std::move(proto)), shared_(std::move(shared)) {}

RETARGET_COMPILED_DECL model::model(const model& other) = default;
RETARGET_COMPILED_DECL model::model(model&& other) noexcept = default;

// Through a copy, so that a failed copy leaves the proto and its shared weights as they were.
RETARGET_COMPILED_DECL model& model::operator=(const model& other) {
  if (this != &other) *this = model(other);
  return *this;
}

RETARGET_COMPILED_DECL model& model::operator=(model&& other) noexcept = default;
RETARGET_COMPILED_DECL model::~model() = default;

RETARGET_COMPILED_DECL const onnx::GraphProto& model::graph() const noexcept {
  return proto_->graph();
}

RETARGET_COMPILED_DECL model& model::materialize() {
  auto& initializers = *proto_->mutable_graph()->mutable_initializer();
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

RETARGET_COMPILED_DECL model& model::share_weights(std::size_t min_bytes) {
  auto& graph = *proto_->mutable_graph();
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

RETARGET_COMPILED_DECL bool model::has_external_data() const {
  for (const auto& t : proto_->graph().initializer())
    if (t.data_location() == onnx::TensorProto::EXTERNAL) return true;
  return false;
}

RETARGET_COMPILED_DECL std::vector<std::string> model::external_data_files() const {
  std::vector<std::string> files;
  for (const auto& t : proto_->graph().initializer())
    for (const auto& e : t.external_data())
      if (e.key() == "location" && std::find(files.begin(), files.end(), e.value()) == files.end())
        files.push_back(e.value());
  return files;
}

RETARGET_COMPILED_DECL std::size_t model::node_count() const {
  return static_cast<std::size_t>(proto_->graph().node_size());
}

RETARGET_COMPILED_DECL node_view model::node(std::size_t i) const {
  if (i >= node_count())
    throw error("retarget: node " + std::to_string(i) + " of a model of " +
                std::to_string(node_count()) + " nodes");
  return node_view(proto_->graph().node(static_cast<int>(i)));
}

RETARGET_COMPILED_DECL std::vector<node_view> model::nodes() const {
  return {proto_->graph().node().begin(), proto_->graph().node().end()};
}

RETARGET_COMPILED_DECL std::vector<std::string> model::output_names() const {
  std::vector<std::string> names;
  for (const auto& o : proto_->graph().output()) names.push_back(o.name());
  return names;
}

RETARGET_COMPILED_DECL std::size_t model::keep_initializers_where(
    const std::function<bool(const std::string&)>& keep) {
  auto& initializers = *proto_->mutable_graph()->mutable_initializer();
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

RETARGET_COMPILED_DECL std::optional<int> model::opset(std::string_view domain) const {
  return detail::imported_version(*proto_, domain);
}

RETARGET_COMPILED_DECL std::optional<std::string> model::metadata(std::string_view key) const {
  for (const auto& p : proto_->metadata_props())
    if (p.key() == key) return p.value();
  return std::nullopt;
}

RETARGET_COMPILED_DECL void model::set_metadata(const std::string& key, const std::string& v) {
  for (auto& p : *proto_->mutable_metadata_props())
    if (p.key() == key) {
      p.set_value(v);
      return;
    }
  auto* p = proto_->add_metadata_props();
  p->set_key(key);
  p->set_value(v);
}

RETARGET_COMPILED_DECL void model::check() const {
  const detail::schema_registry_reader reading;
  try {
    onnx::ModelProto copy;
    checked_copy(copy);
    detail::infer_model_shapes(copy, /*strict=*/true);
  } catch (const error&) {  // retarget's own refusal names the node already
    throw;
  } catch (const std::exception& e) {
    throw error(std::string("retarget: model check failed: ") + e.what());
  }
}

RETARGET_COMPILED_DECL void model::infer_shapes() {
  const detail::schema_registry_reader reading;
  // In place, unless weights are shared: then on a copy without them, whose inferred types
  // come back (the copy differs from the model in its weights only).
  std::optional<onnx::ModelProto> copy;
  try {
    if (shared_.empty())
      detail::check_model(*proto_);
    else
      checked_copy(copy.emplace());
  } catch (const std::exception& e) {
    throw error(std::string("retarget: shape inference refused: model check failed: ") + e.what());
  }
  try {
    detail::infer_model_shapes(copy ? *copy : *proto_, /*strict=*/false);
  } catch (const error&) {
    throw;
  } catch (const std::exception& e) {
    throw error(std::string("retarget: shape inference failed: ") + e.what());
  }
  if (!copy) return;
  auto& graph = *proto_->mutable_graph();
  *graph.mutable_value_info() = std::move(*copy->mutable_graph()->mutable_value_info());
  *graph.mutable_output() = std::move(*copy->mutable_graph()->mutable_output());
  *graph.mutable_node() = std::move(*copy->mutable_graph()->mutable_node());
}

// The checker asks of a tensor that it has one field of values, never how many bytes it holds,
// so a byte stands in for a shared weight's bytes; inference then sees the shared weights as
// graph inputs of their type (the emitter's per-node inference had their values when it built
// the graph).
RETARGET_COMPILED_DECL void model::checked_copy(onnx::ModelProto& copy) const {
  copy = *proto_;
  if (shared_.empty()) {
    detail::check_model(copy);
    return;
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
}

RETARGET_COMPILED_DECL model make_model(graph_base&& g, model_info info) {
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

#endif  // RETARGET_IR_DETAIL_MODEL_IMPL_HPP
