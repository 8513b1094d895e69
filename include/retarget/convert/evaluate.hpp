// Evaluating one node on constant inputs, for constant folding: the shape arithmetic, casts,
// comparisons and reductions that exporters leave between a model's constants.
//
//   const retarget::ir::tensor_view inputs[] = {view.constant("data"), view.constant("indices")};
//   if (auto outputs = retarget::convert::evaluate(view.node(i), 17, inputs))
//     ...  // outputs->at(0) is a constant named the node's output: the node can go
#ifndef RETARGET_CONVERT_EVALUATE_HPP
#define RETARGET_CONVERT_EVALUATE_HPP

#include <concepts>
#include <iterator>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/tensor.hpp>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace retarget::convert {

// Whether evaluate() handles the op type at all (a quick filter before gathering inputs).
RETARGET_COMPILED_DECL bool can_evaluate(std::string_view op_type) noexcept;

// The op types evaluate() handles, by name: what its tests must each compare with ONNX Runtime
// (tests/convert/evaluate_test.cpp checks that they do).
RETARGET_COMPILED_DECL std::vector<std::string_view> evaluable_ops();

// Evaluates one node of the standard ONNX domain on constant inputs, for constant folding.
// inputs[i] is absent for an absent optional input. Returns the node's outputs, in order,
// or std::nullopt when the op, this form of it (dtype, attribute, opset) is not supported:
// the caller then keeps the node. Throws retarget::error (naming the op and what is wrong)
// only for inputs that are invalid per the ONNX spec (e.g. mismatched shapes that do not
// broadcast).
RETARGET_COMPILED_DECL std::optional<std::vector<ir::tensor>> evaluate(
    const ir::node_view& node, int opset, std::span<const ir::tensor_view> inputs);

// The same with the inputs as any range of what views them (a null pointer: absent).
template <class Inputs>
requires std::convertible_to<decltype(*std::begin(std::declval<const Inputs&>())),
                             ir::tensor_view> &&
    (!std::convertible_to<const Inputs&, std::span<const ir::tensor_view>>)
        std::optional<std::vector<ir::tensor>> evaluate(const ir::node_view& node, int opset,
                                                        const Inputs& inputs) {
  std::vector<ir::tensor_view> views;
  for (const auto& i : inputs) views.emplace_back(i);
  return evaluate(node, opset, std::span<const ir::tensor_view>(views));
}

}  // namespace retarget::convert

// The evaluator's ops are compiled where the definitions are: in every unit header-only, in
// retarget::compiled otherwise.
#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/convert/detail/evaluate_array.hpp>
#include <retarget/convert/detail/evaluate_ops.hpp>

namespace retarget::convert {

bool can_evaluate(std::string_view op_type) noexcept { return detail::op_table.contains(op_type); }

std::vector<std::string_view> evaluable_ops() {
  const auto names = detail::op_table.names();
  return {names.begin(), names.end()};
}

std::optional<std::vector<ir::tensor>> evaluate(const ir::node_view& node, int opset,
                                                std::span<const ir::tensor_view> inputs) {
  if (!node.in_default_domain()) return std::nullopt;
  const auto* op = detail::op_table.find(node.op_type());
  if (!op || node.output_count() != 1) return std::nullopt;
  try {
    std::vector<ir::tensor> outputs;
    outputs.push_back(detail::to_tensor((*op)({node, opset, inputs}), node.output(0)));
    return outputs;
  } catch (const detail::unsupported&) {
    return std::nullopt;
  }
}

}  // namespace retarget::convert
#endif

#endif  // RETARGET_CONVERT_EVALUATE_HPP
