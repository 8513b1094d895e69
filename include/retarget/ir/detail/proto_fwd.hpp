// ONNX's protobuf messages, declared but not defined: a public header of ir/ names them in
// signatures (a view's proto(), a graph's type) without paying for <onnx/onnx_pb.h>, which
// only the definitions (ir/detail/*_impl.hpp) and ir/proto.hpp include.
#ifndef RETARGET_IR_DETAIL_PROTO_FWD_HPP
#define RETARGET_IR_DETAIL_PROTO_FWD_HPP

namespace onnx {
class AttributeProto;
class FunctionProto;
class GraphProto;
class ModelProto;
class NodeProto;
class OperatorSetIdProto;
class OpSchema;
class SparseTensorProto;
class TensorProto;
class TensorShapeProto;
class TensorShapeProto_Dimension;
class TypeProto;
class ValueInfoProto;
struct InferenceContext;
}  // namespace onnx

#endif  // RETARGET_IR_DETAIL_PROTO_FWD_HPP
