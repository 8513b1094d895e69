// The opset planner: how each node of a model takes each step v → v ± 1 to another opset of
// the default domain, and every node that cannot, all at once, before anything is converted.
//
//   auto plan = retarget::convert::plan_opset(model, 13);   // plan.missing: what cannot move
//
// A step of a node needs an adapter when the op's schema changes there: going down from v
// when the op has a schema introduced at v, going up from v when it has one introduced at
// v + 1 (ONNX's rule). The adapter is, in this order: retarget's own (an opset_adapter, found
// by its declaration), then ONNX's, then, when the two schemas differ only in the types they
// allow or the step is declared in same_meaning_steps, the node itself re-emitted through the
// checked emitter at the new opset (which checks its types there). Anything else is refused,
// naming the node and why. Nodes of other domains are left alone.
#ifndef RETARGET_CONVERT_OPSET_PLAN_HPP
#define RETARGET_CONVERT_OPSET_PLAN_HPP

#include <boost/mp11/list.hpp>
#include <cstddef>
#include <retarget/convert/detail/opset_model_facts.hpp>
#include <retarget/convert/detail/opset_registry.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/convert/opset_adapter.hpp>
#include <retarget/convert/opset_adapters.hpp>  // retarget's, seen wherever a plan is
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/version_converter.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::convert {

// ---- steps that keep their meaning ----

// A step whose two schemas differ in more than the types they allow (an attribute, an input or
// an output added or removed, or changed in kind, requiredness, default, name or optionality)
// takes a node over as it is only when it is listed here, with why a node means the same at
// both opsets. Even then the node must set no attribute the other opset lacks, unless it sets
// it to its default. Any other such step needs an adapter (retarget's or ONNX's) or is refused;
// tests/convert/opset_schema_steps_test.cpp checks every one of opsets 1..17 is one of the
// three. When in doubt, an entry stays out: a refusal is better than a silent change.
struct same_meaning_step {
  std::string_view op;
  int from, to;
  std::string_view why;
};

namespace detail {
inline constexpr std::string_view consumed_inputs_why =
    "consumed_inputs, a legacy in-place hint (optional at 1, dropped at 6), never changed the "
    "result";
inline constexpr std::string_view broadcast_why =
    "without axis and broadcast (dropped at 7) the inputs of opset 1 have one shape, for which "
    "7's multidirectional broadcasting computes the same";
}  // namespace detail

inline constexpr same_meaning_step same_meaning_steps[] = {
    {"AveragePool", 10, 9, "ceil_mode (new at 10) defaults to 0: the floor AveragePool-7 uses"},
    {"MaxPool", 10, 9,
     "ceil_mode (new at 10) defaults to 0, MaxPool-8's floor; without dilations the kernel is "
     "MaxPool-8's undilated one"},
    {"DepthToSpace", 11, 10, "mode (new at 11) defaults to 'DCR', the order of DepthToSpace-1"},
    {"GatherND", 12, 11, "batch_dims (new at 12) defaults to 0: GatherND-11 has no batch dims"},
    {"ScatterElements", 16, 15,
     "reduction (new at 16) defaults to 'none': ScatterElements-13's plain assignment"},
    {"ScatterND", 16, 15, "reduction (new at 16) defaults to 'none': ScatterND-13's assignment"},
    {"Shape", 15, 14, "start (new at 15) defaults to 0 and no end is the last axis: all of it"},
    {"TopK", 11, 10, "largest and sorted (new at 11) default to 1: TopK-10's k largest, sorted"},
    {"Constant", 12, 11,
     "value_float(s), value_int(s), value_string(s) (new at 12) are other spellings of value; "
     "a node with value is Constant-11's"},
    {"Ceil", 6, 5, detail::consumed_inputs_why},
    {"Elu", 6, 5, detail::consumed_inputs_why},
    {"Exp", 6, 5, detail::consumed_inputs_why},
    {"Floor", 6, 5, detail::consumed_inputs_why},
    {"HardSigmoid", 6, 5, detail::consumed_inputs_why},
    {"InstanceNormalization", 6, 5, detail::consumed_inputs_why},
    {"LeakyRelu", 6, 5, detail::consumed_inputs_why},
    {"Log", 6, 5, detail::consumed_inputs_why},
    {"Max", 6, 5, detail::consumed_inputs_why},
    {"Mean", 6, 5, detail::consumed_inputs_why},
    {"Min", 6, 5, detail::consumed_inputs_why},
    {"PRelu", 6, 5, detail::consumed_inputs_why},
    {"Reciprocal", 6, 5, detail::consumed_inputs_why},
    {"Sigmoid", 6, 5, detail::consumed_inputs_why},
    {"Sqrt", 6, 5, detail::consumed_inputs_why},
    {"Tanh", 6, 5, detail::consumed_inputs_why},
    {"And", 6, 7, detail::broadcast_why},
    {"Equal", 6, 7, detail::broadcast_why},
    {"Greater", 6, 7, detail::broadcast_why},
    {"Less", 6, 7, detail::broadcast_why},
    {"Or", 6, 7, detail::broadcast_why},
    {"Xor", 6, 7, detail::broadcast_why},
};

// The entry for op's step from → to, or nullptr.
constexpr const same_meaning_step* find_same_meaning(std::string_view op, int from, int to) {
  for (const auto& s : same_meaning_steps)
    if (s.op == op && s.from == from && s.to == to) return &s;
  return nullptr;
}

// ---- the plan ----

// How one node takes one step.
enum class step_by {
  unchanged,  // the op's schema does not change there
  onnx,       // ONNX's adapter
  retarget,   // retarget's adapter
  same_node,  // only the allowed types change: re-emitted, checked at the new opset
  other_domain,
  missing,  // no adapter, or the adapter refuses the node
};

// A node that cannot take a step, and why.
struct unadaptable {
  int index;         // in the main graph
  std::string name;  // may be empty
  std::string op;
  int from, to;
  std::string why;
};

struct opset_plan {
  int from = 0, to = 0;
  std::vector<unadaptable> missing;
  // How many node steps each way takes (retarget, onnx, same_node).
  std::size_t by_retarget = 0, by_onnx = 0, by_same_node = 0;
  bool ok() const noexcept { return missing.empty(); }
};

// "node 3 'ln' (LayerNormalization), opset 17 → 16: why"
RETARGET_COMPILED_DECL std::string to_string(const unadaptable& u);

namespace detail {

// Whether op has a schema at opset.
RETARGET_COMPILED_DECL bool in_opset(const std::string& op, int opset);

// Whether a step from → to of op needs an adapter (ONNX's rule).
RETARGET_COMPILED_DECL bool step_needs_adapter(const std::string& op, int from, int to);

// Whether node n of op can take the step as it is: its schemas at `from` and `to` differ only
// in the types they allow (which the emitter checks at the new opset), or the step is listed in
// same_meaning_steps; and n sets no attribute `to` lacks, but for one it sets to its default at
// `from` (dropped when the node is re-emitted). `why` says what stops it.
RETARGET_COMPILED_DECL bool same_node_fits(const ir::node_view& n, int from, int to,
                                           std::string* why);

// Why no adapter takes node n from → to, when same_node_fits gave no reason.
RETARGET_COMPILED_DECL std::string no_adapter_why(const ir::node_view& n, int from, int to);

// Drops the attributes op's schema at `to` lacks (a node re-emitted there holds their default).
RETARGET_COMPILED_DECL void drop_attributes_not_at(ir::attribute_list& attributes,
                                                   const std::string& op, int to);

// A node as an adapter's refusal check sees it: no graph values yet.
inline node plan_node(const ir::node_view& n) { return node(n, {}, n.attribute_protos()); }

// How node n takes the step from → to; `why` is set when it cannot.
template <class Extra>
step_by how_to_step(const ir::node_view& n, int from, int to, const input_facts& facts,
                    std::string* why) {
  if (!n.in_default_domain()) return step_by::other_domain;
  if (!in_opset(n.op_type(), from)) {
    if (why) *why = n.op_type() + " is not in opset " + std::to_string(from);
    return step_by::missing;
  }
  if (!step_needs_adapter(n.op_type(), from, to)) return step_by::unchanged;
  if (const auto* a = find_adapter<Extra>(n.op_type(), from, to)) {
    if (auto refused = a->refuses(plan_node(n), facts)) {
      if (why) *why = *refused;
      return step_by::missing;
    }
    return step_by::retarget;
  }
  if (ir::onnx_converter_has(n.op_type(), from, to)) return step_by::onnx;
  std::string attribute_why;
  if (same_node_fits(n, from, to, &attribute_why)) return step_by::same_node;
  if (why) *why = attribute_why.empty() ? no_adapter_why(n, from, to) : attribute_why;
  return step_by::missing;
}

}  // namespace detail

// Every node of the main graph that no adapter takes through some step to `opset`, all at once,
// with the count of each kind of step. A node that a retarget adapter turns into other ops
// (keeps_op = false) is followed no further: those ops are checked as they are emitted.
template <class Extra = boost::mp11::mp_list<>>
opset_plan plan_opset(const ir::model& source, int opset) {
  opset_plan plan;
  const auto from = source.opset();
  if (!from) throw error("retarget: the model imports no opset of the default domain");
  plan.from = *from;
  plan.to = opset;
  if (opset < ir::min_opset || opset > ir::max_opset)
    throw error("retarget: opset " + std::to_string(opset) + " is outside " +
                std::to_string(ir::min_opset) + ".." + std::to_string(ir::max_opset) +
                ", the opsets ONNX 1.12 knows");
  const detail::model_facts facts(source);
  const int dir = opset < *from ? -1 : 1;
  for (int i = 0; i < facts.view.node_count(); ++i) {
    const ir::node_view n = facts.view.at(i);
    const auto in = facts.facts_of(n);
    for (int v = *from; v != opset; v += dir) {
      std::string why;
      const auto how = detail::how_to_step<Extra>(n, v, v + dir, in, &why);
      if (how == step_by::missing) {
        plan.missing.push_back({i, n.name(), n.op_type(), v, v + dir, why});
        break;
      }
      plan.by_retarget += how == step_by::retarget;
      plan.by_onnx += how == step_by::onnx;
      plan.by_same_node += how == step_by::same_node;
      if (how == step_by::retarget &&
          !detail::find_adapter<Extra>(n.op_type(), v, v + dir)->keeps_op)
        break;
      if (how == step_by::other_domain) break;
    }
  }
  return plan;
}

// The plan's refusals as one error: every node, one a line.
RETARGET_COMPILED_DECL std::string to_string(const opset_plan& p);

}  // namespace retarget::convert

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/convert/detail/opset_plan_impl.hpp>
#endif

#endif  // RETARGET_CONVERT_OPSET_PLAN_HPP
