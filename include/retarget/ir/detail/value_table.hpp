// The values of one graph: each value's name and type by the id a `value` holds, the ids by
// name, and the maps that ONNX's inference reads (types by name, and the data of initializers
// and Constant outputs).
#ifndef RETARGET_IR_DETAIL_VALUE_TABLE_HPP
#define RETARGET_IR_DETAIL_VALUE_TABLE_HPP

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

namespace retarget::ir::detail {

class value_table {
 public:
  using type_map = std::unordered_map<std::string, onnx::TypeProto*>;
  using data_map = std::unordered_map<std::string, const onnx::TensorProto*>;

  value_table() = default;
  value_table(const value_table&) = delete;
  value_table& operator=(const value_table&) = delete;

  // A subgraph's table: the outer graph's types and data are seen (for inference), not owned.
  void see_outer_scope(const value_table& outer) {
    for (const auto& [name, type] : outer.types_) types_[name] = type;
    for (const auto& [name, data] : outer.data_) data_[name] = data;
  }

  std::uint32_t add(std::string name, const onnx::TypeProto& type) {
    const auto id = static_cast<std::uint32_t>(entries_.size());
    entries_.push_back({std::move(name), type});
    auto& entry = entries_.back();
    ids_[entry.name] = id;
    types_[entry.name] = &entry.type;
    return id;
  }
  // A value whose data is known (an initializer, a Constant's output): inference may read it.
  void set_data(const std::string& name, const onnx::TensorProto* data) { data_[name] = data; }
  // The same, for data the node holds in another form (a Constant's value_ints): the table
  // keeps the tensor made from it.
  void own_data(const std::string& name, onnx::TensorProto data) {
    owned_data_.push_back(std::move(data));
    data_[name] = &owned_data_.back();
  }
  void clear_data(const std::string& name) { data_.erase(name); }
  // A node's output, at that index of the graph's nodes.
  void set_producer(const std::string& name, int node) { producers_[name] = node; }
  bool is_node_output(const std::string& name) const { return producers_.count(name) > 0; }
  // The index of the node producing a value of this graph, or -1.
  int producer(const std::string& name) const {
    const auto it = producers_.find(name);
    return it == producers_.end() ? -1 : it->second;
  }

  // The id of a value of this graph (not of an outer one).
  std::optional<std::uint32_t> find(const std::string& name) const {
    const auto it = ids_.find(name);
    return it == ids_.end() ? std::nullopt : std::optional(it->second);
  }
  const std::string& name(std::uint32_t id) const { return entries_[id].name; }
  const onnx::TypeProto& type(std::uint32_t id) const { return entries_[id].type; }
  // The type of a value of this graph or of an outer one, or nullptr.
  const onnx::TypeProto* type_of(const std::string& name) const {
    const auto it = types_.find(name);
    return it == types_.end() ? nullptr : it->second;
  }

  // Renames a value in every map; its id stays.
  void rename(std::uint32_t id, const std::string& to) {
    auto& entry = entries_[id];
    const std::string from = entry.name;
    entry.name = to;
    ids_.erase(from);
    ids_[to] = id;
    types_.erase(from);
    types_[to] = &entry.type;
    if (const auto it = data_.find(from); it != data_.end()) {
      data_[to] = it->second;
      data_.erase(it);
    }
    if (const auto it = producers_.find(from); it != producers_.end()) {
      producers_[to] = it->second;
      producers_.erase(it);
    }
  }

  const type_map& types() const noexcept { return types_; }
  const data_map& data() const noexcept { return data_; }

 private:
  struct entry {
    std::string name;
    onnx::TypeProto type;
  };

  std::deque<entry> entries_;  // a deque: types_ points into it
  std::unordered_map<std::string, std::uint32_t> ids_;
  type_map types_;
  data_map data_;
  std::deque<onnx::TensorProto> owned_data_;  // a deque: data_ points into it
  std::unordered_map<std::string, int> producers_;
};

// The tensor a Constant's attribute stands for when it is not written as a tensor: ONNX's
// inference reads constant data as tensors only, and a Constant written with value_ints is as
// much a constant (a Reshape's shape, say) as one written with value.
inline std::optional<onnx::TensorProto> constant_as_tensor(const onnx::AttributeProto& a) {
  using onnx::AttributeProto;
  using onnx::TensorProto;
  onnx::TensorProto t;
  if (a.name() == "value_float" && a.type() == AttributeProto::FLOAT) {
    t.set_data_type(TensorProto::FLOAT);
    t.add_float_data(a.f());
  } else if (a.name() == "value_floats" && a.type() == AttributeProto::FLOATS) {
    t.set_data_type(TensorProto::FLOAT);
    t.add_dims(a.floats_size());
    *t.mutable_float_data() = a.floats();
  } else if (a.name() == "value_int" && a.type() == AttributeProto::INT) {
    t.set_data_type(TensorProto::INT64);
    t.add_int64_data(a.i());
  } else if (a.name() == "value_ints" && a.type() == AttributeProto::INTS) {
    t.set_data_type(TensorProto::INT64);
    t.add_dims(a.ints_size());
    *t.mutable_int64_data() = a.ints();
  } else if (a.name() == "value_string" && a.type() == AttributeProto::STRING) {
    t.set_data_type(TensorProto::STRING);
    t.add_string_data(a.s());
  } else if (a.name() == "value_strings" && a.type() == AttributeProto::STRINGS) {
    t.set_data_type(TensorProto::STRING);
    t.add_dims(a.strings_size());
    *t.mutable_string_data() = a.strings();
  } else {
    return std::nullopt;
  }
  return t;
}

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_VALUE_TABLE_HPP
