// What the opset planner and step driver know of a model at one opset: the analyzed view of it
// (types after shape inference, the constants, without a copy of its weights), and an adapter's
// input_facts of a node.
#ifndef RETARGET_CONVERT_DETAIL_OPSET_MODEL_FACTS_HPP
#define RETARGET_CONVERT_DETAIL_OPSET_MODEL_FACTS_HPP

#include <cstddef>
#include <optional>
#include <retarget/convert/opset_adapter.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/node_view.hpp>
#include <string>
#include <utility>
#include <vector>

namespace retarget::convert::detail {

struct model_facts {
  // Between steps a model may be one ONNX's checker would refuse (a node the step has yet to
  // adapt): its types are inferred all the same.
  explicit model_facts(const ir::model& m) : view(m, {.check_before_inference = false}) {}

  // A constant's stored tensor; absent for anything computed.
  ir::tensor_view constant(const std::string& name) const { return view.constant(name); }

  input_facts facts_of(const ir::node_view& n) const {
    std::vector<bool> present;
    std::vector<std::optional<std::size_t>> ranks;
    std::vector<bool> constant;
    for (const auto& i : n.inputs()) {
      present.push_back(!i.empty());
      ranks.push_back(i.empty() || view.element_type(i) == 0 ? std::nullopt : view.rank(i));
      constant.push_back(!i.empty() && view.constant(i) != nullptr);
    }
    return {std::move(present), std::move(ranks), std::move(constant)};
  }

  ir::model_view view;
};

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_OPSET_MODEL_FACTS_HPP
