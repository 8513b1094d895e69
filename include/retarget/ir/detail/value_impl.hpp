// The definitions of ir/value.hpp that read a type or shape proto: inline header-only, compiled
// once into retarget::compiled otherwise. value::name() and value::type() are the graph's
// (ir/graph.hpp).
#ifndef RETARGET_IR_DETAIL_VALUE_IMPL_HPP
#define RETARGET_IR_DETAIL_VALUE_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <cstddef>
#include <retarget/core/config.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/value.hpp>
#include <vector>

namespace retarget::ir {

RETARGET_COMPILED_DECL std::vector<dim> dims_of(const onnx::TensorShapeProto& shape) {
  std::vector<dim> out;
  for (const auto& d : shape.dim()) {
    if (d.has_dim_value())
      out.emplace_back(d.dim_value());
    else if (d.has_dim_param())
      out.emplace_back(d.dim_param());
    else
      out.emplace_back();
  }
  return out;
}

RETARGET_COMPILED_DECL onnx::TypeProto type_of(const onnx::TensorProto& t) {
  onnx::TypeProto type;
  auto* tensor_type = type.mutable_tensor_type();
  tensor_type->set_elem_type(t.data_type());
  auto* shape = tensor_type->mutable_shape();
  for (auto d : t.dims()) shape->add_dim()->set_dim_value(d);
  return type;
}

RETARGET_COMPILED_DECL ::retarget::ir::dtype value::dtype() const {
  return static_cast<::retarget::ir::dtype>(type().tensor_type().elem_type());
}

RETARGET_COMPILED_DECL bool value::has_shape() const { return type().tensor_type().has_shape(); }

RETARGET_COMPILED_DECL std::size_t value::rank() const {
  require_shape("rank");
  return static_cast<std::size_t>(type().tensor_type().shape().dim_size());
}

RETARGET_COMPILED_DECL std::vector<dim> value::shape() const {
  require_shape("shape");
  return dims_of(type().tensor_type().shape());
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_VALUE_IMPL_HPP
