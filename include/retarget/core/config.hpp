// Compiler and platform facts retarget relies on, in one place.
#ifndef RETARGET_CORE_CONFIG_HPP
#define RETARGET_CORE_CONFIG_HPP

#if __cplusplus < 202002L
#error "retarget needs C++20 (-std=c++20 or later)"
#endif

#define RETARGET_VERSION_MAJOR 0
#define RETARGET_VERSION_MINOR 1
#define RETARGET_VERSION_PATCH 0

// __type_pack_element picks the N-th type of a pack in O(1) instantiations; GCC gained it
// only in 14, so older compilers fall back to Mp11's mp_at_c.
#if defined(__has_builtin)
#if __has_builtin(__type_pack_element)
#define RETARGET_HAS_TYPE_PACK_ELEMENT 1
#endif
#endif
#ifndef RETARGET_HAS_TYPE_PACK_ELEMENT
#define RETARGET_HAS_TYPE_PACK_ELEMENT 0
#endif

// Forces inlining of the one-line forwarding layers of dispatch, so a rewritten call costs
// what the rewrite itself costs, also at -O1.
#if defined(__GNUC__) || defined(__clang__)
#define RETARGET_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define RETARGET_ALWAYS_INLINE inline
#endif

#endif  // RETARGET_CORE_CONFIG_HPP
