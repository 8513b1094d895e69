// The op library's symbolics: how each op becomes ONNX nodes (retarget::symbolics), each
// rewritable for a backend with symbolic_rewrite.
#ifndef RETARGET_SYMBOLICS_HPP
#define RETARGET_SYMBOLICS_HPP

#include <retarget/symbolics/elementwise.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <retarget/symbolics/nn.hpp>
#include <retarget/symbolics/reduce.hpp>
#include <retarget/symbolics/resize.hpp>
#include <retarget/symbolics/shape.hpp>

#endif  // RETARGET_SYMBOLICS_HPP
