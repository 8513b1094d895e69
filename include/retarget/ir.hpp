// The ONNX emitter: graphs built node by node with checked ops and typed attributes, models,
// and model and tensor files.
#ifndef RETARGET_IR_HPP
#define RETARGET_IR_HPP

#include <retarget/ir/atomic_file.hpp>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/axis.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/dot.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_helpers.hpp>
#include <retarget/ir/inspect.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/model_parts.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/op_name.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/schema.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <retarget/ir/topology.hpp>
#include <retarget/ir/value.hpp>
#include <retarget/ir/version_converter.hpp>

#endif  // RETARGET_IR_HPP
