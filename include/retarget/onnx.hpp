// The ONNX emitter: graphs built node by node with checked ops and typed attributes, models,
// and model files.
#ifndef RETARGET_ONNX_HPP
#define RETARGET_ONNX_HPP

#include <retarget/onnx/attribute.hpp>
#include <retarget/onnx/dtype.hpp>
#include <retarget/onnx/dot.hpp>
#include <retarget/onnx/graph.hpp>
#include <retarget/onnx/inspect.hpp>
#include <retarget/onnx/model.hpp>
#include <retarget/onnx/model_file.hpp>
#include <retarget/onnx/op_name.hpp>
#include <retarget/onnx/schema.hpp>
#include <retarget/onnx/tensor.hpp>
#include <retarget/onnx/tensor_stats.hpp>
#include <retarget/onnx/value.hpp>

#endif  // RETARGET_ONNX_HPP
