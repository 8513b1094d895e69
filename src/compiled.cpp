// retarget::compiled: the emitter's per-node checking and shape inference, compiled once.
// Built with RETARGET_COMPILING_LIBRARY, the emitter's header brings in their definitions
// (include/retarget/ir/detail/linkage.hpp); translation units that link this library only
// declare them. Without it retarget is header-only as ever.
#include <retarget/ir/graph.hpp>
