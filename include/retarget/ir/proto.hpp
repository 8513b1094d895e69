// ONNX's protobuf messages, for code that reads a model's raw proto or hands it to other code
// (m.proto(), g.proto(), v.type()): the public headers of ir/ only declare them, so that a
// unit that does not read them skips <onnx/onnx_pb.h>.
//
//   #include <retarget/ir/proto.hpp>
//   const onnx::ModelProto& p = model.proto();   // complete here
#ifndef RETARGET_IR_PROTO_HPP
#define RETARGET_IR_PROTO_HPP

#include <onnx/onnx_pb.h>

#include <retarget/ir/detail/proto_fwd.hpp>

#endif  // RETARGET_IR_PROTO_HPP
