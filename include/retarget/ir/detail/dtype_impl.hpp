// The check of ir/dtype.hpp's numbers: each dtype is the TensorProto::DataType of that element
// type, which the conversions between them by static_cast rely on.
#ifndef RETARGET_IR_DETAIL_DTYPE_IMPL_HPP
#define RETARGET_IR_DETAIL_DTYPE_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <retarget/ir/dtype.hpp>

namespace retarget::ir::detail {

constexpr bool same_number(dtype t, onnx::TensorProto_DataType onnx_type) noexcept {
  return static_cast<int>(t) == static_cast<int>(onnx_type);
}

static_assert(same_number(dtype::undefined, onnx::TensorProto_DataType_UNDEFINED));
static_assert(same_number(dtype::f32, onnx::TensorProto_DataType_FLOAT));
static_assert(same_number(dtype::u8, onnx::TensorProto_DataType_UINT8));
static_assert(same_number(dtype::i8, onnx::TensorProto_DataType_INT8));
static_assert(same_number(dtype::u16, onnx::TensorProto_DataType_UINT16));
static_assert(same_number(dtype::i16, onnx::TensorProto_DataType_INT16));
static_assert(same_number(dtype::i32, onnx::TensorProto_DataType_INT32));
static_assert(same_number(dtype::i64, onnx::TensorProto_DataType_INT64));
static_assert(same_number(dtype::string, onnx::TensorProto_DataType_STRING));
static_assert(same_number(dtype::boolean, onnx::TensorProto_DataType_BOOL));
static_assert(same_number(dtype::f16, onnx::TensorProto_DataType_FLOAT16));
static_assert(same_number(dtype::f64, onnx::TensorProto_DataType_DOUBLE));
static_assert(same_number(dtype::u32, onnx::TensorProto_DataType_UINT32));
static_assert(same_number(dtype::u64, onnx::TensorProto_DataType_UINT64));
static_assert(same_number(dtype::c64, onnx::TensorProto_DataType_COMPLEX64));
static_assert(same_number(dtype::c128, onnx::TensorProto_DataType_COMPLEX128));
static_assert(same_number(dtype::bf16, onnx::TensorProto_DataType_BFLOAT16));

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_DTYPE_IMPL_HPP
