// The definitions of attribute.hpp's writing of attributes into AttributeProtos (see
// linkage.hpp for where they are compiled).
#ifndef RETARGET_IR_DETAIL_ATTRIBUTE_IMPL_HPP
#define RETARGET_IR_DETAIL_ATTRIBUTE_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <cstdint>
#include <retarget/core/config.hpp>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/detail/deep_ptr_impl.hpp>
#include <span>
#include <string>
#include <string_view>

namespace retarget::ir {

// attr_type's numbers are ONNX's.
static_assert(static_cast<int>(attr_type::undefined) ==
              onnx::AttributeProto_AttributeType_UNDEFINED);
static_assert(static_cast<int>(attr_type::float_) == onnx::AttributeProto_AttributeType_FLOAT);
static_assert(static_cast<int>(attr_type::int_) == onnx::AttributeProto_AttributeType_INT);
static_assert(static_cast<int>(attr_type::string) == onnx::AttributeProto_AttributeType_STRING);
static_assert(static_cast<int>(attr_type::tensor) == onnx::AttributeProto_AttributeType_TENSOR);
static_assert(static_cast<int>(attr_type::graph) == onnx::AttributeProto_AttributeType_GRAPH);
static_assert(static_cast<int>(attr_type::floats) == onnx::AttributeProto_AttributeType_FLOATS);
static_assert(static_cast<int>(attr_type::ints) == onnx::AttributeProto_AttributeType_INTS);
static_assert(static_cast<int>(attr_type::strings) == onnx::AttributeProto_AttributeType_STRINGS);
static_assert(static_cast<int>(attr_type::tensors) == onnx::AttributeProto_AttributeType_TENSORS);
static_assert(static_cast<int>(attr_type::graphs) == onnx::AttributeProto_AttributeType_GRAPHS);
static_assert(static_cast<int>(attr_type::sparse_tensor) ==
              onnx::AttributeProto_AttributeType_SPARSE_TENSOR);
static_assert(static_cast<int>(attr_type::sparse_tensors) ==
              onnx::AttributeProto_AttributeType_SPARSE_TENSORS);
static_assert(static_cast<int>(attr_type::type_proto) ==
              onnx::AttributeProto_AttributeType_TYPE_PROTO);
static_assert(static_cast<int>(attr_type::type_protos) ==
              onnx::AttributeProto_AttributeType_TYPE_PROTOS);

namespace detail {

inline void start_attribute(onnx::AttributeProto& a, std::string_view name, attr_type type) {
  a.set_name(std::string(name));
  a.set_type(static_cast<onnx::AttributeProto_AttributeType>(type));
}

RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::int64_t value) {
  start_attribute(a, name, attr_type::int_);
  a.set_i(value);
}
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            float value) {
  start_attribute(a, name, attr_type::float_);
  a.set_f(value);
}
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            const std::string& value) {
  start_attribute(a, name, attr_type::string);
  a.set_s(value);
}
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            const tensor& value) {
  start_attribute(a, name, attr_type::tensor);
  *a.mutable_t() = value.proto();
}
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            const graph_payload& value) {
  start_attribute(a, name, attr_type::graph);
  *a.mutable_g() = *value;
}
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::span<const std::int64_t> values) {
  start_attribute(a, name, attr_type::ints);
  a.mutable_ints()->Add(values.begin(), values.end());
}
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::span<const float> values) {
  start_attribute(a, name, attr_type::floats);
  a.mutable_floats()->Add(values.begin(), values.end());
}
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::span<const std::string> values) {
  start_attribute(a, name, attr_type::strings);
  for (const auto& s : values) a.add_strings(s);
}
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::span<const tensor> values) {
  start_attribute(a, name, attr_type::tensors);
  for (const auto& t : values) *a.add_tensors() = t.proto();
}
RETARGET_COMPILED_DECL void write_attribute(onnx::AttributeProto& a, std::string_view name,
                                            std::span<const graph_payload> values) {
  start_attribute(a, name, attr_type::graphs);
  for (const auto& g : values) *a.add_graphs() = *g;
}

}  // namespace detail

RETARGET_COMPILED_DECL void runtime_attribute::write(onnx::AttributeProto& a) const { a = *proto; }

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_ATTRIBUTE_IMPL_HPP
