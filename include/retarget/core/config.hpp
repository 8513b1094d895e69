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

#endif  // RETARGET_CORE_CONFIG_HPP
