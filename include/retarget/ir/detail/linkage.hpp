// How the emitter's heavy functions are linked. Header-only (the default) they are inline,
// compiled again in every translation unit that emits a node; with
// RETARGET_SEPARATE_COMPILATION (the target retarget::compiled sets it) they are declared here
// and compiled once, into that library, so a converter's translation units skip ONNX's
// checking and inference code.
#ifndef RETARGET_IR_DETAIL_LINKAGE_HPP
#define RETARGET_IR_DETAIL_LINKAGE_HPP

#if defined(RETARGET_SEPARATE_COMPILATION)
#define RETARGET_IR_DECL
#else
#define RETARGET_IR_DECL inline
#endif

// Whether this translation unit holds the definitions: always header-only, and in the
// library's own source otherwise.
#if !defined(RETARGET_SEPARATE_COMPILATION) || defined(RETARGET_COMPILING_LIBRARY)
#define RETARGET_IR_DEFINITIONS 1
#endif

#endif  // RETARGET_IR_DETAIL_LINKAGE_HPP
