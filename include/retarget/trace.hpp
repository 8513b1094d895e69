// The tracing front end: traced tensors, the op library, nn modules and export_onnx.
#ifndef RETARGET_TRACE_HPP
#define RETARGET_TRACE_HPP

#include <retarget/trace/export.hpp>
#include <retarget/trace/nn.hpp>
#include <retarget/trace/ops.hpp>
#include <retarget/trace/session.hpp>
#include <retarget/trace/tensor.hpp>

#endif  // RETARGET_TRACE_HPP
