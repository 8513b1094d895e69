// How the symbolics' bodies are linked. Header-only (the default) they are inline, compiled
// again in every translation unit that includes them; with RETARGET_SEPARATE_COMPILATION (the
// target retarget::compiled sets it) they are declared here and compiled once, into that
// library, so a user's unit does not instantiate the emitter's checks of every op they emit.
#ifndef RETARGET_SYMBOLICS_DETAIL_LINKAGE_HPP
#define RETARGET_SYMBOLICS_DETAIL_LINKAGE_HPP

#include <retarget/core/config.hpp>

#define RETARGET_SYMBOLICS_DECL RETARGET_COMPILED_DECL
#if defined(RETARGET_COMPILED_DEFINITIONS)
#define RETARGET_SYMBOLICS_DEFINITIONS 1
#endif

#endif  // RETARGET_SYMBOLICS_DETAIL_LINKAGE_HPP
