// retarget::compiled: the emitter's per-node checking and shape inference, compiled once.
// Translation units that link this library declare these functions and skip their code
// (include/retarget/ir/detail/linkage.hpp); without it retarget is header-only as ever.
#include <retarget/ir/detail/emitter.hpp>
