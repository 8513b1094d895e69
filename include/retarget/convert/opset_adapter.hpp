// Opset adapters: how a node of one op takes one step v → v ± 1 of the default domain's opset,
// where the op's schema changes there and ONNX's version converter gets it wrong or lacks it.
// Declaring the specialization is the whole registration: plan_opset and to_opset find it.
//
//   template <>
//   struct retarget::convert::opset_adapter<"Softmax", 13, 12> {
//     static std::optional<std::string> refuses(const node_of<"Softmax">&, const input_facts&);
//     static ir::value call(ir::graph& g, const node_of<"Softmax">& n);  // emits at opset 12
//   };
//
// An op unknown to the ONNX schemas, or a step that is not v → v ± 1, does not compile;
// attributes are read by checked keys, as in node rewrites. Declare it, in a header, before the
// first plan_opset or to_opset of every unit that calls them (as a node rewrite is declared).
#ifndef RETARGET_CONVERT_OPSET_ADAPTER_HPP
#define RETARGET_CONVERT_OPSET_ADAPTER_HPP

#include <cstddef>
#include <optional>
#include <retarget/convert/node.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/schema.hpp>
#include <utility>
#include <vector>

namespace retarget::convert {

namespace detail {
// Whether Op is an op of the default domain: looked up once per op, not once per step named
// (the planner names every step where a schema can change).
template <fixed_string Op>
inline constexpr bool default_domain_op = ir::is_onnx_op(Op) && ir::split_op_name(Op).first.empty();

// Checked where an opset_adapter is named, so a misspelt op or a bad step is one error.
template <fixed_string Op, int From, int To>
struct opset_adapter_target {
  static_assert(default_domain_op<Op>,
                "retarget: opset_adapter declared for an op type unknown to the ONNX schemas (of "
                "the default domain: other domains' nodes are left alone)");
  static_assert(From >= ir::min_opset && From <= ir::max_opset && To >= ir::min_opset &&
                    To <= ir::max_opset && (From - To == 1 || To - From == 1),
                "retarget: opset_adapter declared for a step that is not v -> v + 1 or v -> v - 1 "
                "between opsets the ONNX library knows");
  using type = void;
};
}  // namespace detail

// What an adapter may ask of a node's inputs before and while converting: their rank, where
// shape inference knows it, and whether they are constants (an initializer or a Constant).
class input_facts {
 public:
  input_facts() = default;
  input_facts(std::vector<bool> present, std::vector<std::optional<std::size_t>> ranks,
              std::vector<bool> constant)
      : present_(std::move(present)), ranks_(std::move(ranks)), constant_(std::move(constant)) {}
  // Whether the node has input i (not absent, not an empty name).
  bool present(std::size_t i) const { return i < present_.size() && present_[i]; }
  std::optional<std::size_t> rank(std::size_t i) const {
    return i < ranks_.size() ? ranks_[i] : std::nullopt;
  }
  bool constant(std::size_t i) const { return i < constant_.size() && constant_[i]; }

 private:
  std::vector<bool> present_;
  std::vector<std::optional<std::size_t>> ranks_;
  std::vector<bool> constant_;
};

// Specialize for (Op, From, To):
//   static R call(ir::graph& g, const node_of<Op>& n);   // g is at opset To; R: the outputs
//   static std::optional<std::string> refuses(const node_of<Op>&, const input_facts&); // opt.
//   static constexpr bool keeps_op = false;   // optional: the node becomes other ops
// Nothing else: the planner probes every step where the op's schema can change.
template <fixed_string Op, int From, int To,
          class = typename detail::opset_adapter_target<Op, From, To>::type>
struct opset_adapter {
  using retarget_undeclared = void;
};

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_OPSET_ADAPTER_HPP
