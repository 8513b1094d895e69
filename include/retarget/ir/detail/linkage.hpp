// How the emitter's heavy functions are linked. Header-only (the default) they are inline,
// compiled again in every translation unit that emits a node; with
// RETARGET_SEPARATE_COMPILATION (the target retarget::compiled sets it) they are declared here
// and compiled once, into that library, so a converter's translation units skip ONNX's
// checking and inference code.
#ifndef RETARGET_IR_DETAIL_LINKAGE_HPP
#define RETARGET_IR_DETAIL_LINKAGE_HPP

#include <retarget/core/config.hpp>

#define RETARGET_IR_DECL RETARGET_COMPILED_DECL
#if defined(RETARGET_COMPILED_DEFINITIONS)
#define RETARGET_IR_DEFINITIONS 1
#endif

#endif  // RETARGET_IR_DETAIL_LINKAGE_HPP
