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
// The same for a function that no header calls from a non-template: header-only it is a
// template of an unused parameter, so that its body, and every template that body uses, is
// compiled only in a unit that calls it (an inline function's is compiled wherever its header
// is included). The declaration takes RETARGET_LAZY_DECL, the definition RETARGET_LAZY_DEF; a
// helper of such definitions, defined once in a detail/*_impl.hpp (a function, or a member
// function of a class only they use), RETARGET_LAZY_HELPER.
#if defined(RETARGET_SEPARATE_COMPILATION)
#define RETARGET_LAZY_DECL
#define RETARGET_LAZY_DEF
#define RETARGET_LAZY_HELPER inline
#else
#define RETARGET_LAZY_DECL \
  template <class = void>  \
  inline
#define RETARGET_LAZY_DEF \
  template <class>        \
  inline
#define RETARGET_LAZY_HELPER \
  template <class = void>    \
  inline
#endif
#if !defined(RETARGET_SEPARATE_COMPILATION) || defined(RETARGET_COMPILING_LIBRARY)
#define RETARGET_COMPILED_DEFINITIONS 1
#endif

#endif  // RETARGET_CORE_CONFIG_HPP
