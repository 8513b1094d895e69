// Compiler and platform facts retarget relies on, in one place.
#ifndef RETARGET_CORE_CONFIG_HPP
#define RETARGET_CORE_CONFIG_HPP

#if __cplusplus < 202002L
#error "retarget needs C++20 (-std=c++20 or later)"
#endif

#include <retarget/version.hpp>

// Forces inlining of the one-line forwarding layers of dispatch, so a rewritten call costs
// what the rewrite itself costs, also at -O1.
#if defined(__GNUC__) || defined(__clang__)
#define RETARGET_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define RETARGET_ALWAYS_INLINE inline
#endif

// How the parts of retarget::compiled are linked. Header-only (the default) their functions are
// inline, compiled again in every translation unit that uses them; with
// RETARGET_SEPARATE_COMPILATION (the target retarget::compiled sets it) they are only declared
// in the headers, and compiled once, into that library (whose own source defines
// RETARGET_COMPILING_LIBRARY).
#if defined(RETARGET_SEPARATE_COMPILATION)
#define RETARGET_COMPILED_DECL
#else
#define RETARGET_COMPILED_DECL inline
#endif
#if !defined(RETARGET_SEPARATE_COMPILATION) || defined(RETARGET_COMPILING_LIBRARY)
#define RETARGET_COMPILED_DEFINITIONS 1
#endif

#endif  // RETARGET_CORE_CONFIG_HPP
