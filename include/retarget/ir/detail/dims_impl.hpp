// The definitions of ir/dims.hpp that read a shape proto: inline header-only, compiled once
// into retarget::compiled otherwise.
#ifndef RETARGET_IR_DETAIL_DIMS_IMPL_HPP
#define RETARGET_IR_DETAIL_DIMS_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <retarget/core/config.hpp>
#include <retarget/ir/dims.hpp>
#include <string>

namespace retarget::ir {

RETARGET_COMPILED_DECL std::string format_dims(const onnx::TensorShapeProto& shape) {
  return detail::bracketed(shape.dim(), [](const onnx::TensorShapeProto::Dimension& d) {
    return d.has_dim_value()   ? std::to_string(d.dim_value())
           : d.has_dim_param() ? d.dim_param()
                               : std::string("?");
  });
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_DIMS_IMPL_HPP
