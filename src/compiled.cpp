// retarget::compiled: the emitter's per-node checking and shape inference, the conversion
// engine (rebuild, folding, cleanup, the pass loop), loading and saving model files, and the
// shim over ONNX's version converter, compiled once. Built with RETARGET_COMPILING_LIBRARY,
// their headers bring in the definitions (RETARGET_COMPILED_DECL in core/config.hpp);
// translation units that link this library only declare them. Without it retarget is
// header-only as ever.
#include <retarget/convert/detail/engine.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/schema.hpp>
#include <retarget/ir/version_converter.hpp>
