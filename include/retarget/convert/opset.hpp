// Opset conversion: an existing model moved to another opset of the default domain, one step
// (v → v ± 1) at a time, through ONNX's version converter and retarget's own adapters. Before
// anything is converted, plan_opset() finds every node that no adapter covers, all at once.
//
//   auto plan = retarget::convert::plan_opset(model, 13);   // plan.missing: what cannot move
//   ir::model m13 = retarget::convert::to_opset(model, 13); // or a retarget::error naming them
//
// A step of a node needs an adapter when the op's schema changes there: going down from v
// when the op has a schema introduced at v, going up from v when it has one introduced at
// v + 1 (ONNX's rule). The adapter is, in this order: retarget's own, declared as a type
//
//   template <> struct retarget::convert::opset_adapter<"Softmax", 13, 12> {
//     static std::optional<std::string> refuses(const node_of<"Softmax">&, const input_facts&);
//     static ir::value call(ir::graph& g, const node_of<"Softmax">& n);  // emits at opset 12
//   };
//
// (an op unknown to the ONNX schemas, or a step that is not v → v ± 1, does not compile;
// attributes are read by checked keys, as in node rewrites), then ONNX's, then, when the two
// schemas differ only in the types they allow or the step is declared in same_meaning_steps,
// the node itself re-emitted through the checked emitter at the new opset (which checks its
// types there). Anything else is refused, naming the node and why. Nodes of other domains are
// left alone.
#ifndef RETARGET_CONVERT_OPSET_HPP
#define RETARGET_CONVERT_OPSET_HPP

#include <onnx/defs/schema.h>
#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>
#include <onnx/version_converter/convert.h>

#include <algorithm>
#include <array>
#include <boost/mp11/algorithm.hpp>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <optional>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/convert/node_rewrite.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/schema.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace retarget::convert {

namespace detail {
// Checked where an opset_adapter is named, so a misspelt op or a bad step is one error.
template <fixed_string Op, int From, int To>
struct opset_adapter_target {
  static_assert(ir::is_onnx_op(Op) && ir::split_op_name(Op).first.empty(),
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
// and list it in opset_adapters (below) or in the list given to to_opset.
template <fixed_string Op, int From, int To,
          class = typename detail::opset_adapter_target<Op, From, To>::type>
struct opset_adapter {
  using retarget_undeclared = void;
};

// ---- retarget's adapters ----

namespace detail {

inline ir::value i64_vector(ir::graph& g, const std::vector<std::int64_t>& v) {
  return g.constant(ir::tensor::of<std::int64_t>(std::span<const std::int64_t>(v),
                                                 {static_cast<std::int64_t>(v.size())}));
}

// An axis attribute made non-negative, given the rank.
inline std::int64_t normalized_axis(std::int64_t axis, std::size_t rank) {
  return axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis;
}

// Softmax and LogSoftmax from 13 to 12: opset 12 coerces the input to 2-D at the axis, which is
// the same as opset 13 over the last axis only; another axis goes there through Transpose.
// Emits Op (Softmax or LogSoftmax, Squeeze or Unsqueeze) by its checked name.
template <fixed_string Op, class... Args>
ir::value emit_named(ir::graph& g, const Args&... args) {
  if constexpr (std::string_view(Op) == "Softmax")
    return g.op("Softmax", args...);
  else if constexpr (std::string_view(Op) == "LogSoftmax")
    return g.op("LogSoftmax", args...);
  else if constexpr (std::string_view(Op) == "Squeeze")
    return g.op("Squeeze", args...);
  else
    return g.op("Unsqueeze", args...);
}

template <fixed_string Op>
struct softmax_13_12 {
  static std::optional<std::string> refuses(const node_of<Op>& n, const input_facts& in) {
    const auto axis = n["axis"_i].value_or(-1);
    if (axis == -1) return std::nullopt;
    const auto rank = in.rank(0);
    if (!rank)
      return "axis " + std::to_string(axis) +
             " of an input of unknown rank: opset 12 flattens the input at the axis, so only the "
             "last axis (-1) carries over without knowing the rank";
    return std::nullopt;
  }
  static ir::value call(ir::graph& g, const node_of<Op>& n) {
    const auto axis = n["axis"_i].value_or(-1);
    const auto& x = n.input(0);
    if (axis == -1) return emit_named<Op>(g, x, "axis"_i = -1);
    if (!x.has_shape())
      throw error("retarget: " + n.describe() + ": " + *refuses(n, input_facts{}));
    const auto rank = x.rank();
    const auto a = normalized_axis(axis, rank);
    if (a == static_cast<std::int64_t>(rank) - 1) return emit_named<Op>(g, x, "axis"_i = -1);
    std::vector<std::int64_t> perm(rank);
    for (std::size_t i = 0; i < rank; ++i) perm[i] = static_cast<std::int64_t>(i);
    std::swap(perm[static_cast<std::size_t>(a)], perm.back());
    const auto moved = g.op("Transpose", x, "perm"_i = perm);
    return g.op("Transpose", emit_named<Op>(g, moved, "axis"_i = -1), "perm"_i = perm);
  }
};

inline std::optional<std::string> constant_or_absent(std::size_t i, const input_facts& in,
                                                     const char* what) {
  if (!in.present(i) || in.constant(i)) return std::nullopt;
  return std::string(what) + " (input " + std::to_string(i) +
         ") is computed at run time: opset 12 takes it as an attribute, so it must be a constant";
}

inline std::optional<std::vector<std::int64_t>> constant_ints(ir::graph& g, const node& n,
                                                              std::size_t i) {
  if (!n.has_input(i)) return std::nullopt;
  const auto* data = g.constant_data(n.input(i));
  if (!data)
    throw error("retarget: " + n.describe() + ": input " + std::to_string(i) +
                " is computed at run time: opset 12 takes it as an attribute");
  std::vector<std::int64_t> out;
  for (const double v : ir::values_as_double(ir::tensor(*data)))
    out.push_back(static_cast<std::int64_t>(v));
  return out;
}

// Squeeze and Unsqueeze from 13 to 12: the axes input becomes the attribute.
template <fixed_string Op>
struct axes_input_to_attribute {
  static std::optional<std::string> refuses(const node_of<Op>&, const input_facts& in) {
    return constant_or_absent(1, in, "axes");
  }
  static ir::value call(ir::graph& g, const node_of<Op>& n) {
    const auto axes = constant_ints(g, n, 1);
    if (!axes) return emit_named<Op>(g, n.input(0));
    return emit_named<Op>(g, n.input(0), "axes"_i = *axes);
  }
};

inline ir::value emit_resize(auto& g, const node& n, std::vector<ir::value> inputs,
                             std::vector<onnx::AttributeProto> attributes) {
  ir::node_spec spec;
  spec.op_type = "Resize";
  spec.inputs = std::move(inputs);
  spec.attributes = std::move(attributes);
  spec.outputs = {n.output_name(0)};
  spec.name = n.name();
  return g.emit(std::move(spec)).front();
}

inline onnx::AttributeProto string_attribute(const std::string& name, const std::string& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::STRING);
  a.set_s(v);
  return a;
}

}  // namespace detail

// LayerNormalization (17) below 17: its decomposition, over the axes from `axis` to the last,
// in float (stash_type 1) or in the input's type (stash_type 0).
template <>
struct opset_adapter<"LayerNormalization", 17, 16> {
  static constexpr bool keeps_op = false;
  using N = node_of<"LayerNormalization">;
  static std::optional<std::string> refuses(const N& n, const input_facts& in) {
    const auto axis = n["axis"_i].value_or(-1);
    if (axis < 0 || in.rank(0)) return std::nullopt;
    return "axis " + std::to_string(axis) +
           " of an input of unknown rank: the axes it normalizes over are not known";
  }
  static std::vector<ir::value> call(auto& g, const N& n) {
    const auto& x = n.input(0);
    auto axis = n["axis"_i].value_or(-1);
    const float epsilon = n["epsilon"_f].value_or(1e-5f);
    const bool stash = n["stash_type"_i].value_or(1) == 1;
    if (axis >= 0) {
      if (!x.has_shape())
        throw error("retarget: " + n.describe() + ": " + *refuses(n, input_facts{}));
      axis -= static_cast<std::int64_t>(x.rank());
    }
    std::vector<std::int64_t> axes;
    for (auto a = axis; a < 0; ++a) axes.push_back(a);
    const auto type = x.dtype();
    const bool cast = stash && type != ir::dtype::f32;
    const auto xs = cast ? g.op("Cast", x, "to"_i = static_cast<std::int64_t>(ir::dtype::f32)) : x;
    const auto compute = cast ? ir::dtype::f32 : type;
    const auto eps = compute == ir::dtype::f64
                         ? g.constant(ir::tensor::of<double>({double(epsilon)}, {}))
                         : g.constant(ir::tensor::of<float>({epsilon}, {}));
    const auto eps_typed = compute == ir::dtype::f32 || compute == ir::dtype::f64
                               ? eps
                               : g.op("Cast", eps, "to"_i = static_cast<std::int64_t>(compute));
    const auto mean = g.op("ReduceMean", xs, "axes"_i = axes, "keepdims"_i = 1);
    const auto d = g.op("Sub", xs, mean);
    const auto var = g.op("ReduceMean", g.op("Mul", d, d), "axes"_i = axes, "keepdims"_i = 1);
    const auto std_dev = g.op("Sqrt", g.op("Add", var, eps_typed));
    auto normalized = g.op("Div", d, std_dev);
    if (cast) normalized = g.op("Cast", normalized, "to"_i = static_cast<std::int64_t>(type));
    auto y = g.op("Mul", normalized, n.input(1));
    if (n.has_input(2)) y = g.op("Add", y, n.input(2));
    std::vector<ir::value> out{y};
    if (n.output_count() > 1 && !n.output_name(1).empty()) out.push_back(mean);
    if (n.output_count() > 2 && !n.output_name(2).empty()) {
      if (out.size() == 1) out.push_back(ir::value());
      out.push_back(g.op("Reciprocal", std_dev));
    }
    return out;
  }
};

template <>
struct opset_adapter<"Softmax", 13, 12> : detail::softmax_13_12<"Softmax"> {};
template <>
struct opset_adapter<"LogSoftmax", 13, 12> : detail::softmax_13_12<"LogSoftmax"> {};

template <>
struct opset_adapter<"Squeeze", 13, 12> : detail::axes_input_to_attribute<"Squeeze"> {};
template <>
struct opset_adapter<"Unsqueeze", 13, 12> : detail::axes_input_to_attribute<"Unsqueeze"> {
  static std::optional<std::string> refuses(const node_of<"Unsqueeze">&, const input_facts& in) {
    if (!in.present(1)) return "axes (input 1) is missing";
    return detail::constant_or_absent(1, in, "axes");
  }
};

// Split from 13 to 12: the split input becomes the attribute (ONNX 1.12's adapter fails on
// an initializer).
template <>
struct opset_adapter<"Split", 13, 12> {
  using N = node_of<"Split">;
  static std::optional<std::string> refuses(const N&, const input_facts& in) {
    return detail::constant_or_absent(1, in, "split");
  }
  static std::vector<ir::value> call(auto& g, const N& n) {
    ir::node_spec spec;
    spec.op_type = "Split";
    spec.inputs = {n.input(0)};
    spec.attributes = n.attributes();
    if (const auto split = detail::constant_ints(g, n, 1)) {
      onnx::AttributeProto a;
      a.set_name("split");
      a.set_type(onnx::AttributeProto::INTS);
      for (const auto s : *split) a.add_ints(s);
      spec.attributes.push_back(std::move(a));
    }
    for (std::size_t i = 0; i < n.output_count(); ++i) spec.outputs.push_back(n.output_name(i));
    spec.name = n.name();
    return g.emit(std::move(spec));
  }
};

// Resize from 13 to 12: the roi and scales inputs, optional at 13, are required at 11.
template <>
struct opset_adapter<"Resize", 13, 12> {
  static ir::value call(auto& g, const node_of<"Resize">& n) {
    std::vector<ir::value> inputs{n.input(0)};
    inputs.push_back(n.has_input(1) ? n.input(1) : g.constant(ir::empty_f32));
    inputs.push_back(n.has_input(2) ? n.input(2) : g.constant(ir::empty_f32));
    if (n.has_input(3)) inputs.push_back(n.input(3));
    return detail::emit_resize(g, n, std::move(inputs), n.attributes());
  }
};

// Resize from 12 to 13: the same node, but for a coordinate_transformation_mode 13 dropped
// (ONNX 1.12 takes it over as it is).
template <>
struct opset_adapter<"Resize", 12, 13> {
  using N = node_of<"Resize">;
  static std::optional<std::string> refuses(const N& n, const input_facts&) {
    const auto mode = n["coordinate_transformation_mode"_s];
    if (mode && *mode == "tf_half_pixel_for_nn")
      return "coordinate_transformation_mode 'tf_half_pixel_for_nn' is not in opset 13";
    return std::nullopt;
  }
  static ir::value call(auto& g, const N& n) {
    std::vector<ir::value> inputs = n.inputs();
    // An empty scales beside sizes: 13 wants only one of them.
    if (inputs.size() > 3 && inputs[2].valid())
      if (const auto* s = g.constant_data(inputs[2]); s && s->dims_size() == 1 && s->dims(0) == 0)
        inputs[2] = ir::value();
    return detail::emit_resize(g, n, std::move(inputs), n.attributes());
  }
};

// Resize from 10 to 11: opset 10's sampling is 11's "asymmetric" with nearest_mode "floor"
// (ONNX 1.12's adapter keeps 11's defaults, half_pixel and round_prefer_floor).
template <>
struct opset_adapter<"Resize", 10, 11> {
  static ir::value call(auto& g, const node_of<"Resize">& n) {
    auto attributes = n.attributes();
    attributes.push_back(detail::string_attribute("coordinate_transformation_mode", "asymmetric"));
    if (n["mode"_s].value_or("nearest") == "nearest")
      attributes.push_back(detail::string_attribute("nearest_mode", "floor"));
    return detail::emit_resize(g, n, {n.input(0), g.constant(ir::empty_f32), n.input(1)},
                               std::move(attributes));
  }
};

// Resize from 11 to 10: where 10 can say the same, "asymmetric" nearest (floor) or linear, by
// scales, or by sizes of an input of static shape.
template <>
struct opset_adapter<"Resize", 11, 10> {
  using N = node_of<"Resize">;
  static std::optional<std::string> refuses(const N& n, const input_facts& in) {
    const auto mode = n["mode"_s].value_or("nearest");
    if (mode != "nearest" && mode != "linear")
      return "mode '" + mode + "' is not in opset 10 (nearest and linear are)";
    const auto transform = n["coordinate_transformation_mode"_s].value_or("half_pixel");
    if (transform != "asymmetric")
      return "coordinate_transformation_mode '" + transform +
             "' cannot be expressed at opset 10, whose Resize samples as 'asymmetric'";
    const auto nearest = n["nearest_mode"_s].value_or("round_prefer_floor");
    if (mode == "nearest" && nearest != "floor")
      return "nearest_mode '" + nearest +
             "' cannot be expressed at opset 10, whose nearest Resize rounds down ('floor')";
    if (in.present(3) && !(in.constant(3) && in.rank(0)))
      return "sizes (input 3) that are not a constant for an input of known rank";
    return std::nullopt;
  }
  static ir::value call(auto& g, const N& n) {
    const auto& x = n.input(0);
    auto attributes = n.attributes();
    std::erase_if(attributes, [](const onnx::AttributeProto& a) {
      return a.name() != "mode";  // 10 has only the mode; the others were checked above
    });
    if (!n.has_input(3)) return detail::emit_resize(g, n, {x, n.input(2)}, std::move(attributes));
    const auto shape = x.static_shape();
    const auto sizes = detail::constant_ints(g, n, 3);
    if (!shape || !sizes || sizes->size() != shape->size())
      throw error("retarget: " + n.describe() +
                  ": sizes need an input of static shape to become opset 10's scales");
    std::vector<float> scales;
    for (std::size_t i = 0; i < shape->size(); ++i)
      scales.push_back(static_cast<float>((*sizes)[i]) / static_cast<float>((*shape)[i]));
    const auto s = g.constant(ir::tensor::of<float>(std::span<const float>(scales),
                                                    {static_cast<std::int64_t>(scales.size())}));
    return detail::emit_resize(g, n, {x, s}, std::move(attributes));
  }
};

// Reshape from 14 to 13: the same node where allowzero is 0.
template <>
struct opset_adapter<"Reshape", 14, 13> {
  using N = node_of<"Reshape">;
  static std::optional<std::string> refuses(const N& n, const input_facts&) {
    if (n["allowzero"_i].value_or(0) != 0)
      return "allowzero 1 is not in opset 13 (a 0 in the shape copies the input's dimension)";
    return std::nullopt;
  }
  static ir::value call(auto& g, const N& n) { return g.op("Reshape", n.input(0), n.input(1)); }
};

// RoiAlign from 16 to 15: RoiAlign-10 samples as 16's "output_half_pixel" (no half-pixel
// shift of the input coordinates), while 16 defaults to "half_pixel"; only a node in the old
// mode carries over. (15 to 16 is ONNX's adapter, which writes "output_half_pixel".)
template <>
struct opset_adapter<"RoiAlign", 16, 15> {
  using N = node_of<"RoiAlign">;
  static std::optional<std::string> refuses(const N& n, const input_facts&) {
    const auto mode = n["coordinate_transformation_mode"_s];
    if (!mode)
      return "coordinate_transformation_mode defaults to 'half_pixel' at 16, which RoiAlign-10 "
             "cannot express (it samples as 'output_half_pixel')";
    if (*mode != "output_half_pixel")
      return "coordinate_transformation_mode '" + *mode +
             "' cannot be expressed at opset 15, whose RoiAlign-10 samples as 'output_half_pixel'";
    return std::nullopt;
  }
  static std::vector<ir::value> call(auto& g, const N& n) {
    auto attributes = n.attributes();
    std::erase_if(attributes, [](const onnx::AttributeProto& a) {
      return a.name() == "coordinate_transformation_mode";  // 10's only mode, checked above
    });
    ir::node_spec spec;
    spec.op_type = "RoiAlign";
    spec.inputs = n.inputs();
    spec.attributes = std::move(attributes);
    spec.outputs = {n.output_name(0)};
    spec.name = n.name();
    return g.emit(std::move(spec));
  }
};

// The adapters to_opset uses, in its default list.
using opset_adapters =
    boost::mp11::mp_list<opset_adapter<"LayerNormalization", 17, 16>,
                         opset_adapter<"Softmax", 13, 12>, opset_adapter<"LogSoftmax", 13, 12>,
                         opset_adapter<"Squeeze", 13, 12>, opset_adapter<"Unsqueeze", 13, 12>,
                         opset_adapter<"Split", 13, 12>, opset_adapter<"Resize", 13, 12>,
                         opset_adapter<"Resize", 12, 13>, opset_adapter<"Resize", 10, 11>,
                         opset_adapter<"Resize", 11, 10>, opset_adapter<"Reshape", 14, 13>,
                         opset_adapter<"RoiAlign", 16, 15>>;

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
inline std::string to_string(const unadaptable& u) {
  return "node " + std::to_string(u.index) + " " + (u.name.empty() ? "" : "'" + u.name + "' ") +
         "(" + u.op + "), opset " + std::to_string(u.from) + " -> " + std::to_string(u.to) + ": " +
         u.why;
}

namespace detail {

// ONNX's converter, asked whether it has an adapter (its table is protected).
class onnx_converter : public onnx::version_conversion::DefaultVersionConverter {
 public:
  bool has(const std::string& op, int from, int to) const {
    const auto by_op = adapters.find(op);
    if (by_op == adapters.end()) return false;
    const auto by_from = by_op->second.find(onnx::OpSetID(from).toString());
    if (by_from == by_op->second.end()) return false;
    const auto a = by_from->second.find(onnx::OpSetID(to).toString());
    // Its "no previous version" adapter is one that fails.
    return a != by_from->second.end() &&
           !dynamic_cast<const onnx::version_conversion::NoPreviousVersionAdapter*>(
               a->second.get());
  }
  static const onnx_converter& instance() {
    static const onnx_converter c;
    return c;
  }
};

// One adapter of the list, as the converter calls it. The shipped adapters take the graph as
// `auto& g`: their bodies (checked g.op calls) are compiled only where a conversion is, not in
// every unit that includes this header.
struct adapter_entry {
  std::string_view op;
  int from, to;
  bool keeps_op;
  std::optional<std::string> (*refuses)(const node&, const input_facts&);
  std::vector<ir::value> (*call)(ir::graph&, const node&);
};

template <class A>
struct adapter_traits;
template <fixed_string Op, int From, int To>
struct adapter_traits<opset_adapter<Op, From, To>> {
  using A = opset_adapter<Op, From, To>;
  static_assert(
      !requires { typename A::retarget_undeclared; },
      "retarget: an opset_adapter listed for to_opset is not declared (specialize "
      "opset_adapter<Op, From, To> with a static call(ir::graph&, const node_of<Op>&))");
  static constexpr adapter_entry entry() {
    return {std::string_view(Op),
            From,
            To,
            [] {
              if constexpr (requires { A::keeps_op; })
                return A::keeps_op;
              else
                return true;
            }(),
            [](const node& n, const input_facts& in) -> std::optional<std::string> {
              if constexpr (requires { A::refuses(node_of<Op>(n), in); })
                return A::refuses(node_of<Op>(n), in);
              else
                return std::nullopt;
            },
            [](ir::graph& g, const node& n) { return as_outputs(A::call(g, node_of<Op>(n))); }};
  }
};

template <class List>
struct adapter_table;
template <class... As>
struct adapter_table<boost::mp11::mp_list<As...>> {
  static constexpr std::array<adapter_entry, sizeof...(As)> entries{adapter_traits<As>::entry()...};
};

template <class List>
const adapter_entry* find_adapter(std::string_view op, int from, int to) {
  for (const auto& e : adapter_table<List>::entries)
    if (e.op == op && e.from == from && e.to == to) return &e;
  return nullptr;
}

// The schema of op in effect at an opset, or nullptr.
inline const onnx::OpSchema* schema_at(const std::string& op, int opset) {
  return onnx::OpSchemaRegistry::Schema(op, opset, "");
}

// Whether a step from → to of op needs an adapter (ONNX's rule).
inline bool step_needs_adapter(const std::string& op, int from, int to) {
  const auto* s = schema_at(op, to < from ? from : to);
  return s && s->SinceVersion() == (to < from ? from : to);
}

inline std::string attribute_default(const onnx::OpSchema::Attribute& a) {
  return a.default_value.SerializeAsString();
}

// A default as the changes below show it.
inline std::string describe_default(const onnx::OpSchema::Attribute& a) {
  const auto& d = a.default_value;
  if (!d.has_type()) return "none";
  auto list = [](const auto& values) {
    std::string out = "[";
    for (const auto& v : values) out += (out.size() > 1 ? ", " : "") + std::to_string(v);
    return out + "]";
  };
  switch (d.type()) {
    case onnx::AttributeProto::INT:
      return std::to_string(d.i());
    case onnx::AttributeProto::FLOAT:
      return std::to_string(d.f());
    case onnx::AttributeProto::STRING:
      return "'" + d.s() + "'";
    case onnx::AttributeProto::INTS:
      return list(d.ints());
    case onnx::AttributeProto::FLOATS:
      return list(d.floats());
    default:
      return "a value";
  }
}

// How schema `newer` differs from `older` of the same op beyond the types they allow: each
// attribute, input and output added, removed or changed (kind, requiredness, default; name,
// optionality). Empty when only types (or docs) changed.
inline std::vector<std::string> schema_changes(const onnx::OpSchema& older,
                                               const onnx::OpSchema& newer) {
  std::vector<std::string> out;
  auto option = [](onnx::OpSchema::FormalParameterOption o) -> std::string {
    return o == onnx::OpSchema::Single     ? "single"
           : o == onnx::OpSchema::Optional ? "optional"
                                           : "variadic";
  };
  auto parameters = [&](const char* what, const std::vector<onnx::OpSchema::FormalParameter>& a,
                        const std::vector<onnx::OpSchema::FormalParameter>& b) {
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      const auto at = std::string(what) + " " + std::to_string(i);
      if (i >= a.size())
        out.push_back(at + " '" + b[i].GetName() + "' added (" + option(b[i].GetOption()) + ")");
      else if (i >= b.size())
        out.push_back(at + " '" + a[i].GetName() + "' removed");
      else {
        if (a[i].GetName() != b[i].GetName())
          out.push_back(at + " renamed '" + a[i].GetName() + "' -> '" + b[i].GetName() + "'");
        if (a[i].GetOption() != b[i].GetOption())
          out.push_back(at + " '" + b[i].GetName() + "' " + option(a[i].GetOption()) + " -> " +
                        option(b[i].GetOption()));
      }
    }
  };
  parameters("input", older.inputs(), newer.inputs());
  parameters("output", older.outputs(), newer.outputs());
  for (const auto& [name, a] : older.attributes()) {
    const auto it = newer.attributes().find(name);
    if (it == newer.attributes().end()) {
      out.push_back("attribute '" + name + "' removed");
      continue;
    }
    const auto& b = it->second;
    if (b.type != a.type) out.push_back("attribute '" + name + "' changed kind");
    if (b.required != a.required)
      out.push_back("attribute '" + name + "' " + (b.required ? "now required" : "now optional"));
    if (attribute_default(b) != attribute_default(a))
      out.push_back("attribute '" + name + "' default " + describe_default(a) + " -> " +
                    describe_default(b));
  }
  for (const auto& [name, b] : newer.attributes())
    if (!older.attributes().count(name))
      out.push_back("attribute '" + name + "' added (" +
                    (b.required ? std::string("required") : "default " + describe_default(b)) +
                    ")");
  return out;
}

// Whether attribute `set` of a node holds the default schema s gives it.
inline bool holds_default(const onnx::AttributeProto& set, const onnx::OpSchema& s) {
  const auto it = s.attributes().find(set.name());
  if (it == s.attributes().end() || !it->second.default_value.has_type()) return false;
  auto a = set;
  auto d = it->second.default_value;
  for (auto* x : {&a, &d}) {
    x->clear_doc_string();
    x->clear_ref_attr_name();
    x->set_name(set.name());
  }
  return a.SerializeAsString() == d.SerializeAsString();
}

// Whether node n of op can take the step as it is: its schemas at `from` and `to` differ only
// in the types they allow (which the emitter checks at the new opset), or the step is listed in
// same_meaning_steps; and n sets no attribute `to` lacks, but for one it sets to its default at
// `from` (dropped when the node is re-emitted). `why` says what stops it.
inline bool same_node_fits(const onnx::NodeProto& n, int from, int to, std::string* why) {
  const auto* a = schema_at(n.op_type(), from);
  const auto* b = schema_at(n.op_type(), to);
  if (!a || !b || a->Deprecated() || b->Deprecated()) return false;
  const bool up = to > from;
  const auto changes = schema_changes(up ? *a : *b, up ? *b : *a);
  if (!changes.empty() && !find_same_meaning(n.op_type(), from, to)) {
    if (why) {
      const auto& newer = up ? *b : *a;
      const auto& older = up ? *a : *b;
      *why = n.op_type() + "-" + std::to_string(newer.SinceVersion()) + " differs from " +
             n.op_type() + "-" + std::to_string(older.SinceVersion()) + " in more than types (";
      for (std::size_t i = 0; i < changes.size(); ++i) *why += (i ? "; " : "") + changes[i];
      *why +=
          "), and no adapter (retarget's or ONNX's) or same-meaning entry says the node keeps "
          "its meaning from opset " +
          std::to_string(from) + " to " + std::to_string(to);
    }
    return false;
  }
  for (const auto& set : n.attribute())
    if (!b->attributes().count(set.name()) && !holds_default(set, *a)) {
      if (why)
        *why = "attribute '" + set.name() + "' is not in " + n.op_type() + "-" +
               std::to_string(b->SinceVersion()) + " (opset " + std::to_string(to) + ")";
      return false;
    }
  return true;
}

// What the plan and the conversion know of the model at one opset: value types by name, and
// the constants.
struct model_facts {
  std::unordered_map<std::string, onnx::TypeProto> types;
  std::unordered_map<std::string, const onnx::TensorProto*> constants;
  onnx::ModelProto inferred;

  explicit model_facts(const onnx::ModelProto& m) : inferred(m) {
    const ir::detail::schema_registry_reader reading;
    try {
      onnx::shape_inference::InferShapes(inferred, onnx::OpSchemaRegistry::Instance(),
                                         onnx::ShapeInferenceOptions(false, 0, false));
    } catch (const std::exception&) {
      inferred = m;  // what inference could not do, the types the model declares
    }
    const auto& g = inferred.graph();
    for (const auto& v : g.input()) types[v.name()] = v.type();
    for (const auto& v : g.value_info()) types[v.name()] = v.type();
    for (const auto& v : g.output()) types[v.name()] = v.type();
    for (const auto& t : g.initializer()) {
      constants[t.name()] = &t;
      onnx::TypeProto type;
      type.mutable_tensor_type()->set_elem_type(t.data_type());
      auto* shape = type.mutable_tensor_type()->mutable_shape();
      for (const auto d : t.dims()) shape->add_dim()->set_dim_value(d);
      types[t.name()] = type;
    }
    for (const auto& n : g.node())
      if (n.op_type() == "Constant" && is_default_domain(n.domain()) && n.output_size() == 1)
        for (const auto& a : n.attribute())
          if (a.name() == "value" && a.has_t()) constants[n.output(0)] = &a.t();
  }
  const onnx::TypeProto* type(const std::string& name) const {
    const auto it = types.find(name);
    return it == types.end() || !it->second.has_tensor_type() ||
                   it->second.tensor_type().elem_type() == 0
               ? nullptr
               : &it->second;
  }
  input_facts facts_of(const onnx::NodeProto& n) const {
    std::vector<bool> present;
    std::vector<std::optional<std::size_t>> ranks;
    std::vector<bool> constant;
    for (const auto& i : n.input()) {
      present.push_back(!i.empty());
      const auto* t = i.empty() ? nullptr : type(i);
      ranks.push_back(t && t->tensor_type().has_shape()
                          ? std::optional<std::size_t>(t->tensor_type().shape().dim_size())
                          : std::nullopt);
      constant.push_back(!i.empty() && constants.count(i) > 0);
    }
    return {std::move(present), std::move(ranks), std::move(constant)};
  }
};

// A node as an adapter's refusal check sees it: no graph values yet.
inline node plan_node(const onnx::NodeProto& n) {
  return node(n, {}, std::vector<onnx::AttributeProto>(n.attribute().begin(), n.attribute().end()));
}

// How node n takes the step from → to; `why` is set when it cannot.
template <class List>
step_by how_to_step(const onnx::NodeProto& n, int from, int to, const input_facts& facts,
                    std::string* why) {
  if (!is_default_domain(n.domain())) return step_by::other_domain;
  if (!schema_at(n.op_type(), from)) {
    if (why) *why = n.op_type() + " is not in opset " + std::to_string(from);
    return step_by::missing;
  }
  if (!step_needs_adapter(n.op_type(), from, to)) return step_by::unchanged;
  if (const auto* a = find_adapter<List>(n.op_type(), from, to)) {
    if (auto refused = a->refuses(plan_node(n), facts)) {
      if (why) *why = *refused;
      return step_by::missing;
    }
    return step_by::retarget;
  }
  if (onnx_converter::instance().has(n.op_type(), from, to)) return step_by::onnx;
  std::string attribute_why;
  if (same_node_fits(n, from, to, &attribute_why)) return step_by::same_node;
  if (why && !attribute_why.empty()) {
    *why = attribute_why;
  } else if (why) {
    const auto* s = schema_at(n.op_type(), to < from ? from : to);
    if (to < from && !schema_at(n.op_type(), to))
      *why = n.op_type() + " is not in opset " + std::to_string(to) +
             " (it first appears in opset " + std::to_string(from) + ")";
    else
      *why =
          "no adapter in ONNX's converter or retarget's for " + n.op_type() + " from " +
          std::to_string(from) + " to " + std::to_string(to) +
          (s ? " (" + n.op_type() + "-" + std::to_string(s->SinceVersion()) + " changed it)" : "");
  }
  return step_by::missing;
}

}  // namespace detail

// Every node of the main graph that no adapter takes through some step to `opset`, all at once,
// with the count of each kind of step. A node that a retarget adapter turns into other ops
// (keeps_op = false) is followed no further: those ops are checked as they are emitted.
template <class List = opset_adapters>
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
  const detail::model_facts facts(source.proto());
  const auto& g = source.proto().graph();
  const int dir = opset < *from ? -1 : 1;
  for (int i = 0; i < g.node_size(); ++i) {
    const auto& n = g.node(i);
    const auto in = facts.facts_of(n);
    for (int v = *from; v != opset; v += dir) {
      std::string why;
      const auto how = detail::how_to_step<List>(n, v, v + dir, in, &why);
      if (how == step_by::missing) {
        plan.missing.push_back({i, n.name(), n.op_type(), v, v + dir, why});
        break;
      }
      plan.by_retarget += how == step_by::retarget;
      plan.by_onnx += how == step_by::onnx;
      plan.by_same_node += how == step_by::same_node;
      if (how == step_by::retarget &&
          !detail::find_adapter<List>(n.op_type(), v, v + dir)->keeps_op)
        break;
      if (how == step_by::other_domain) break;
    }
  }
  return plan;
}

// The plan's refusals as one error: every node, one a line.
inline std::string to_string(const opset_plan& p) {
  std::string out = "cannot convert from opset " + std::to_string(p.from) + " to " +
                    std::to_string(p.to) + ": " + std::to_string(p.missing.size()) +
                    (p.missing.size() == 1 ? " node has" : " nodes have") + " no adapter";
  for (const auto& u : p.missing) out += "\n  " + to_string(u);
  return out;
}

namespace detail {

inline std::string place(const onnx::NodeProto& n, int index, int from, int to) {
  return node_place(n, index) + ", opset " + std::to_string(from) + " -> " + std::to_string(to);
}

// Removes nodes whose outputs nothing reads and that are no graph output.
inline void remove_dead_nodes(onnx::GraphProto& g) {
  for (bool changed = true; changed;) {
    changed = false;
    std::unordered_set<std::string> read;
    for (const auto& o : g.output()) read.insert(o.name());
    for (const auto& n : g.node())
      for (const auto& r : reads_of(n)) read.insert(r);
    google::protobuf::RepeatedPtrField<onnx::NodeProto> kept;
    for (auto& n : *g.mutable_node()) {
      const bool live = std::any_of(n.output().begin(), n.output().end(),
                                    [&](const std::string& o) { return read.count(o) > 0; });
      if (live)
        kept.Add()->Swap(&n);
      else
        changed = true;
    }
    g.mutable_node()->Swap(&kept);
  }
}

inline void set_default_opset(onnx::ModelProto& m, int opset) {
  bool found = false;
  for (auto& o : *m.mutable_opset_import())
    if (is_default_domain(o.domain())) {
      o.set_version(opset);
      found = true;
    }
  if (!found) {
    auto* o = m.add_opset_import();
    o->set_domain("");
    o->set_version(opset);
  }
}

// ONNX's converter, one step; its assertion becomes a retarget::error.
// The opset imports of other domains are set aside while it runs (ONNX 1.12's converter fails
// on them) and put back.
inline onnx::ModelProto onnx_step(const onnx::ModelProto& m, int from, int to) {
  const ir::detail::schema_registry_reader reading;
  onnx::ModelProto in = m;
  google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto> others, standard;
  for (const auto& o : m.opset_import())
    *(is_default_domain(o.domain()) ? standard : others).Add() = o;
  in.mutable_opset_import()->Swap(&standard);
  try {
    auto out =
        onnx_converter::instance().convert_version(in, onnx::OpSetID(from), onnx::OpSetID(to));
    for (const auto& o : others) *out.add_opset_import() = o;
    return out;
  } catch (const std::exception& e) {
    throw error("retarget: ONNX's version converter, opset " + std::to_string(from) + " -> " +
                std::to_string(to) + ": " + e.what());
  }
}

// One step: the nodes retarget adapts are cut out (their outputs become typed graph inputs,
// what they read becomes graph outputs), ONNX converts the rest, and the adapters' nodes,
// emitted through the checked emitter at the new opset, are put back.
template <class List>
onnx::ModelProto one_step(const onnx::ModelProto& m, int from, int to) {
  const model_facts facts(m);
  const auto& g = m.graph();
  std::vector<int> cut;
  std::vector<step_by> how(static_cast<std::size_t>(g.node_size()));
  for (int i = 0; i < g.node_size(); ++i) {
    std::string why;
    const auto& n = g.node(i);
    how[static_cast<std::size_t>(i)] = how_to_step<List>(n, from, to, facts.facts_of(n), &why);
    switch (how[static_cast<std::size_t>(i)]) {
      case step_by::missing:
        throw error("retarget: " + place(n, i, from, to) + ": " + why);
      case step_by::retarget:
      case step_by::same_node:
      case step_by::other_domain:
        cut.push_back(i);
        break;
      default:
        break;
    }
  }
  if (cut.empty()) {
    auto out = onnx_step(m, from, to);
    set_default_opset(out, to);
    return out;
  }

  // What ONNX converts: the model without the cut nodes.
  onnx::ModelProto rest = m;
  auto& rg = *rest.mutable_graph();
  rg.clear_node();
  std::set<int> cut_set(cut.begin(), cut.end());
  std::unordered_set<std::string> produced_by_rest, read_by_rest, graph_inputs, graph_outputs;
  for (const auto& v : g.input()) graph_inputs.insert(v.name());
  for (const auto& t : g.initializer()) graph_inputs.insert(t.name());
  for (const auto& v : g.output()) graph_outputs.insert(v.name());
  for (int i = 0; i < g.node_size(); ++i) {
    if (cut_set.count(i)) continue;
    *rg.add_node() = g.node(i);
    for (const auto& o : g.node(i).output()) produced_by_rest.insert(o);
    for (const auto& r : reads_of(g.node(i))) read_by_rest.insert(r);
  }
  std::vector<std::string> temporary_inputs, temporary_outputs;
  auto typed = [&](const std::string& name, int i) -> const onnx::TypeProto& {
    const auto* t = facts.type(name);
    if (!t)
      throw error("retarget: " + place(g.node(i), i, from, to) + ": the type of '" + name +
                  "' is unknown (shape inference cannot tell it), and converting around the "
                  "node needs it");
    return *t;
  };
  for (const int i : cut) {
    for (const auto& o : g.node(i).output())
      if (!o.empty() && (read_by_rest.count(o) || graph_outputs.count(o))) {
        auto* v = rg.add_input();
        v->set_name(o);
        *v->mutable_type() = typed(o, i);
        temporary_inputs.push_back(o);
      }
    for (const auto& r : reads_of(g.node(i)))
      if (produced_by_rest.count(r) && !graph_outputs.count(r) &&
          std::find(temporary_outputs.begin(), temporary_outputs.end(), r) ==
              temporary_outputs.end()) {
        auto* v = rg.add_output();
        v->set_name(r);
        *v->mutable_type() = typed(r, i);
        temporary_outputs.push_back(r);
      }
  }
  // A graph output that a cut node gives is now a graph input too: drop it from the outputs
  // while ONNX converts (and restore the original outputs after).
  {
    google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> kept;
    for (const auto& v : rg.output())
      if (std::find(temporary_inputs.begin(), temporary_inputs.end(), v.name()) ==
          temporary_inputs.end())
        *kept.Add() = v;
    rg.mutable_output()->Swap(&kept);
  }
  auto converted = onnx_step(rest, from, to);

  // The cut nodes, emitted at the new opset.
  ir::graph scratch(to);
  for (const auto& o : m.opset_import())
    if (!is_default_domain(o.domain()))
      scratch.set_domain_version(o.domain(), static_cast<int>(o.version()));
  {
    std::vector<std::string> names;
    const auto& cg = converted.graph();
    for (const auto& v : cg.input()) names.push_back(v.name());
    for (const auto& t : cg.initializer()) names.push_back(t.name());
    for (const auto& n : cg.node())
      for (const auto& o : n.output()) names.push_back(o);
    for (const auto& n : g.node())
      for (const auto& o : n.output()) names.push_back(o);
    scratch.reserve_names(names);
  }
  std::vector<onnx::NodeProto> kept_as_they_are;
  for (const int i : cut) {
    const auto& n = g.node(i);
    if (how[static_cast<std::size_t>(i)] == step_by::other_domain) {
      kept_as_they_are.push_back(n);
      continue;
    }
    std::vector<ir::value> inputs;
    for (const auto& name : n.input()) {
      if (name.empty()) {
        inputs.emplace_back();
        continue;
      }
      if (scratch.has_name(name)) {
        inputs.push_back(scratch.find(name));
        continue;
      }
      if (const auto c = facts.constants.find(name); c != facts.constants.end())
        inputs.push_back(scratch.initializer(name, ir::tensor(*c->second)));
      else
        inputs.push_back(scratch.input(name, typed(name, i)));
    }
    std::vector<onnx::AttributeProto> attributes(n.attribute().begin(), n.attribute().end());
    if (how[static_cast<std::size_t>(i)] == step_by::same_node)
      if (const auto* s = schema_at(n.op_type(), to))  // the ones `to` lacks hold their default
        std::erase_if(attributes, [&](const onnx::AttributeProto& a) {
          return !s->attributes().count(a.name());
        });
    const node wrapped(n, std::move(inputs), std::move(attributes));
    std::vector<ir::value> outputs;
    try {
      const auto kind = how[static_cast<std::size_t>(i)];
      if (kind == step_by::retarget)
        outputs = find_adapter<List>(n.op_type(), from, to)->call(scratch, wrapped);
      else
        outputs = wrapped.emit_unchanged(scratch);
    } catch (const error& e) {
      std::string_view what = e.what();
      if (what.starts_with("retarget: ")) what.remove_prefix(10);
      throw error("retarget: " + place(n, i, from, to) + ": " + std::string(what));
    }
    for (std::size_t k = 0; k < outputs.size() && k < static_cast<std::size_t>(n.output_size());
         ++k) {
      const auto& name = n.output(static_cast<int>(k));
      if (name.empty() || !outputs[k].valid() || outputs[k].name() == name) continue;
      scratch.output(outputs[k], name);  // renames the value, or copies it by an Identity
    }
  }

  // Put back: the cut nodes' nodes, without the temporary inputs and outputs.
  auto& cg = *converted.mutable_graph();
  {
    google::protobuf::RepeatedPtrField<onnx::ValueInfoProto> inputs;
    for (const auto& v : cg.input())
      if (std::find(temporary_inputs.begin(), temporary_inputs.end(), v.name()) ==
          temporary_inputs.end())
        *inputs.Add() = v;
    cg.mutable_input()->Swap(&inputs);
  }
  *cg.mutable_output() = g.output();
  for (const auto& n : scratch.proto().node()) *cg.add_node() = n;
  for (auto& n : kept_as_they_are) *cg.add_node() = std::move(n);
  const auto order = topological_order(cg, [](const std::string&) { return false; });
  google::protobuf::RepeatedPtrField<onnx::NodeProto> sorted;
  for (const int i : order) *sorted.Add() = cg.node(i);
  cg.mutable_node()->Swap(&sorted);
  cg.clear_value_info();
  remove_dead_nodes(cg);
  set_default_opset(converted, to);
  return converted;
}

}  // namespace detail

struct opset_options {
  bool check = true;  // ONNX's checker and strict shape inference on the result
};

// The model at `opset`, one step at a time; a retarget::error listing every node that cannot
// be converted (plan_opset), before anything is done, or naming the node a step failed at.
template <class List = opset_adapters>
ir::model to_opset(const ir::model& source, int opset, const opset_options& o = {}) {
  ir::model copy = source;
  copy.materialize();
  const auto plan = plan_opset<List>(copy, opset);
  if (!plan.ok()) throw error("retarget: " + to_string(plan));
  onnx::ModelProto m = copy.proto();
  const int dir = opset < plan.from ? -1 : 1;
  for (int v = plan.from; v != opset; v += dir) m = detail::one_step<List>(m, v, v + dir);
  if (m.ir_version() < ir::ir_version_for_opset(opset))
    m.set_ir_version(ir::ir_version_for_opset(opset));
  ir::model out(std::move(m));
  if (o.check) out.check();
  return out;
}

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_OPSET_HPP
