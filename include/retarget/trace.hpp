// The tracing front end: traced tensors and export_onnx, with the op library (ops.hpp,
// symbolics.hpp) and nn modules (nn.hpp) that models are written with.
#ifndef RETARGET_TRACE_HPP
#define RETARGET_TRACE_HPP

#include <retarget/nn.hpp>
#include <retarget/ops.hpp>
#include <retarget/trace/export.hpp>
#include <retarget/trace/mark.hpp>
#include <retarget/trace/op_function.hpp>
#include <retarget/trace/operators.hpp>
#include <retarget/trace/session.hpp>
#include <retarget/trace/tensor.hpp>

#endif  // RETARGET_TRACE_HPP
