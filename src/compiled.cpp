// retarget::compiled: the emitter's per-node checking and shape inference, the conversion
// engine (rebuild, folding, cleanup, the pass loop), loading and saving model files, the shim
// over ONNX's version converter, the opset planner's schema comparisons, a model's summary, its
// sample inputs and tensor statistics, the op library's symbolics (each op's nodes, through the
// checked g.op), the conversion packages of the backends whose tags declare them compiled
// (opencv_dnn's rules, node rewrites and quirks), the reading of the backends' params and the
// deploy config's sections from JSON (RETARGET_OPTIONS_READ_ONCE where each is defined), and
// the engine runs' file handling and comparison, compiled once. Built with
// RETARGET_COMPILING_LIBRARY, their headers bring in the definitions (RETARGET_COMPILED_DECL in
// core/config.hpp); translation units that link this library only declare them. Without it
// retarget is header-only as ever.
#include <retarget/backend/compare.hpp>
#include <retarget/backend/manager.hpp>
#include <retarget/backend/pipeline.hpp>
#include <retarget/backends/onnxruntime/manager.hpp>
#include <retarget/backends/opencv_dnn/convert.hpp>
#include <retarget/backends/opencv_dnn/manager.hpp>
#include <retarget/backends/tensorrt/manager.hpp>
#include <retarget/config/deploy_config.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/detail/engine.hpp>
#include <retarget/convert/opset.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/detail/onnx_library.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dot.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/exposed_values.hpp>
#include <retarget/ir/fixed_inputs.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_cut.hpp>
#include <retarget/ir/graph_helpers.hpp>
#include <retarget/ir/graph_interface.hpp>
#include <retarget/ir/inspect.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/model_parts.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/open_dims.hpp>
#include <retarget/ir/rebuilt_model.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/schema.hpp>
#include <retarget/ir/stored_graph.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <retarget/ir/topology.hpp>
#include <retarget/ir/value.hpp>
#include <retarget/ir/version_converter.hpp>
#include <retarget/symbolics.hpp>

namespace retarget::convert {

namespace {
using opencv_dnn = backends::opencv_dnn;
}

package_hooks compiled_package<opencv_dnn>::hooks() {
  return detail::hooks_for<opencv_dnn, rules_for<opencv_dnn>>();
}

void compiled_package<opencv_dnn>::check(const refusal_context& model, std::vector<refusal>& out) {
  quirks_for<opencv_dnn>::check(model, out);
}

std::span<const std::string_view> compiled_package<opencv_dnn>::approximation_names() {
  return quirks_for<opencv_dnn>::approximation_names;
}

}  // namespace retarget::convert
