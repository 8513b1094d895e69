// The quirks of OpenCV 4.6's DNN module that retarget knows, each declared once: how it is found
// on a model, why OpenCV fails there, and what convert does about it (a rule of rules.hpp, a
// node rewrite of node_rewrites.hpp, folding, an approximation by name, or nothing). The list
// makes opencv_dnn's rule set, the table `retarget check --backend opencv_dnn` prints, the
// approximations it offers, and the table of docs/convert.md (tests/convert/quirk_test.cpp).

// First, outside the guard: the tag's header includes the whole package (convert.hpp), this
// header among it, once the tag is declared.
#include <retarget/backends/opencv_dnn/backend.hpp>

#ifndef RETARGET_BACKENDS_OPENCV_DNN_QUIRKS_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_QUIRKS_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/backends/opencv_dnn/node_rewrites.hpp>
#include <retarget/backends/opencv_dnn/rules.hpp>
#include <retarget/convert/evaluate.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/convert/rule.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/open_dims.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace retarget::backends::opencv_dnn_convert::quirks {

namespace rc = retarget::convert;
using site = rc::quirk_site;

// A node whose last input is listed as absent (''): OpenCV looks for a constant named ''.
struct absent_last_input : rc::quirk<"absent_last_input", rc::by_node_rewrite<"Pad">> {
  static constexpr std::string_view summary =
      "a node whose last input is listed as absent ('') is refused; Pad, as torch writes it, "
      "is one";
  static constexpr std::string_view reason =
      "its last input is absent but listed (''): OpenCV 4.6 looks for a constant named ''";
  static bool found(const site& s) {
    return s.node.input_count() > 0 && s.node.input(s.node.input_count() - 1).empty();
  }
};

struct identity_of_weight : rc::quirk<"identity_of_weight", rc::by_folding> {
  static constexpr std::string_view summary = "Identity over a stored weight is refused";
  static constexpr std::string_view remedy = "convert reads the weight through";
  static bool found(const site& s) {
    return s.op() == "Identity" && s.model.is_initializer(s.input(0));
  }
  static std::string reason(const site& s) {
    return "Identity over the stored weight '" + s.input(0) + "': OpenCV cannot read it";
  }
};

struct no_layer_normalization
    : rc::quirk<"no_layer_normalization", rc::by_node_rewrite<"LayerNormalization">> {
  static constexpr std::string_view summary = "there is no LayerNormalization layer";
  static constexpr std::string_view reason = "OpenCV 4.6 has no LayerNormalization layer";
  static constexpr std::string_view remedy = "convert decomposes it";
  static bool found(const site& s) { return s.op() == "LayerNormalization"; }
};

// Whether `op` is in `ops`, a quirk's table of op types.
inline bool op_in(std::string_view op, std::span<const std::string_view> ops) {
  return std::find(ops.begin(), ops.end(), op) != ops.end();
}

// Whether convert's folding computes the node: its inputs are constants, and evaluate knows it.
inline bool folds(const rc::refusal_context& m, const ir::node_view& n) {
  for (const auto& in : n.inputs())
    if (!in.empty() && !m.constant(in)) return false;
  return rc::can_evaluate(n.op_type());
}

// tests/data/differential/seed-10822-*: a Celu of a stored [5, 1]. The importer computes a few
// ops over constants itself (shape arithmetic, the ones below); any other becomes a layer with
// no input, which fails to load.
struct layer_over_constants_only : rc::quirk<"layer_over_constants_only", rc::by_folding> {
  static constexpr std::string_view computed_at_import[] = {"Constant", "ConstantOfShape",
                                                            "Reshape",  "Unsqueeze",
                                                            "Squeeze",  "Flatten",
                                                            "Concat",   "Gather",
                                                            "Cast",     "Shape",
                                                            "Expand",   "Transpose",
                                                            "Slice",    "Add",
                                                            "Sub",      "Mul",
                                                            "Div",      "Identity"};
  static constexpr std::string_view summary =
      "a node over stored constants only, of an op the importer does not compute itself while "
      "loading (a Celu of a weight), fails to load";
  static constexpr std::string_view reason =
      "OpenCV 4.6 makes a layer without inputs of a node over constants only";
  static constexpr std::string_view remedy = "convert folds it where it computes the op";
  static bool found(const site& s) {
    if (op_in(s.op(), computed_at_import) || !s.node.in_default_domain()) return false;
    bool any = false;
    for (const auto& in : s.node.inputs()) {
      if (in.empty()) continue;
      if (!s.model.constant(in)) return false;
      any = true;
    }
    return any;
  }
  static bool fixable(const site& s) { return folds(s.model, s.node); }
};

// Op types its ONNX importer has no layer for ("Can't create layer ... of type"), measured by
// tests/data/convert/opencv_op_types.py. (LayerNormalization, Mean and Einsum, which it lacks
// too, are the quirks around this one.)
struct no_layer : rc::quirk<"no_layer", rc::by_folding> {
  // A table, kept as one.
  // clang-format off
  static constexpr std::string_view op_types[] = {
      "And", "Bernoulli", "BitShift", "BlackmanWindow", "CastLike", "Compress",
      "ConcatFromSequence", "ConvInteger", "DFT", "Det", "DynamicQuantizeLinear",
      "EyeLike", "GatherElements", "GatherND", "GlobalLpPool", "GreaterOrEqual", "GridSample",
      "HammingWindow", "HannWindow", "Hardmax", "If", "IsInf", "IsNaN", "LessOrEqual", "Loop",
      "LpNormalization", "LpPool", "MatMulInteger", "MaxRoiPool",
      "MeanVarianceNormalization", "MelWeightMatrix", "Mod", "Multinomial",
      "NegativeLogLikelihoodLoss", "NonMaxSuppression", "NonZero", "OneHot", "Optional",
      "OptionalGetElement", "OptionalHasElement", "Or", "RNN", "RandomNormal", "RandomNormalLike",
      "RandomUniform", "RandomUniformLike", "Range", "ReverseSequence", "RoiAlign", "STFT",
      "Scan", "Scatter", "ScatterElements", "ScatterND", "SequenceAt", "SequenceConstruct",
      "SequenceEmpty", "SequenceErase", "SequenceInsert", "SequenceLength", "SequenceMap", "Size",
      "SoftmaxCrossEntropyLoss", "SplitToSequence", "StringNormalizer", "TfIdfVectorizer", "Tile",
      "TopK", "Trilu", "Unique", "Where", "Xor"};
  // clang-format on
  static constexpr std::string_view summary =
      "72 more op types have no layer (tests/data/convert/opencv_op_types.txt)";
  static constexpr std::string_view remedy = "its inputs are constants: convert folds it";
  static bool found(const site& s) { return op_in(s.op(), op_types); }
  static bool fixable(const site& s) { return folds(s.model, s.node); }
  static std::string reason(const site& s) { return "OpenCV 4.6 has no " + s.op() + " layer"; }
};

// MaxViT's attention (torchvision's writes q k^T and its product with v as Einsum),
// node/test_einsum_batch_matmul, node/test_einsum_transpose.
struct no_einsum : rc::quirk<"no_einsum", rc::by_rule<einsum_as_matmul>> {
  static constexpr std::string_view summary = "there is no Einsum layer";
  static constexpr std::string_view reason = "OpenCV 4.6 has no Einsum layer";
  static constexpr std::string_view remedy =
      "an equation that is a batched matrix product of two computed operands of one rank, 2 to "
      "6, with the same leading dims: convert writes it as MatMul and Transpose";
  static bool found(const site& s) { return s.op() == "Einsum"; }
  static bool fixable(const site& s) {
    const auto equation = s.node.attribute("equation");
    const auto plan = equation ? batched_matmul_of(equation->s()) : std::nullopt;
    if (!plan || s.node.input_count() != 2) return false;
    const auto a = s.model.static_shape(s.input(0)), b = s.model.static_shape(s.input(1));
    if (!a || !b || s.model.constant(s.input(0)) || s.model.constant(s.input(1))) return false;
    if (s.model.element_type(s.input(0)) != static_cast<int>(ir::dtype::f32)) return false;
    return matmul_of_computed_taken(*plan, *a, *b);
  }
};

// node/test_mean_example, node/test_mean_one_input, node/test_mean_two_inputs.
struct no_mean : rc::quirk<"no_mean", rc::by_rule<mean_of_one, mean_of_two, mean_of_three>> {
  static constexpr std::string_view summary = "there is no Mean layer";
  static constexpr std::string_view reason = "OpenCV 4.6 has no Mean layer";
  static constexpr std::string_view remedy =
      "of up to three inputs, convert computes it as their Sum divided by their count";
  static bool found(const site& s) { return s.op() == "Mean"; }
};

struct clip_bounds_as_inputs : rc::quirk<"clip_bounds_as_inputs", rc::by_node_rewrite<"Clip">> {
  static constexpr std::string_view summary =
      "Clip takes its bounds only as attributes, not as inputs (opset 11 and later)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 takes Clip's bounds only as attributes, not as inputs";
  static constexpr std::string_view remedy =
      "they are constants: convert rewrites it with Min and Max";
  static bool found(const site& s) {
    return s.op() == "Clip" && (!s.input(1).empty() || !s.input(2).empty());
  }
  static bool fixable(const site& s) {
    return (s.input(1).empty() || s.model.constant(s.input(1))) &&
           (s.input(2).empty() || s.model.constant(s.input(2)));
  }
};

// The whole factor of a cubic Resize that cubic_resize_as_convolution computes, or nullopt.
inline std::optional<std::int64_t> cubic_factor_of(const site& s) {
  const auto mode = s.node.attribute("mode");
  if (s.op() != "Resize" || !mode || mode->s() != "cubic") return std::nullopt;
  const auto in = s.model.static_shape(s.input(0));
  if (!in || s.model.element_type(s.input(0)) != static_cast<int>(ir::dtype::f32))
    return std::nullopt;
  const auto stored = [&](std::size_t k) {
    return s.input(k).empty() ? ir::tensor_view() : ir::tensor_view(s.model.constant(s.input(k)));
  };
  const auto coordinates = s.node.attribute("coordinate_transformation_mode");
  const auto exclude = s.node.attribute("exclude_outside");
  return cubic_whole_factor(*in, resized_lengths(*in, stored(2), stored(3)),
                            coordinates ? coordinates->s() : "half_pixel",
                            exclude ? exclude->i() : 0, s.model.opset());
}

struct cubic_resize_by_whole_factor
    : rc::quirk<"cubic_resize_by_whole_factor", rc::by_rule<cubic_resize_as_convolution>> {
  static constexpr std::string_view summary =
      "Resize in cubic mode is refused; by a whole factor along H and W it is a fixed filter "
      "per output phase";
  static constexpr std::string_view reason =
      "OpenCV 4.6 resizes in nearest and linear mode only, not cubic";
  static constexpr std::string_view remedy =
      "by a whole factor: convert computes it exactly as an edge Pad, a depthwise Conv and the "
      "phases put in place";
  static bool found(const site& s) { return cubic_factor_of(s).has_value(); }
};

struct cubic_resize : rc::quirk<"cubic_resize", cubic_resize_as_linear> {
  static constexpr std::string_view summary =
      "Resize in cubic mode is refused (other than by a whole factor)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 resizes in nearest and linear mode only, not cubic";
  static constexpr std::string_view remedy =
      "convert --approximate cubic_resize_as_linear makes it linear";
  static bool found(const site& s) {
    if (s.op() != "Resize" || cubic_factor_of(s)) return false;
    const auto mode = s.node.attribute("mode");
    return mode && mode->s() == "cubic";
  }
};

struct expand_to_lower_rank : rc::quirk<"expand_to_lower_rank", rc::by_rule<expand_to_own_shape>> {
  static constexpr std::string_view summary =
      "Expand to a target shape of a lower rank than its input's fails to load, even where the "
      "output is the input itself ([2, 3] to [3]); a 1 where the input is wider, at its rank, "
      "is taken (torch's expand(n, -1, -1) once the -1s are folded to 1s)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 expands to a target shape of the input's rank only";
  static constexpr std::string_view remedy = "convert drops an Expand to the input's own shape";
  static bool found(const site& s) {
    if (s.op() != "Expand") return false;
    const auto in = s.model.static_shape(s.input(0));
    const auto* target = s.model.constant(s.input(1));
    if (!in || !target) return false;
    const auto dims = ir::values_as_double(ir::tensor_view(target));
    // A target that grows an axis too is expand_other_axes's.
    const auto out = expansion::output(*in, dims);
    return dims.size() < in->size() && out && *out == *in;
  }
};

struct expand_other_axes : rc::quirk<"expand_other_axes", rc::by_rule<expand_in_steps>> {
  static constexpr std::string_view summary =
      "Expand of a computed tensor grows one axis, axis 0 or 1, only: other axes or two at once "
      "fail to load or run, or run wrong ([N, C, 1] to [N, C, K] at a batch of 2); a target "
      "shape of another rank fails to load, or leaves the rank unknown to the next layer";
  static constexpr std::string_view reason =
      "OpenCV 4.6 expands a computed tensor along axis 0 or 1 alone";
  static constexpr std::string_view remedy =
      "convert expands one run of axes at a time, as axis 1 of [before, 1, after]";
  static bool found(const site& s) {
    if (s.op() != "Expand" || s.model.constant(s.input(0))) return false;
    const auto in = s.model.static_shape(s.input(0));
    const auto* written = s.model.constant(s.input(1));
    if (!in || !written) return false;
    const auto target = ir::values_as_double(ir::tensor_view(written));
    const auto out = expansion::output(*in, target);
    return out && *out != *in && !expansion::accepted(*in, target, *out);
  }
};

struct expand_shape_computed : rc::quirk<"expand_shape_computed"> {
  static constexpr std::string_view summary = "Expand's shape must be a constant";
  static constexpr std::string_view reason = "OpenCV 4.6 needs Expand's shape as a constant";
  static bool found(const site& s) { return s.op() == "Expand" && !s.model.constant(s.input(1)); }
};

// The nodes of the softmaxes OpenCV 4.6's importer fuses into one Softmax or LogSoftmax layer
// before it makes any other (node/test_softmax_*_expanded and node/test_logsoftmax_*_expanded,
// which it runs right as written): no layer is made of them, so what OpenCV does with such a
// node alone does not apply. The forms, each inner value read by the form alone:
//   e / ReduceSum(e) of e = Exp(t), ReduceSum's one axis an attribute (before opset 13);
//   e / ReduceSum(e, axes) of e = Exp(d), and d - Log(ReduceSum(Exp(d), axes)), of
//   d = x - ReduceMax(x), ReduceMax's one axis an attribute and ReduceSum's the same.
// OpenCV takes the axis from ReduceMax alone, so a ReduceSum over another is no such form.
struct fused_softmax_nodes {
  using facts = std::vector<bool>;  // by node index
  static facts prepare(const rc::refusal_context& m) {
    facts fused(static_cast<std::size_t>(m.node_count()), false);
    for (int i = 0; i < m.node_count(); ++i)
      for (const int k : members(m, i)) fused[static_cast<std::size_t>(k)] = true;
    return fused;
  }
  // The nodes of the form whose last node is `root`, or none.
  static std::vector<int> members(const rc::refusal_context& m, int root) {
    const ir::node_view last = m.at(root);
    const bool log = last.op_type() == "Sub";
    if ((!log && last.op_type() != "Div") || last.input_count() != 2) return {};
    // The node that makes input k of node i, when it is `op`.
    const auto made = [&](int i, std::size_t k, std::string_view op) {
      const ir::node_view n = m.at(i);
      if (k >= n.input_count() || n.input(k).empty()) return -1;
      const int p = m.producer(n.input(k));
      return p >= 0 && m.at(p).op_type() == op && m.at(p).output_count() == 1 ? p : -1;
    };
    int sum = -1, lg = -1;
    if (log) {
      lg = made(root, 1, "Log");
      if (lg < 0 || (sum = made(lg, 0, "ReduceSum")) < 0) return {};
    } else if ((sum = made(root, 1, "ReduceSum")) < 0) {
      return {};
    }
    const int exp = made(sum, 0, "Exp");
    if (exp < 0) return {};
    const int sub = made(exp, 0, "Sub");
    const int max = sub < 0 ? -1 : made(sub, 1, "ReduceMax");
    const bool two_inputs = m.at(sum).input_count() == 2 && !m.at(sum).input(1).empty();
    // Which value the form divides or subtracts from: e, or d for the LogSoftmax.
    const auto output = [&](int i) { return m.at(i).output(0); };
    if ((log && max < 0) || last.input(0) != output(log ? sub : exp)) return {};
    std::vector<int> nodes;
    if (max >= 0 && two_inputs && m.at(sub).input(0) == m.at(max).input(0)) {
      const auto axis = one_axis(m, max, /*attribute_only=*/true);
      if (!axis || axis != one_axis(m, sum, false)) return {};
      nodes = {max, sub, exp, sum};
    } else if (!log && !two_inputs && one_axis(m, sum, true)) {
      nodes = {exp, sum};
    } else {
      return {};
    }
    if (lg >= 0) nodes.push_back(lg);
    nodes.push_back(root);
    // Each inner value read by the form's nodes alone, and no graph output.
    for (std::size_t k = 0; k + 1 < nodes.size(); ++k) {
      const auto& v = output(nodes[k]);
      if (m.is_graph_output(v)) return {};
      for (const int reader : m.consumers(v))
        if (std::find(nodes.begin(), nodes.end(), reader) == nodes.end()) return {};
    }
    return nodes;
  }
  // A reduction's one axis, counted from the front, when it keeps the reduced dims: from its
  // attribute, or its constant input unless `attribute_only` (OpenCV reads the axis it fuses
  // along from the attribute, and fails to load the model without one).
  static std::optional<std::int64_t> one_axis(const rc::refusal_context& m, int i,
                                              bool attribute_only) {
    const ir::node_view n = m.at(i);
    if (const auto keep = n.attribute("keepdims"); keep && keep->i() == 0) return std::nullopt;
    std::vector<std::int64_t> axes;
    if (const auto a = n.attribute("axes")) {
      axes = a->ints();
    } else if (!attribute_only && n.input_count() > 1 && !n.input(1).empty()) {
      const ir::tensor_view t = m.constant(n.input(1));
      if (!t) return std::nullopt;
      axes = ir::values_as_int64(t);
    }
    const auto rank = m.rank(n.input(0));
    if (axes.size() != 1 || !rank) return std::nullopt;
    const auto r = static_cast<std::int64_t>(*rank);
    return axes[0] < 0 ? axes[0] + r : axes[0];
  }
};

// tests/data/differential/seed-50713-*: a Mean of a [1, 3] and a ReduceMax's [1, 1].
struct computed_single_element
    : rc::quirk<"computed_single_element",
                rc::by_rule<single_element_divisor, add_broadcast_expanded, sub_broadcast_expanded,
                            mul_broadcast_expanded, div_broadcast_expanded, max_broadcast_expanded,
                            min_broadcast_expanded, sum_broadcast_expanded>>,
      fused_softmax_nodes {
  static constexpr std::string_view summary =
      "a computed single element is not broadcast over another computed input (LayerNorm2d's "
      "divisor at H = W = 1, node/test_layer_normalization_*_expanded's mean, a LayerNorm over "
      "every axis of a batch of one, a Mean with a ReduceMax's [1, 1]); a division by it is "
      "rewritten as a 1 x 1 by 1 x N MatMul with its reciprocal, other uses expand it to the "
      "other input's shape first";
  static constexpr std::string_view reason =
      "OpenCV 4.6 cannot broadcast a computed single element over another input";
  static constexpr std::string_view ops[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum"};
  static bool found(const site& s, const facts& fused) {
    if (!op_in(s.op(), ops) || s.node.input_count() != 2) return false;
    if (fused[static_cast<std::size_t>(s.index)]) return false;
    const auto& m = s.model;
    const auto a = m.static_shape(s.input(0)), b = m.static_shape(s.input(1));
    if (!a || !b || m.constant(s.input(0)) || m.constant(s.input(1))) return false;
    return single_element_broadcast(s.op(), *a, *b).has_value();
  }
};

// Silent: OpenCV loads it and scales axis 1; the rule's own condition finds it.
struct last_axis_vector : rc::quirk<"last_axis_vector", rc::by_rule<last_axis_scale>> {
  static constexpr std::string_view summary =
      "a 3-D or 4-D tensor times a constant vector along its last axis is scaled along axis 1 "
      "(no error: wrong numbers)";
};

// Found where the constant is expanded to the batch's shape as computed (torch's expand(n, -1,
// -1)); at a trial size that shape folds and the rule's own condition finds the constant.
struct constant_of_the_batch
    : rc::quirk<"constant_of_the_batch", rc::by_rule<batch_constant_concat_as_pad>> {
  static constexpr std::string_view summary =
      "in a model with open dims (a dynamic batch), a constant expanded to the batch and joined "
      "to a computed tensor (ViT's class token) is computed from the batch; OpenCV computes no "
      "Expand to a computed shape, and once folded the constant holds for one batch only";
  static constexpr std::string_view reason =
      "OpenCV 4.6 cannot expand a constant to the batch of a model with open dims";
  static constexpr std::string_view remedy =
      "convert joins it as the computed tensor padded with zeros plus a constant free of the "
      "batch";
  static bool found(const site& s) {
    if (s.op() != "Concat" || s.node.input_count() != 2 || !ir::at_trial_sizes(s.model))
      return false;
    const int expand = s.model.producer(s.input(0));
    if (expand < 0 || s.model.constant(s.input(1))) return false;
    const auto e = s.model.at(expand);
    return e.op_type() == "Expand" && s.model.constant(e.input(0)) && !s.model.constant(e.input(1));
  }
};

struct concat_outside_4d : rc::quirk<"concat_outside_4d", rc::by_rule<constant_concat_in_4d>> {
  static constexpr std::string_view summary =
      "a constant is joined to a computed tensor in 4-D only (ViT's class token, in 3-D)";
  static std::optional<std::size_t> rank(const site& s) {
    if (s.op() != "Concat") return std::nullopt;
    bool constant = false, computed = false;
    for (const auto& in : s.node.inputs()) (s.model.constant(in) ? constant : computed) = true;
    const auto shape = s.model.static_shape(s.node.output(0));
    if (!constant || !computed || !shape || shape->size() == 4) return std::nullopt;
    return shape->size();
  }
  static bool found(const site& s) { return rank(s).has_value(); }
  static std::string reason(const site& s) {
    return "OpenCV 4.6 concatenates a constant with a computed tensor in 4-D only, this is " +
           std::to_string(*rank(s)) + "-D";
  }
};

// The values OpenCV 4.6 computes when it loads the model (stored constants, Shape, and what it
// evaluates on them), each with the kind of Mat that holds it: it adds or subtracts two of them
// only when the Mats have one size. Measured on OpenCV 4.6 (FACTS.md, R3): a Gather's result is
// held as a stored scalar is, a Shape's as no stored tensor is, the others by their dims; "?"
// where the dims are not known.
struct import_time_values {
  using facts = std::unordered_map<std::string, std::string>;
  static facts prepare(const rc::refusal_context& m) {
    static constexpr std::string_view evaluated[] = {
        "Gather",  "Concat",    "Unsqueeze", "Squeeze", "Reshape",
        "Flatten", "Transpose", "Slice",     "Cast",    "ConstantOfShape",
        "Expand",  "Add",       "Sub",       "Mul",     "Div"};
    facts out;
    const auto by_dims = [&](const std::string& v) -> std::string {
      const auto dims = m.static_shape(v);
      if (!dims) return "?";
      if (dims->empty()) return "gathered";
      std::string kind;
      for (const auto d : *dims) kind += std::to_string(d) + "x";
      return kind;
    };
    for (int i = 0; i < m.node_count(); ++i) {
      const ir::node_view n = m.at(i);
      if (!n.in_default_domain() || n.output_count() == 0) continue;
      const auto& op = n.op_type();
      if (op == "Shape") {
        out[n.output(0)] = "shape";
        continue;
      }
      if (!op_in(op, evaluated) || n.input_count() == 0) continue;
      bool constant = true;
      for (const auto& in : n.inputs())
        constant = constant && (in.empty() || out.count(in) || m.constant(in));
      if (constant) out[n.output(0)] = op == "Gather" ? "gathered" : by_dims(n.output(0));
    }
    for (const auto& name : m.initializer_names()) out.emplace(name, by_dims(name));
    for (int i = 0; i < m.node_count(); ++i)
      if (const ir::node_view n = m.at(i);
          n.op_type() == "Constant" && n.output_count() == 1 && m.constant(n.output(0)))
        out.emplace(n.output(0), by_dims(n.output(0)));
    return out;
  }
};

// Both inputs computed when OpenCV loads the model (shape arithmetic: Gather(Shape(x), [1]) + 1
// in torch's chunk), in Mats of different sizes.
struct import_time_arithmetic : rc::quirk<"import_time_arithmetic", rc::by_folding>,
                                import_time_values {
  static constexpr std::string_view summary =
      "an Add or Sub it computes when loading, of two values held in Mats of different sizes, "
      "fails (torch's chunk)";
  static bool found(const site& s, const facts& at_import) {
    if ((s.op() != "Add" && s.op() != "Sub") || s.node.input_count() != 2) return false;
    const auto a = at_import.find(s.input(0)), b = at_import.find(s.input(1));
    return a != at_import.end() && b != at_import.end() && a->second != "?" && b->second != "?" &&
           a->second != b->second;
  }
  static std::string reason(const site& s, const facts& at_import) {
    return "OpenCV 4.6 computes it when loading, from two values it holds in Mats of "
           "different sizes (" +
           at_import.at(s.input(0)) + " and " + at_import.at(s.input(1)) +
           "), and fails: convert folds it where the input's shape is static";
  }
};

struct import_time_gather : rc::quirk<"import_time_gather">, import_time_values {
  static constexpr std::string_view summary =
      "a Gather of more than one index from a value it computes when loading is refused";
  static constexpr std::string_view reason =
      "OpenCV 4.6 gathers one index only from a value it computes when loading";
  static bool found(const site& s, const facts& at_import) {
    if (s.op() != "Gather" || !at_import.count(s.input(0))) return false;
    const ir::tensor_view indices = s.model.constant(s.input(1));
    return indices && indices.element_count() > 1;
  }
};

// Silent: OpenCV places a stored constant by its own rank; the rule's own condition finds it.
struct leading_ones_constant
    : rc::quirk<"leading_ones_constant", rc::by_rule<constant_add_without_leading_ones>> {
  static constexpr std::string_view summary =
      "a stored constant added with leading axes of 1 is placed by its own rank (Swin's "
      "attention bias [1, H, N, N] lands on the wrong axes; no error: wrong numbers)";
};

// ---- Found on ONNX's own backend test models (tests/conformance/opencv_dnn.cpp) ----

// The inputs OpenCV's DNN is given: float32 Mats (retarget's wrapper gives a float64 input as
// float32, and feeds it nothing else). node/test_add_uint8, node/test_cast_*.
struct input_not_float32 : rc::quirk<"input_not_float32"> {
  // float32, float64 (as float32), or not known.
  static bool fed(ir::dtype t) {
    return t == ir::dtype::f32 || t == ir::dtype::f64 || t == ir::dtype::undefined;
  }
  static constexpr std::string_view summary =
      "a graph input of another element type than float32 or float64 (given as float32) is "
      "refused: OpenCV's DNN computes in float32, and an integer op would not be one "
      "(node/test_add_uint8)";
  static std::optional<std::string> input(const site& s) {
    for (const auto& in : s.node.inputs())
      if (!in.empty() && s.model.is_graph_input(in) && !s.model.is_initializer(in) &&
          !fed(static_cast<ir::dtype>(s.model.element_type(in))))
        return in;
    return std::nullopt;
  }
  static bool found(const site& s) { return input(s).has_value(); }
  static std::string reason(const site& s) {
    const auto in = *input(s);
    return "its input '" + in + "' is a graph input of " +
           std::string(ir::to_string(static_cast<ir::dtype>(s.model.element_type(in)))) +
           ": OpenCV 4.6's DNN takes float32 inputs (and float64, as float32) only";
  }
};

// pytorch-operator/test_operator_addconstant: a float64 Constant fails to load.
struct float64_constant : rc::quirk<"float64_constant"> {
  static constexpr std::string_view summary =
      "a stored constant of float64 fails to load (pytorch-operator/test_operator_addconstant)";
  static std::optional<std::string> input(const site& s) {
    for (const auto& in : s.node.inputs())
      if (!in.empty() && s.model.constant(in) &&
          static_cast<ir::dtype>(s.model.element_type(in)) == ir::dtype::f64)
        return in;
    return std::nullopt;
  }
  static bool found(const site& s) { return input(s).has_value(); }
  static std::string reason(const site& s) {
    return "its input '" + *input(s) +
           "' is a stored float64 constant, which OpenCV 4.6 cannot read";
  }
};

// node/test_adam, node/test_momentum (ai.onnx.preview.training), ai.onnx.ml's ops.
struct other_domain : rc::quirk<"other_domain"> {
  static constexpr bool any_domain = true;  // the others look at default-domain nodes only
  static constexpr std::string_view summary =
      "an op outside the default domain (ai.onnx.preview.training, ai.onnx.ml) has no layer";
  static bool found(const site& s) { return !s.node.in_default_domain(); }
  static std::string reason(const site& s) {
    return "OpenCV 4.6 has no layer for " + std::string(s.node.domain()) + "." + s.op();
  }
};

// Inputs OpenCV's importer reads as stored constants ("Blob ... not found in const blobs"):
// the test models pass them as graph inputs. Measured on the backend test models.
struct parameter_computed : rc::quirk<"parameter_computed", rc::by_folding> {
  struct entry {
    std::string_view op;
    std::size_t first, last;  // the inputs that must be constants
  };
  // A table, kept as one.
  // clang-format off
  static constexpr entry table[] = {
      {"BatchNormalization", 1, 4}, {"ConstantOfShape", 0, 0}, {"ConvTranspose", 1, 2},
      {"DequantizeLinear", 1, 2}, {"Gather", 1, 1}, {"Gemm", 1, 1}, {"GRU", 1, 3},
      {"InstanceNormalization", 1, 2}, {"LSTM", 1, 3}, {"Pad", 1, 2}, {"Pow", 1, 1},
      {"PRelu", 1, 1}, {"QLinearConv", 1, 8}, {"QLinearMatMul", 1, 7}, {"QuantizeLinear", 1, 2},
      {"Reshape", 1, 1}, {"Resize", 1, 3}, {"Slice", 1, 4}, {"Split", 1, 1}, {"Squeeze", 1, 1},
      {"Unsqueeze", 1, 1}, {"Upsample", 1, 1}};
  // clang-format on
  static constexpr std::string_view summary =
      "an input OpenCV's importer reads as a stored constant (a weight, a shape, axes, pads, "
      "scales) that the model computes or takes as a graph input is refused (node/test_gemm_*, "
      "node/test_reshape_*, node/test_slice*, node/test_resize_*)";
  static constexpr std::string_view remedy =
      "where it is computed from constants, convert folds it";
  static std::optional<std::string> input(const site& s) {
    for (const auto& e : table)
      if (e.op == s.op())
        for (std::size_t k = e.first; k <= e.last && k < s.node.input_count(); ++k)
          if (!s.input(k).empty() && !s.model.constant(s.input(k))) return s.input(k);
    return std::nullopt;
  }
  static bool found(const site& s) { return input(s).has_value(); }
  static bool fixable(const site& s) {
    const int producer = s.model.producer(*input(s));
    return producer >= 0 && folds(s.model, s.model.at(producer));
  }
  static std::string reason(const site& s) {
    return "OpenCV 4.6 reads its input '" + *input(s) + "' as a stored constant, and it is " +
           (s.model.is_graph_input(*input(s)) ? "a graph input" : "computed");
  }
};

// OpenCV's eltwise layers need two inputs of two or more dims (node/test_min_*, node/test_max_*,
// node/test_sum_*, node/test_mul_example on [3]).
struct eltwise_below_2d
    : rc::quirk<"eltwise_below_2d",
                rc::by_rule<add_lifted, sub_lifted, mul_lifted, div_lifted, min_lifted, max_lifted,
                            sum_lifted, min_of_three_lifted, max_of_three_lifted,
                            sum_of_three_lifted, min_of_one, max_of_one>> {
  static constexpr std::string_view remedy =
      "where they are all one shape, convert computes it over them as [1, N]";
  static constexpr std::string_view ops[] = {"Add", "Sub", "Mul", "Div", "Min", "Max", "Sum"};
  static constexpr std::string_view summary =
      "Add, Sub, Mul, Div, Min, Max and Sum whose computed inputs all have fewer than 2 dims "
      "fail, and Min and Max of one input (node/test_min_*, node/test_sum_two_inputs)";
  static bool found(const site& s) {
    if (!op_in(s.op(), ops)) return false;
    if (s.node.input_count() == 1) return s.op() != "Sum";  // a Sum of one is copied
    // Each computed input under 2 dims ([5] by [3, 4, 5] is broadcast right).
    bool computed = false;
    for (const auto& in : s.node.inputs()) {
      if (in.empty() || s.model.constant(in)) continue;
      const auto r = s.model.rank(in);
      if (!r || *r >= 2) return false;
      computed = true;
    }
    return computed;
  }
  static std::string reason(const site& s) {
    if (s.node.input_count() == 1 && s.op() != "Sum")
      return "OpenCV 4.6's " + s.op() + " needs two inputs or more, it has one";
    return "OpenCV 4.6's " + s.op() + " needs a computed input of 2 dims or more";
  }
};

// A comparison of a computed tensor with a stored constant it broadcasts: of fewer dims, or
// of other dims at 1-D, fails when the net runs (torchvision's detection post-processing: a
// [480] score Greater than a scalar threshold). Probed on OpenCV 4.6: [480] against [] and [1],
// [2, 480] against [] fail; [480] against [480] and [1, 480] against [1, 1] run.
struct comparison_broadcasts_constant : rc::quirk<"comparison_broadcasts_constant"> {
  static constexpr std::string_view ops[] = {"Greater", "Less", "Equal"};
  static constexpr std::string_view summary =
      "Greater, Less and Equal of a computed tensor and a stored constant of fewer dims, or of "
      "other dims at 1-D, fail when the net runs";
  static constexpr std::string_view reason =
      "OpenCV 4.6 fails at run time comparing with a constant of fewer dims, or broadcast at 1-D";
  static bool found(const site& s) {
    if (!op_in(s.op(), ops) || s.node.input_count() != 2) return false;
    for (std::size_t k = 0; k < 2; ++k) {
      const auto x = s.model.static_shape(s.input(k)), c = s.model.static_shape(s.input(1 - k));
      if (s.model.constant(s.input(k)) || !s.model.constant(s.input(1 - k)) || !x || !c) continue;
      if (c->size() < x->size() || (x->size() == 1 && *c != *x)) return true;
    }
    return false;
  }
};

// Two computed inputs of different ranks (node/test_add_bcast: [3, 4, 5] + [5]) fail when the
// net runs; OpenCV broadcasts a constant, not a computed tensor, across ranks.
struct computed_broadcast_across_ranks : rc::quirk<"computed_broadcast_across_ranks"> {
  // Add, Sub, Mul, Div, Min, Max and Sum are computed_broadcast's, which convert expands.
  static constexpr std::string_view ops[] = {"Pow", "Greater", "Less", "Equal"};
  static constexpr std::string_view summary =
      "Pow, Greater, Less and Equal over two computed inputs of different ranks fail when the "
      "net runs (node/test_greater_bcast)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 fails at run time broadcasting two computed inputs of different ranks";
  static bool found(const site& s) {
    if (!op_in(s.op(), ops)) return false;
    std::optional<std::size_t> seen;
    for (const auto& in : s.node.inputs()) {
      if (in.empty() || s.model.constant(in)) continue;
      const auto r = s.model.rank(in);
      if (!r) continue;
      if (seen && *seen != *r) return true;
      seen = r;
    }
    return false;
  }
};

// Two computed inputs of different shapes, neither a single element (computed_single_element's):
// tests/data/differential/seed-5067-* (a LayerNormalization decomposed over a batch of 2: wrong
// numbers), seed-9309-* (a Sum broadcast both ways: a wrong shape), node/test_add_bcast,
// node/test_layer_normalization_*_expanded (failures at run time), seed-41218-* (a Div of a
// [1, 4, 5] by a [2, 4, 5]: divided the other way round, no error).
struct computed_broadcast
    : rc::quirk<"computed_broadcast",
                rc::by_rule<add_broadcast_expanded, sub_broadcast_expanded, mul_broadcast_expanded,
                            div_broadcast_expanded, max_broadcast_expanded, min_broadcast_expanded,
                            sum_broadcast_expanded>>,
      fused_softmax_nodes {
  static constexpr std::string_view ops[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum"};
  static constexpr std::string_view summary =
      "an elementwise op over two computed inputs broadcast to each other is right only for Mul "
      "and Div per channel ([N, C, 1, 1] over [N, C, H, W]) or along one axis in 3-D or more, "
      "a Div only when its divisor is the one broadcast; other forms fail to load or run, or "
      "give wrong numbers or shapes (no error)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 broadcasts two computed inputs in few forms";
  static constexpr std::string_view remedy =
      "convert expands each input to the output's shape first";
  static bool found(const site& s, const facts& fused) {
    if (!op_in(s.op(), ops) || s.node.input_count() != 2) return false;
    if (fused[static_cast<std::size_t>(s.index)]) return false;
    const auto& m = s.model;
    if (m.constant(s.input(0)) || m.constant(s.input(1))) return false;
    const auto a = m.static_shape(s.input(0)), b = m.static_shape(s.input(1));
    if (!a || !b || broadcast::single(*a) || broadcast::single(*b)) return false;
    return !broadcast::computed_taken(s.op(), *a, *b);
  }
};

// The corpus's dynamic Swin (a LayerNorm's [N, 16, 16, 16] over [N, 16, 16, 1]) and MaxViT
// (squeeze-and-excitation's [N, C, H, W] times [N, C, 1, 1]): probed at a batch of 3, every
// form computed_broadcast lets pass fails to run once the batch is open.
struct computed_broadcast_open_dims
    : rc::quirk<"computed_broadcast_open_dims",
                rc::by_rule<mul_broadcast_expanded, div_broadcast_expanded>>,
      fused_softmax_nodes {
  static constexpr std::string_view summary =
      "in a model with open dims (a dynamic batch), a Mul or Div of two computed inputs "
      "broadcast per channel or along one axis fails to run at any batch but 1";
  static constexpr std::string_view reason =
      "OpenCV 4.6 broadcasts two computed inputs at a batch of 1 only, when the batch is open";
  static constexpr std::string_view remedy =
      "convert expands each input to the output's shape first";
  static bool found(const site& s, const facts& fused) {
    if ((s.op() != "Mul" && s.op() != "Div") || s.node.input_count() != 2) return false;
    if (fused[static_cast<std::size_t>(s.index)] || !ir::at_trial_sizes(s.model)) return false;
    const auto& m = s.model;
    if (m.constant(s.input(0)) || m.constant(s.input(1))) return false;
    const auto a = m.static_shape(s.input(0)), b = m.static_shape(s.input(1));
    if (!a || !b || broadcast::single(*a) || broadcast::single(*b)) return false;
    // The forms computed_broadcast lists are its own.
    return broadcast::computed_taken(s.op(), *a, *b) &&
           !broadcast::computed_taken(s.op(), *a, *b, true);
  }
};

// tests/data/differential/seed-20845-* (a Mean of [1, 6, 5] and two [3, 6, 5], as a Sum of
// three), seed-20984-* (a Max of [2] and two [1, 2]).
struct three_inputs_broadcast
    : rc::quirk<"three_inputs_broadcast",
                rc::by_rule<sum_of_three_in_pairs, max_of_three_in_pairs, min_of_three_in_pairs>> {
  static constexpr std::string_view summary =
      "a Sum, Max or Min of three or more computed inputs of different shapes fails to load or "
      "run";
  static constexpr std::string_view reason =
      "OpenCV 4.6 broadcasts no computed input of a Sum, Max or Min of three or more";
  static constexpr std::string_view remedy = "of three, convert computes it pair by pair";
  static bool found(const site& s) {
    if ((s.op() != "Sum" && s.op() != "Max" && s.op() != "Min") || s.node.input_count() < 3)
      return false;
    std::optional<std::vector<std::int64_t>> first;
    for (const auto& in : s.node.inputs()) {
      if (s.model.constant(in)) return false;  // sum_of_constants', max_min_with_constant's
      const auto shape = s.model.static_shape(in);
      if (!shape) return false;
      if (!first) first = shape;
      if (shape != first) return true;
    }
    return false;
  }
  static bool fixable(const site& s) { return s.node.input_count() == 3; }
};

// A computed tensor with a constant that varies along axis 0 (node's dims aligned from the
// right): OpenCV scales from axis 1, and fails when the net runs
// (pytorch-converted/test_PoissonNLLLLoss_no_reduce: [10, 10] times a [10, 10] constant).
// (Add and Sub of such a constant are constant_broadcast's, which writes it in a form OpenCV
// takes.)
struct constant_along_axis_0
    : rc::quirk<"constant_along_axis_0", rc::by_rule<mul_on_axis_0_lifted, div_on_axis_0_lifted>> {
  static constexpr std::string_view summary =
      "a product or quotient of a computed tensor and a constant that varies along axis 0 fails "
      "when the net runs (pytorch-converted/test_PoissonNLLLLoss_no_reduce)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 multiplies by a constant from axis 1 on, and this one varies along axis 0";
  static bool found(const site& s) {
    if (s.op() != "Mul" && s.op() != "Div") return false;
    const auto& m = s.model;
    for (std::size_t k = 0; k < 2 && s.node.input_count() == 2; ++k) {
      const auto x = m.static_shape(s.input(k)), c = m.static_shape(s.input(1 - k));
      if (m.constant(s.input(k)) || !m.constant(s.input(1 - k)) || !x || !c) continue;
      if (x->size() >= 2 && c->size() == x->size() && (*c)[0] > 1) return true;
    }
    return false;
  }
  static constexpr std::string_view remedy =
      "convert computes it with a leading axis of 1 on both (up to 4-D, from opset 9 on; a "
      "constant divided by the tensor stays)";
  static bool fixable(const site& s) {
    if (s.model.opset() < 9) return false;
    for (std::size_t k = 0; k < (s.op() == "Mul" ? 2u : 1u); ++k) {
      const auto x = s.model.static_shape(s.input(k));
      if (s.model.constant(s.input(1 - k)) && x && x->size() <= 4) return true;
    }
    return false;
  }
};

// tests/data/differential/seed-9197-*, seed-9695-*, seed-10155-*: an AveragePool of [5, 7, 7]
// with pads [2, 0] gives [5, 7, 5] where [5, 7, 4] is due.
struct pads_differ_on_one_axis
    : rc::quirk<"pads_differ_on_one_axis",
                rc::by_rule<conv_in_2d, max_pool_in_2d, average_pool_in_2d>> {
  static constexpr std::string_view summary =
      "Conv, MaxPool and AveragePool over one spatial axis with pads that differ at its two "
      "ends give an output of the wrong length, and with auto_pad SAME fail when the net runs";
  static constexpr std::string_view reason =
      "OpenCV 4.6 computes one spatial axis padded unequally at its ends, or SAME, wrongly";
  static constexpr std::string_view remedy =
      "convert computes it over [N, C, 1, L], with the pads on the last axis";
  static bool found(const site& s) {
    if (s.op() != "Conv" && s.op() != "MaxPool" && s.op() != "AveragePool") return false;
    if (s.model.rank(s.input(0)) != 3u) return false;
    if (const auto a = s.node.attribute("auto_pad"); a && a->s().starts_with("SAME")) return true;
    const auto pads = s.node.attribute("pads");
    return pads && pads->ints().size() == 2 && pads->ints()[0] != pads->ints()[1];
  }
  static bool fixable(const site& s) {
    const auto ceil = s.node.attribute("ceil_mode");
    if (ceil && ceil->i() != 0) return false;
    if (s.node.output_count() > 1 && !s.node.output(1).empty()) return false;
    return s.op() != "Conv" || s.model.constant(s.input(1)) != nullptr;
  }
};

// tests/data/differential/seed-9178-*: an AveragePool of [4, 4, 2] with pads [1, 1],
// count_include_pad and ceil_mode (average_pool_counts_padding's rule writes the pads out only
// where the length is rounded down).
struct average_pool_counts_padding_rounded_up
    : rc::quirk<"average_pool_counts_padding_rounded_up"> {
  static constexpr std::string_view summary =
      "average pooling with count_include_pad, pads and ceil_mode gives wrong numbers (no error)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 leaves the padding out of the count, and rounded up, the count at the end "
      "cannot be written out";
  static bool found(const site& s) {
    if (s.op() != "AveragePool") return false;
    const auto count = s.node.attribute("count_include_pad");
    const auto ceil = s.node.attribute("ceil_mode");
    const auto pads = s.node.attribute("pads");
    if (!count || count->i() != 1 || !ceil || ceil->i() != 1 || !pads) return false;
    const auto p = pads->ints();
    return std::any_of(p.begin(), p.end(), [](auto v) { return v != 0; });
  }
};

// tests/data/differential/seed-11808-*: a MatMul's 1-D [6] joined to a 1-D input [1] fails when
// the net runs (node/test_concat_1d_axis_0's two graph inputs of one length run right).
struct concat_1d_computed
    : rc::quirk<"concat_1d_computed",
                rc::by_rule<concat_on_batch_of_two, concat_on_batch_of_three>> {
  static constexpr std::string_view summary =
      "a Concat of 1-D computed tensors of different lengths, or made by nodes, can fail when "
      "the net runs (a MatMul's [6] and a [1], a Softmax's [1] and a [1])";
  static constexpr std::string_view reason = "OpenCV 4.6 joins 1-D computed tensors unreliably";
  static constexpr std::string_view remedy = "convert joins them as rows [1, K, 1, 1]";
  static bool found(const site& s) {
    if (s.op() != "Concat") return false;
    const auto out = s.model.static_shape(s.node.output(0));
    if (!out || out->size() != 1) return false;
    bool computed = false;
    std::optional<std::vector<std::int64_t>> first;
    bool unequal = false;
    for (const auto& in : s.node.inputs()) {
      if (in.empty()) continue;
      computed = computed || !s.model.constant(in);
      const auto shape = s.model.static_shape(in);
      if (!first) first = shape;
      // A node's 1-D output may be held as [1, N] or [N, 1] (seed 20633: a Softmax's).
      unequal = unequal || shape != first || s.model.producer(in) >= 0;
    }
    return computed && unequal;
  }
  static bool fixable(const site& s) {
    if (s.node.input_count() > 3) return false;
    for (const auto& in : s.node.inputs())
      if (!s.model.static_shape(in) ||
          static_cast<ir::dtype>(s.model.element_type(in)) != ir::dtype::f32)
        return false;
    return true;
  }
};

// tests/data/differential/seed-10401-*: [4, 4, 1, 8] times a stored [8, 1], then a
// BatchNormalization of its 4 channels. The importer folds the normalization into the product's
// layer, whose outputs are the last axis, not the channels.
struct batch_norm_after_matmul : rc::quirk<"batch_norm_after_matmul"> {
  static constexpr std::string_view summary =
      "a BatchNormalization right after a MatMul by a stored matrix, over 3 dims or more, gives "
      "wrong numbers (no error)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 folds the normalization into the MatMul as if its channels were the last axis";
  static bool found(const site& s) {
    if (s.op() != "BatchNormalization") return false;
    const auto rank = s.model.rank(s.input(0));
    const auto made = s.model.producer(s.input(0));
    if (!rank || *rank < 3 || made < 0) return false;
    const auto product = s.model.at(made);
    return product.op_type() == "MatMul" && product.input_count() == 2 &&
           s.model.constant(product.input(1));
  }
};

// tests/data/differential/seed-9796-*: an AveragePool of kernel 2 over a length of 1. ONNX's
// shape inference and ONNX Runtime give it a length of 1; OpenCV computes a negative one.
struct window_wider_than_input : rc::quirk<"window_wider_than_input"> {
  static constexpr std::string_view summary =
      "Conv, MaxPool and AveragePool with a (dilated) kernel wider than the padded input fail "
      "when the net runs";
  static constexpr std::string_view reason =
      "OpenCV 4.6 cannot apply a window wider than the padded input";
  static bool found(const site& s) {
    if (s.op() != "Conv" && s.op() != "MaxPool" && s.op() != "AveragePool") return false;
    const auto auto_pad = s.node.attribute("auto_pad");
    if (auto_pad && auto_pad->s().starts_with("SAME")) return false;
    const auto in = s.model.static_shape(s.input(0));
    const auto kernel = s.node.attribute("kernel_shape");
    if (!in || in->size() < 3 || !kernel) return false;
    const auto spatial = in->size() - 2;
    const auto ints = [&](const char* name, std::size_t n, std::int64_t fill) {
      const auto a = s.node.attribute(name);
      auto v = a ? a->ints() : std::vector<std::int64_t>{};
      if (v.size() != n) v.assign(n, fill);
      return v;
    };
    const auto k = kernel->ints();
    if (k.size() != spatial) return false;
    const auto pads = auto_pad && auto_pad->s() == "VALID" ? std::vector<std::int64_t>(2 * spatial)
                                                           : ints("pads", 2 * spatial, 0);
    const auto dilations = ints("dilations", spatial, 1);
    for (std::size_t i = 0; i < spatial; ++i)
      if ((k[i] - 1) * dilations[i] + 1 > (*in)[i + 2] + pads[i] + pads[i + spatial]) return true;
    return false;
  }
};

// tests/data/differential/seed-9030-*, seed-9825-*: a [2, 5, 7, 2] constant joined before a
// computed [4, 5, 7, 2] came out with values of 1e28 and more.
struct concat_constant_on_batch
    : rc::quirk<"concat_constant_on_batch",
                rc::by_rule<concat_on_batch_of_two, concat_on_batch_of_three>> {
  static constexpr std::string_view summary =
      "a stored constant joined to a computed tensor along axis 0 gives wrong numbers, at every "
      "rank (no error)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 joins a stored constant along axis 0 wrongly (no error: wrong numbers)";
  static constexpr std::string_view remedy =
      "over static shapes, convert joins the inputs as rows [1, K, 1, 1] along axis 1";
  static bool found(const site& s) {
    if (s.op() != "Concat") return false;
    const auto rank = s.model.rank(s.input(0));
    const auto axis = s.node.attribute("axis");
    if (!rank || !axis || (axis->i() != 0 && axis->i() != -static_cast<std::int64_t>(*rank)))
      return false;
    bool constant = false, computed = false;
    for (const auto& in : s.node.inputs()) (s.model.constant(in) ? constant : computed) = true;
    return constant && computed;
  }
  static bool fixable(const site& s) {
    if (s.node.input_count() > 3) return false;
    for (const auto& in : s.node.inputs())
      if (!s.model.static_shape(in)) return false;
    return true;
  }
};

// A stored constant broadcast over a computed tensor, in a form OpenCV 4.6 does not take
// (rules.hpp, broadcast::accepted, says which it takes, and how they were measured).
// tests/data/differential/seed-9235-*, seed-9871-*: Sub of [1, 1, 1, 8] from [1, 4, 5, 8],
// [4, 3] minus [1, 3].
struct constant_broadcast
    : rc::quirk<"constant_broadcast",
                rc::by_rule<add_constant_in_accepted_form, sub_constant_in_accepted_form,
                            mul_constant_in_accepted_form, div_constant_in_accepted_form>> {
  static constexpr std::string_view summary =
      "a stored constant broadcast over a computed tensor is taken in a few forms only; in "
      "others the net fails when it runs, or, where the dims happen to fit, gives wrong numbers "
      "([1, 3, 1, 1] added over a batch of 2, [4, 5] times [2, 3, 4, 5], a constant divided by a "
      "computed tensor, a 5-D Swin mask)";
  static constexpr std::string_view remedy =
      "convert writes the constant again, its values repeated, in a form OpenCV takes";
  struct form {
    broadcast::dims x, c;
    bool constant_first = false, from_constant_node = false;
  };
  // The node's computed input and constant, where it is one of each with static dims, the
  // computed one of 2 dims or more and not widened by the constant.
  static std::optional<form> form_of(const site& s) {
    if (s.op() != "Add" && s.op() != "Sub" && s.op() != "Mul" && s.op() != "Div") return {};
    const auto& m = s.model;
    if (s.node.input_count() != 2) return {};
    for (std::size_t k = 0; k < 2; ++k) {
      const auto x_name = s.input(1 - k), c_name = s.input(k);
      if (m.constant(x_name) || !m.constant(c_name)) continue;
      auto x = m.static_shape(x_name), c = m.static_shape(c_name);
      if (!x || !c || x->size() < 2 || !broadcast::fits(*x, *c)) return {};
      return form{std::move(*x), std::move(*c), k == 0, !m.is_initializer(c_name)};
    }
    return {};
  }
  static bool found(const site& s) {
    const auto f = form_of(s);
    if (!f || broadcast::accepted(s.op(), f->x, f->c, f->constant_first, f->from_constant_node))
      return false;
    // A product by a constant that varies along the batch axis is constant_along_axis_0's; the
    // forms the rules of last_axis_vector and leading_ones_constant take are theirs.
    const bool along_batch = f->c.size() == f->x.size() && f->c[0] > 1;
    if (!broadcast::is_shift(s.op()) && along_batch) return false;
    return !last_axis_vector_form(s.op(), *f) && !leading_ones_form(s.op(), *f);
  }
  // last_axis_scale's: x [N, L, C] or [N, H, W, C] times a constant vector along C.
  static bool last_axis_vector_form(std::string_view op, const form& f) {
    if (op != "Mul" || f.constant_first || (f.x.size() != 3 && f.x.size() != 4)) return false;
    return !f.c.empty() && f.c.back() == f.x.back() && ir::element_count(f.c) == f.c.back();
  }
  // constant_add_without_leading_ones's: an Add of a constant whose leading 1s can go.
  static bool leading_ones_form(std::string_view op, const form& f) {
    return op == "Add" && leading_ones_trimmable(f.x.size(), f.c);
  }
  static bool fixable(const site& s) {
    const auto f = form_of(s);
    const ir::tensor_view c = s.model.constant(s.input(f->constant_first ? 0 : 1));
    return c.type() == ir::dtype::f32 &&
           broadcast::accepted_form(s.op(), f->x, f->c, f->constant_first).has_value();
  }
  static std::string reason(const site& s) {
    const auto f = form_of(s);
    if (s.op() == "Div" && f->constant_first)
      return "OpenCV 4.6 divides a constant by a computed tensor right only when the constant is "
             "a single element (no error: wrong numbers)";
    return "OpenCV 4.6 fails at run time applying a constant of dims " + ir::format_dims(f->c) +
           " to a computed tensor of dims " + ir::format_dims(f->x) + " in this form";
  }
};

// The computed input and the stored constant of a node of two inputs that has one of each.
struct computed_and_constant_inputs {
  std::string x, c;
  static std::optional<computed_and_constant_inputs> of(const site& s) {
    if (s.node.input_count() != 2) return std::nullopt;
    const bool a = s.model.constant(s.input(0)) != nullptr,
               b = s.model.constant(s.input(1)) != nullptr;
    if (a == b) return std::nullopt;
    return a ? computed_and_constant_inputs{s.input(1), s.input(0)}
             : computed_and_constant_inputs{s.input(0), s.input(1)};
  }
};

// tests/data/differential/seed-50713-*: a Mean of a ReduceMax's [1, 1] and a stored [1, 3].
struct constant_widens_input
    : rc::quirk<"constant_widens_input",
                rc::by_rule<add_expanded_to_constant, sub_expanded_to_constant,
                            mul_expanded_to_constant, div_expanded_to_constant>> {
  static constexpr std::string_view summary =
      "an Add, Sub, Mul or Div whose stored constant is larger than its computed input (a "
      "[1, 1] plus a [3]) fails when the net runs";
  static constexpr std::string_view reason =
      "OpenCV 4.6 broadcasts a constant over a computed tensor, never the tensor over it";
  static constexpr std::string_view remedy =
      "convert expands the computed input to the output's shape first";
  static bool found(const site& s) {
    const auto in = computed_and_constant_inputs::of(s);
    if (!in) return false;
    const auto x = s.model.static_shape(in->x), c = s.model.static_shape(in->c);
    return x && c && widened_by_constant(s.op(), *x, *c);
  }
};

// tests/data/differential/seed-40510-* (a [5] subtracted along the last axis of a 1-D Conv's
// [4, 2, 5]), seed-40298-* (a [14, 1] added over a ConvTranspose's [4, 2, 14, 6]),
// seed-1795934330-* (a [3, 1] added after a Conv plus one).
struct constant_after_convolution
    : rc::quirk<"constant_after_convolution",
                rc::by_rule<add_apart_from_convolution, sub_apart_from_convolution,
                            mul_apart_from_convolution, div_apart_from_convolution>> {
  static constexpr std::string_view summary =
      "an Add, Sub, Mul or Div of a stored constant after a Conv or ConvTranspose (and the "
      "per-channel ops folded into it) is folded into it too as if per channel: unless the "
      "constant varies along the channels alone, "
      "the net fails when it runs, or gives wrong numbers where its length is the channel count";
  static constexpr std::string_view reason =
      "OpenCV 4.6 folds the constant into the convolution as if it were per channel";
  static constexpr std::string_view remedy =
      "convert reshapes the convolution's output to its own shape first, which stops the fold";
  static bool found(const site& s) {
    const auto in = computed_and_constant_inputs::of(s);
    if (!in) return false;
    const auto& m = s.model;
    const auto rank = m.rank(in->x);
    const auto c = m.static_shape(in->c);
    if (!rank || !c) return false;
    const auto behind = convolution_behind(
        in->x,
        [&](const std::string& v) {
          const int i = m.producer(v);
          return i >= 0 ? std::optional(m.at(i)) : std::nullopt;
        },
        [&](const std::string& v) { return m.constant(v) ? m.static_shape(v) : std::nullopt; },
        [&](const std::string& v) { return m.rank(v); });
    return folded_into_convolution(s.op(), behind, *rank, *c);
  }
  static bool fixable(const site& s) {
    return s.model.static_shape(computed_and_constant_inputs::of(s)->x).has_value();
  }
};

// tests/data/differential/seed-70635-*: a BatchNormalization of a [1, 1] minus a [5];
// seed-1795963609-*: of a stored [2, 1, 5] minus a [2, 8, 5] (the constant written out whole);
// seed-1795991306-*: a PRelu of slope [4, 1] after a [2, 4, 2] by a stored [2, 2].
struct channel_op_fused_wrongly
    : rc::quirk<"channel_op_fused_wrongly",
                rc::by_rule<batch_norm_apart_from_eltwise, prelu_apart_from_eltwise>> {
  static constexpr std::string_view summary =
      "a BatchNormalization or PRelu is fused into the layer before it and applied to the wrong "
      "elements (no error: wrong numbers): of 2 or 3 dims after an Add, Sub, Mul, Div, Max, Min "
      "or Sum of computed tensors, or an Add or Sub of a stored constant of the output's own "
      "dims; of 3 dims or more after a MatMul by a stored matrix, unless a PRelu's slope varies "
      "along the last axis alone";
  static constexpr std::string_view reason =
      "OpenCV 4.6 fuses the per-channel op into the layer before it, and applies it to the "
      "wrong elements";
  static constexpr std::string_view remedy =
      "convert reshapes its input to its own shape first, which stops the fusion";
  static bool found(const site& s) {
    if (s.node.input_count() < 1) return false;
    const auto& m = s.model;
    const int made = m.producer(s.input(0));
    const auto rank = m.rank(s.input(0));
    if (made < 0 || !rank) return false;
    const auto producer = m.at(made);
    const auto dims = m.static_shape(s.input(0));
    bool computed = true, constant_of_its_dims = false;
    for (std::size_t k = 0; k < producer.input_count(); ++k) {  // "": an absent optional input
      const auto& in = producer.input(k);
      if (in.empty() || !m.constant(in)) continue;
      computed = false;
      constant_of_its_dims = constant_of_its_dims || (dims && m.static_shape(in) == dims);
    }
    const bool by_stored_matrix = producer.op_type() == "MatMul" && producer.input_count() == 2 &&
                                  m.constant(producer.input(1));
    std::vector<std::int64_t> slope_dims;
    if (s.op() == "PRelu") {
      const ir::tensor_view slope = m.constant(s.input(1));
      slope_dims = slope ? slope.dims() : std::vector<std::int64_t>{0, 0};  // computed: any
    }
    return fused_into_eltwise(s.op(), producer.op_type(), computed, constant_of_its_dims, *rank) ||
           fused_into_inner_product(s.op(), by_stored_matrix, *rank, slope_dims);
  }
  static bool fixable(const site& s) {
    return s.node.output_count() == 1 && s.model.static_shape(s.input(0)).has_value();
  }
};

// tests/data/differential/seed-81062-*: |x| to the power -0.43, divided by -0.76 (NaN).
struct scale_fused_into_power
    : rc::quirk<
          "scale_fused_into_power",
          rc::by_rule<add_apart_from_power, sub_apart_from_power, mul_apart_from_power,
                      div_apart_from_power, neg_apart_from_power, batch_norm_apart_from_power>> {
  static constexpr std::string_view summary =
      "an Add, Sub, Mul or Div of a single stored element, a Neg, or a BatchNormalization of one "
      "channel, right after a Pow by a stored exponent other than 1 or a single element divided "
      "by a tensor, is fused into it and applied before the power: (a x + b)^p where a x^p + b "
      "is due (no error: wrong numbers, NaN for a negative a)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 fuses the scale and shift into the Power layer before it, inside the power";
  static constexpr std::string_view remedy =
      "convert reshapes the power's output to its own shape first, which stops the fusion";
  static std::optional<double> single(const site& s, std::string_view v) {
    return v.empty() ? std::nullopt : scalar_of(s.model.constant(v));
  }
  // The input of the node that a Power layer makes, where nothing else reads it (or nullopt).
  static std::optional<std::size_t> power_input(const site& s) {
    const auto& m = s.model;
    for (std::size_t at = 0; at < std::min<std::size_t>(s.node.input_count(), 2); ++at) {
      const auto& in = s.input(at);
      const int made = in.empty() ? -1 : m.producer(in);
      if (made < 0 || m.consumers(in).size() != 1 || m.is_graph_output(in)) continue;
      const auto power = m.at(made);
      if (power.input_count() == 2 &&
          raised_to_a_power(power.op_type(), single(s, power.input(0)), single(s, power.input(1))))
        return at;
    }
    return std::nullopt;
  }
  static bool found(const site& s) {
    const auto at = power_input(s);
    if (!at) return false;
    const bool other_single =
        s.node.input_count() > 1 && single(s, s.input(*at == 0 ? 1 : 0)).has_value();
    return fused_into_power(s.op(), *at, other_single);
  }
  static bool fixable(const site& s) {
    return s.node.output_count() == 1 && s.model.static_shape(s.input(*power_input(s))).has_value();
  }
};

// tests/data/differential/seed-1795929651-*: two stored constants and a [1, 2, 3, 8] input
// joined along axis 1.
struct concat_constant_with_input
    : rc::quirk<"concat_constant_with_input", rc::by_rule<concat_input_apart>> {
  static constexpr std::string_view summary =
      "a Concat of a stored constant and a graph input of a batch of one gives wrong values "
      "(no error; right with a computed tensor, or at a batch of 2)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 joins a constant to a graph input of a batch of one wrongly";
  static constexpr std::string_view remedy =
      "convert reshapes the input to its own shape first, which makes it a computed tensor";
  static bool found(const site& s) {
    if (s.op() != "Concat") return false;
    bool constant = false, input = false;
    for (const auto& in : s.node.inputs()) {
      constant = constant || s.model.constant(in);
      if (s.model.is_graph_input(in) && !s.model.constant(in)) {
        const auto shape = s.model.static_shape(in);
        input = input || !shape || shape->empty() || shape->front() == 1;
      }
    }
    return constant && input;
  }
  static bool fixable(const site& s) {
    if (s.node.input_count() > 3) return false;
    for (const auto& in : s.node.inputs())
      if (s.model.is_graph_input(in) && !s.model.static_shape(in)) return false;
    return true;
  }
};

// tests/data/differential/seed-40514-*: x / c + c, c a stored [4].
struct divisor_shared : rc::quirk<"divisor_shared", rc::by_rule<divisor_copied>> {
  static constexpr std::string_view summary =
      "a Div by a stored constant of more than one element turns it into its reciprocal for "
      "every other node that reads it (no error: wrong numbers)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 takes the reciprocal of a Div's constant divisor in place";
  static constexpr std::string_view remedy = "convert gives the Div a copy of its own";
  static bool found(const site& s) {
    if (s.op() != "Div" || s.node.input_count() != 2) return false;
    const auto& m = s.model;
    if (m.constant(s.input(0))) return false;
    const ir::tensor_view c = m.constant(s.input(1));
    return c && c.element_count() > 1 && m.consumers(s.input(1)).size() > 1;
  }
};

// tests/data/differential/seed-9610-*, seed-9942-*: Max of [1, 3] and a stored [3].
struct max_min_with_constant
    : rc::quirk<"max_min_with_constant",
                rc::by_rule<max_with_constant_computed, min_with_constant_computed>> {
  static constexpr std::string_view summary =
      "Max and Min of a computed tensor and a stored constant fail to load, whatever the shapes";
  static constexpr std::string_view reason = "OpenCV 4.6's Max and Min take computed inputs only";
  static constexpr std::string_view remedy =
      "convert makes the constant a computed tensor, Sigmoid(x) * 0 + c, which is c for every x";
  static bool found(const site& s) {
    if ((s.op() != "Max" && s.op() != "Min") || s.node.input_count() != 2) return false;
    const bool a = s.model.constant(s.input(0)) != nullptr,
               b = s.model.constant(s.input(1)) != nullptr;
    return a != b;
  }
  static bool fixable(const site& s) {
    const bool constant_first = s.model.constant(s.input(0)) != nullptr;
    const auto x = s.model.static_shape(s.input(constant_first ? 1 : 0));
    const auto c = s.model.static_shape(s.input(constant_first ? 0 : 1));
    return x && c && x->size() >= 2 && broadcast::fits(*x, *c);
  }
};

// node/test_instancenorm_*: OpenCV normalizes a batch of more than one wrongly
// (pytorch-operator/test_operator_symbolic_override: the second item of [2, 10, 32, 32]).
struct instance_norm_batch : rc::quirk<"instance_norm_batch"> {
  static constexpr std::string_view summary =
      "InstanceNormalization over a batch of more than one gives wrong numbers for all but the "
      "first (pytorch-operator/test_operator_symbolic_override; no error)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 normalizes only the first item of a batch right";
  static bool found(const site& s) {
    if (s.op() != "InstanceNormalization") return false;
    const auto x = s.model.static_shape(s.input(0));
    return !x || x->empty() || (*x)[0] != 1;
  }
};

// tests/data/differential/seed-7098-*: a [3, 4] flattened at axis 2; pytorch-operator/
// test_operator_view: a 1-D tensor at the default axis 1 (opset 6, where the fix cannot go).
// Flatten of a 1-D tensor at axis 0 is right.
struct flatten_at_rank : rc::quirk<"flatten_at_rank", rc::by_rule<flatten_at_rank_as_reshape>> {
  static constexpr std::string_view summary =
      "Flatten at the axis past the last (axis = rank; the default axis 1 of a 1-D tensor), "
      "whose output is [N, 1], fails to load";
  static constexpr std::string_view reason =
      "OpenCV 4.6 flattens at an axis inside the tensor only";
  static constexpr std::string_view remedy = "convert writes a Reshape to [-1, 1] (opset 9 on)";
  static bool found(const site& s) {
    if (s.op() != "Flatten") return false;
    const auto r = s.model.rank(s.input(0));
    const auto a = s.node.attribute("axis");
    return r && flattened_at_rank(a ? a->i() : 1, *r);
  }
  static bool fixable(const site& s) { return s.model.opset() >= 9; }
};

// A graph output OpenCV computes while loading (a Shape, a Constant): no layer gives it, so the
// net has nothing to return (node/test_shape*, node/test_size*, node/test_constant).
struct output_computed_at_load : rc::quirk<"output_computed_at_load">, import_time_values {
  static constexpr std::string_view summary =
      "a graph output that OpenCV computes while loading (Shape, Size, a Constant) is given by "
      "no layer (node/test_shape*, node/test_constant)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 computes this graph output while loading the model and then gives no value "
      "for it";
  static bool found(const site& s, const facts& at_import) {
    for (const auto& out : s.node.outputs())
      if (s.model.is_graph_output(out) &&
          (s.op() == "Shape" || s.op() == "Size" || s.op() == "Constant" || at_import.count(out)))
        return true;
    return false;
  }
  // A graph output that is a stored constant (convert folds a Shape of a static shape).
  static std::vector<std::pair<std::string, std::string>> found_outside_nodes(
      const rc::refusal_context& m) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& name : m.initializer_names())
      if (m.is_graph_output(name))
        out.emplace_back("graph output '" + name + "'",
                         "it is a stored constant, and OpenCV 4.6 gives no value for an output no "
                         "layer computes");
    return out;
  }
};

// ONNX lets Conv leave kernel_shape out (it is the weight's); torch writes it, others do not.
// OpenCV 4.6 fails to load such a Conv. No backend test model leaves it out.
struct conv_without_kernel_shape
    : rc::quirk<"conv_without_kernel_shape",
                rc::by_rule<conv_kernel_from_weight, conv_transpose_kernel_from_weight>> {
  static constexpr std::string_view summary =
      "a Conv or ConvTranspose without kernel_shape (ONNX takes it from the weight) fails to load";
  static std::string reason(const site& s) {
    return "OpenCV 4.6 needs " + s.op() + "'s kernel_shape written";
  }
  static constexpr std::string_view remedy = "convert writes the weight's";
  static bool found(const site& s) {
    return (s.op() == "Conv" || s.op() == "ConvTranspose") && !s.node.attribute("kernel_shape");
  }
  static bool fixable(const site& s) {
    const auto w = s.model.static_shape(s.input(1));
    return s.model.constant(s.input(1)) && w && w->size() >= 3;
  }
};

// torchvision's 3-D video classifiers (r3d_18, mc3_18, r2plus1d_18) end in one; no backend test
// model has one ("addedDims <= pads_begin.size()" in the pooling layer's shapes).
struct global_pool_above_4d
    : rc::quirk<"global_pool_above_4d",
                rc::by_rule<global_average_pool_in_4d, global_max_pool_in_4d>> {
  static constexpr std::string_view summary =
      "GlobalAveragePool and GlobalMaxPool over 5 dims or more fail to load (torchvision's "
      "r3d_18, mc3_18, r2plus1d_18)";
  static constexpr std::string_view remedy =
      "convert pools the input as [N, C, D·H·W, 1], the same elements";
  static bool found(const site& s) {
    if (s.op() != "GlobalAveragePool" && s.op() != "GlobalMaxPool") return false;
    const auto r = s.model.rank(s.input(0));
    return r && *r >= 5;
  }
  static bool fixable(const site& s) { return s.model.opset() >= 9; }
  static std::string reason(const site& s) {
    return "OpenCV 4.6's " + s.op() + " fails to load over an input of " +
           std::to_string(*s.model.rank(s.input(0))) + " dims";
  }
};

// ONNX lets a graph output's type leave its shape out; OpenCV's importer asserts one
// ("tensor.has_shape()") while loading. Convert writes the shapes inference finds.
struct output_without_shape : rc::quirk<"output_without_shape", rc::by_shape_inference> {
  static constexpr std::string_view summary =
      "a graph output whose declared type has no shape fails to load";
  static std::vector<std::pair<std::string, std::string>> found_outside_nodes(
      const rc::refusal_context& m) {
    std::vector<std::pair<std::string, std::string>> out;
    for (int i = 0; i < m.node_count(); ++i)
      for (const auto& name : m.at(i).outputs())
        if (m.is_graph_output(name) && !m.declares_shape(name))
          out.emplace_back("graph output '" + name + "'",
                           "OpenCV 4.6 needs a shape in its declared type, and it has none "
                           "(convert writes the one shape inference finds, where it finds one)");
    return out;
  }
};

// Found by the differential generator (tests/differential, tests/data/differential): models
// `check --backend` passed and OpenCV 4.6 then failed on or computed wrong.

// The integer values of a constant input, or of an attribute.
inline std::vector<std::int64_t> ints_of(const ir::tensor_view& t) {
  return ir::values_as_int64(t);
}

// tests/data/differential/seed-1009-*, seed-1024-*.
struct squeeze_not_taken : rc::quirk<"squeeze_not_taken", rc::by_rule<squeeze_as_reshape>> {
  static constexpr std::string_view summary =
      "Squeeze with its axes as an input (opset 13 on) or with none fails to load";
  static constexpr std::string_view reason =
      "OpenCV 4.6 takes Squeeze's axes only as an attribute (before opset 13), and only named";
  static constexpr std::string_view remedy = "over a static shape, convert writes a Reshape";
  static bool found(const site& s) {
    return s.op() == "Squeeze" && (!s.input(1).empty() || !s.node.attribute("axes"));
  }
  static bool fixable(const site& s) {
    const auto out = s.model.rank(s.node.output(0));
    return s.model.static_shape(s.input(0)) && out && *out >= 1 &&
           (s.input(1).empty() || s.model.constant(s.input(1)));
  }
};

// Unsqueeze's axes, from its constant input or its attribute; nullopt when computed.
inline std::optional<std::vector<std::int64_t>> unsqueeze_axes(const site& s) {
  if (!s.input(1).empty()) {
    const ir::tensor_view t = s.model.constant(s.input(1));
    if (!t) return std::nullopt;
    return ints_of(t);
  }
  const auto a = s.node.attribute("axes");
  return a ? std::optional(a->ints()) : std::nullopt;
}
struct unsqueeze_not_taken : rc::quirk<"unsqueeze_not_taken", rc::by_rule<unsqueeze_as_reshape>> {
  static constexpr std::string_view summary =
      "Unsqueeze of more than one axis, or of a negative one, fails to load";
  static constexpr std::string_view reason =
      "OpenCV 4.6 unsqueezes one axis, counted from the front, at a time";
  static constexpr std::string_view remedy = "over a static shape, convert writes a Reshape";
  static bool found(const site& s) {
    if (s.op() != "Unsqueeze") return false;
    const auto axes = unsqueeze_axes(s);
    return axes && (axes->size() > 1 ||
                    std::any_of(axes->begin(), axes->end(), [](auto a) { return a < 0; }));
  }
  static bool fixable(const site& s) { return s.model.static_shape(s.input(0)).has_value(); }
};

// tests/data/differential/seed-5050-*: 1 where 0.102 is due.
struct softmax_1d : rc::quirk<"softmax_1d", rc::by_rule<softmax_1d_as_row, log_softmax_1d_as_row>> {
  static constexpr std::string_view summary =
      "Softmax and LogSoftmax over a 1-D tensor on axis -1 give wrong numbers (no error)";
  static std::string reason(const site& s) {
    return "OpenCV 4.6's " + s.op() + " is wrong over 1 dim on axis -1";
  }
  static constexpr std::string_view remedy = "convert computes it over the tensor as one row";
  static bool found(const site& s) {
    if (s.op() != "Softmax" && s.op() != "LogSoftmax") return false;
    const auto r = s.model.rank(s.input(0));
    const auto axis = s.node.attribute("axis");
    return r && *r == 1 && (!axis || axis->i() < 0);
  }
  static bool fixable(const site& s) { return s.model.static_shape(s.input(0)).has_value(); }
};

// tests/data/differential/seed-1005-* (a Mean of three, written as a Sum), seed-50848-* (a Mean
// of [5, 1, 6, 2] and a stored [1, 1, 6, 2]).
struct sum_of_constants
    : rc::quirk<"sum_of_constants", rc::by_rule<sum_of_two_as_add, sum_as_adds>> {
  static constexpr std::string_view summary =
      "a Sum with constants among its inputs fails: of more than two to load, of two of "
      "different shapes to run";
  static constexpr std::string_view reason =
      "OpenCV 4.6 sums a constant with one input of its shape only";
  static constexpr std::string_view remedy = "convert writes one Add per input after the first";
  static bool found(const site& s) {
    if (s.op() != "Sum" || s.node.input_count() < 2) return false;
    bool constant = false;
    for (const auto& in : s.node.inputs()) constant = constant || s.model.constant(in);
    if (!constant || s.node.input_count() > 2) return constant;
    const auto a = s.model.static_shape(s.input(0));
    return !a || a != s.model.static_shape(s.input(1));
  }
  static bool fixable(const site& s) { return s.node.input_count() <= 3; }
};

// tests/data/differential/seed-1003-*: axes [2, -1] of a 4-D tensor.
struct slice_axes_out_of_order
    : rc::quirk<"slice_axes_out_of_order", rc::by_rule<slice_axis_by_axis>> {
  static constexpr std::string_view summary =
      "a Slice over axes that are not consecutive and ascending as written (a gap) fails to "
      "load, and one over a negative axis slices another axis or none (no error)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 slices consecutive axes, written in ascending order, only";
  static constexpr std::string_view remedy = "convert slices one axis at a time";
  static bool found(const site& s) {
    if (s.op() != "Slice" || s.input(3).empty()) return false;
    const ir::tensor_view t = s.model.constant(s.input(3));
    if (!t) return false;  // a computed one is parameter_computed's
    return !slice_axes_taken(ints_of(t));
  }
  static bool fixable(const site& s) {
    for (std::size_t k = 1; k < 5; ++k)
      if (!s.input(k).empty() && !s.model.constant(s.input(k))) return false;
    return s.model.rank(s.input(0)).has_value();
  }
};

// tests/data/differential/seed-1029-*.
struct matmul_constant_first
    : rc::quirk<"matmul_constant_first", rc::by_rule<constant_first_matmul>> {
  static constexpr std::string_view summary =
      "a MatMul whose first input is a constant and second computed fails to load";
  static constexpr std::string_view reason = "OpenCV 4.6 takes MatMul's first input computed only";
  static constexpr std::string_view remedy = "in 2-D, convert writes it transposed";
  static bool found(const site& s) {
    return s.op() == "MatMul" && s.model.constant(s.input(0)) && !s.model.constant(s.input(1));
  }
  static bool fixable(const site& s) {
    const auto a = s.model.rank(s.input(0)), b = s.model.rank(s.input(1));
    return a && b && *a == 2 && *b == 2;
  }
};

// tests/data/differential/seed-1023-*: C of one element fails to load; a C of [N, 1] where
// M = N loads and adds per column what is due per row; alpha and beta are ignored.
struct gemm_scales_and_bias : rc::quirk<"gemm_scales_and_bias", rc::by_rule<gemm_scales_folded>> {
  static constexpr std::string_view summary =
      "Gemm ignores alpha and beta (no error: wrong numbers), fails on transA and on a B of "
      "[K, N] with a bias, and takes C as "
      "one value per output column only ([N] or [1, N]): others fail to load, or add by columns "
      "what is due by rows";
  static constexpr std::string_view remedy =
      "with B constant, convert folds alpha into B and beta into C, transposes A first, and "
      "repeats a C of one value";
  static bool scaled(const site& s) {
    const auto alpha = s.node.attribute("alpha"), beta = s.node.attribute("beta");
    return (alpha && alpha->f() != 1.0f) || (!s.input(2).empty() && beta && beta->f() != 1.0f);
  }
  static bool bias_shaped_wrong(const site& s) {
    if (s.input(2).empty()) return false;
    const auto c = s.model.static_shape(s.input(2));
    const auto y = s.model.static_shape(s.node.output(0));
    if (!c || !y || y->size() != 2) return true;
    const auto n = (*y)[1];
    return !(*c == std::vector<std::int64_t>{n} || *c == std::vector<std::int64_t>{1, n});
  }
  static bool transposed_a(const site& s) {
    const auto t = s.node.attribute("transA");
    return t && t->i() != 0;
  }
  // A B of [K, N] with a bias fails to load (torch writes [N, K], transB = 1).
  static bool b_not_transposed(const site& s) {
    const auto t = s.node.attribute("transB");
    return !s.input(2).empty() && !(t && t->i() != 0);
  }
  static bool found(const site& s) {
    return s.op() == "Gemm" &&
           (scaled(s) || bias_shaped_wrong(s) || transposed_a(s) || b_not_transposed(s));
  }
  static std::string reason(const site& s) {
    if (transposed_a(s)) return "OpenCV 4.6 fails on Gemm's transA when the net runs";
    if (b_not_transposed(s)) return "OpenCV 4.6 takes Gemm's B with a bias as [N, K] only";
    return scaled(s) ? "OpenCV 4.6 ignores Gemm's alpha and beta"
                     : "OpenCV 4.6 takes Gemm's C as one value per output column only ([N] or "
                       "[1, N])";
  }
  static bool fixable(const site& s) {
    if (!s.model.constant(s.input(1))) return false;
    if (s.input(2).empty()) return true;
    const ir::tensor_view c = s.model.constant(s.input(2));
    return c && (c.element_count() == 1 || !bias_shaped_wrong(s));
  }
};

// tests/data/differential/seed-1028-*, seed-5014-*: values of 1e37 that change between runs.
struct cumsum_off_last_axis : rc::quirk<"cumsum_off_last_axis", rc::by_rule<cumsum_on_last_axis>> {
  static constexpr std::string_view summary =
      "CumSum is right only along the last axis, written from the front, and not exclusive "
      "(others: wrong numbers, no error; a reverse one can corrupt the heap)";
  static constexpr std::string_view remedy =
      "not exclusive, convert sums along the last axis between two Transposes";
  static std::optional<std::int64_t> written_axis(const site& s) {
    const ir::tensor_view t = s.model.constant(s.input(1));
    if (!t || t.element_count() != 1) return std::nullopt;
    return ints_of(t).front();
  }
  static bool found(const site& s) {
    if (s.op() != "CumSum") return false;
    const auto exclusive = s.node.attribute("exclusive");
    if (exclusive && exclusive->i() != 0) return true;
    const auto r = s.model.rank(s.input(0));
    const auto a = written_axis(s);
    if (!r || !a) return true;
    return *a != static_cast<std::int64_t>(*r) - 1;
  }
  static std::string reason(const site& s) {
    const auto exclusive = s.node.attribute("exclusive");
    return exclusive && exclusive->i() != 0
               ? "OpenCV 4.6's exclusive CumSum is wrong after a computed op"
               : "OpenCV 4.6's CumSum is wrong but along the last axis written from the front";
  }
  static bool fixable(const site& s) {
    const auto exclusive = s.node.attribute("exclusive");
    return !(exclusive && exclusive->i() != 0) && s.model.rank(s.input(0)) && written_axis(s);
  }
};

// tests/data/differential/seed-1027-* (a negative axis: heap corruption), seed-1006-*.
struct gather_computed
    : rc::quirk<"gather_computed", rc::by_rule<gather_from_front, gather_one_as_slice>> {
  static constexpr std::string_view summary =
      "a Gather from a computed tensor takes one index, and its axis and index from the front "
      "(a negative axis corrupts the heap)";
  static constexpr std::string_view remedy = "of one index, convert writes both from the front";
  static bool found(const site& s) {
    if (s.op() != "Gather" || s.model.constant(s.input(0))) return false;
    const ir::tensor_view i = s.model.constant(s.input(1));
    if (!i) return false;  // parameter_computed's
    const auto axis = s.node.attribute("axis");
    const auto index = ints_of(i);
    return index.size() != 1 || index.front() < 0 || (axis && axis->i() < 0);
  }
  static std::string reason(const site& s) {
    return ir::tensor_view(s.model.constant(s.input(1))).element_count() != 1
               ? "OpenCV 4.6 gathers one index from a computed tensor"
               : "OpenCV 4.6 gathers with an axis and an index counted from the front only";
  }
  static bool fixable(const site& s) {
    return ir::tensor_view(s.model.constant(s.input(1))).element_count() == 1 &&
           s.model.static_shape(s.input(0)).has_value();
  }
};

// tests/data/differential/seed-9609-*, seed-9641-*, seed-9816-*.
struct gather_index_tensor : rc::quirk<"gather_index_tensor", rc::by_rule<gather_one_as_slice>> {
  static constexpr std::string_view summary =
      "a Gather of one index held in a tensor (shape [1], not a scalar) from a computed tensor "
      "of 2 dims or more, or of shape [1, 1] from a 1-D one, drops the axis as for a scalar "
      "index: a wrong shape, no error";
  static constexpr std::string_view reason =
      "OpenCV 4.6 drops the gathered axis whatever the index's rank";
  static constexpr std::string_view remedy = "convert writes it as a Slice of the axis";
  static bool found(const site& s) {
    if (s.op() != "Gather" || s.model.constant(s.input(0))) return false;
    const ir::tensor_view i = s.model.constant(s.input(1));
    const auto in = s.model.static_shape(s.input(0));
    // Of a 1-D input, a [1] index is gathered right; one of more dims ([1, 1]) loses them
    // (tests/data/differential/seed-1795936576-*: the Reshape after it then fails to load).
    return i && i.element_count() == 1 && !i.dims().empty() && in &&
           (in->size() >= 2 || i.dims().size() > 1);
  }
};

// The corpus's dynamic Swin (q, k, v = qkv[0], qkv[1], qkv[2]): at a batch of 3 the Reshape
// OpenCV makes of the Gather fails, its shape [16, 1, 16, 16] fixed at a batch of 1.
struct gather_scalar_shape_at_load
    : rc::quirk<"gather_scalar_shape_at_load", rc::by_rule<gather_one_as_slice>> {
  static constexpr std::string_view summary =
      "a Gather of a scalar index from a computed tensor, in a model with open dims (a dynamic "
      "batch), drops the axis by a Reshape to the shape computed when loading, at a batch of 1: "
      "at another batch it fails to run";
  static constexpr std::string_view reason =
      "OpenCV 4.6 drops a scalar Gather's axis by a shape it fixes when loading, at a batch of 1";
  static constexpr std::string_view remedy =
      "convert writes it as a Slice of the axis and a Reshape that holds for any batch";
  static bool found(const site& s) {
    if (s.op() != "Gather" || !ir::at_trial_sizes(s.model) || s.model.constant(s.input(0)))
      return false;
    const ir::tensor_view i = s.model.constant(s.input(1));
    const auto in = s.model.static_shape(s.input(0));
    return i && i.element_count() == 1 && i.dims().empty() && (!in || in->size() >= 2);
  }
  static bool fixable(const site& s) { return s.model.static_shape(s.input(0)).has_value(); }
};

// The corpus's dynamic MaxViT (the classifier's LayerNorm over [N, C]): at a batch of 3 the
// Reshape OpenCV ends the ReduceMean with fails, its shape [1, 1] fixed at a batch of 1;
// probed for ReduceMean, ReduceMax, ReduceMin and ReduceProd, and wrong numbers along axis 0.
struct reduce_2d_at_load_size
    : rc::quirk<"reduce_2d_at_load_size",
                rc::by_rule<reduce_mean_2d_lifted, reduce_max_2d_lifted, reduce_min_2d_lifted,
                            reduce_prod_2d_lifted>> {
  static constexpr std::string_view summary =
      "a ReduceMean, ReduceMax, ReduceMin or ReduceProd of a 2-D computed tensor, in a model "
      "with open dims (a dynamic batch), ends with a Reshape to the shape computed when loading, "
      "at a batch of 1: at another batch it fails to run (along axis 0, wrong numbers)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 reshapes a 2-D reduction's result to a shape it fixes when loading, at a "
      "batch of 1";
  static constexpr std::string_view remedy =
      "along axis 1, convert reduces it as [N, 1, C], whose result OpenCV reshapes by the batch";
  static bool found(const site& s) {
    if (!reduces_with_shape_at_load(s.op()) || !ir::at_trial_sizes(s.model) ||
        s.model.constant(s.input(0)))
      return false;
    const auto in = s.model.static_shape(s.input(0));
    return in && in->size() == 2;
  }
  static bool fixable(const site& s) {
    return s.model.opset() < 18 && reduced_axes(s.node, 2) == std::vector<std::int64_t>{1};
  }
};

// tests/data/differential/seed-1017-* (asymmetric pads), seed-5101-* (dilations: a wrong
// shape), seed-5071-* (SAME at stride 2: a wrong shape).
struct conv_transpose_unsupported : rc::quirk<"conv_transpose_unsupported"> {
  static constexpr std::string_view summary =
      "ConvTranspose ignores dilations and output_shape, pads SAME wrongly at strides above 1 "
      "or with an even kernel (no error: wrong shapes or numbers), fails with pads that differ "
      "at the two ends of an axis, and runs in 2-D only";
  static std::optional<std::string> why(const site& s) {
    const auto ints = [&](const char* name) {
      const auto a = s.node.attribute(name);
      return a ? a->ints() : std::vector<std::int64_t>{};
    };
    const auto r = s.model.rank(s.input(0));
    if (!r || *r != 4) return "OpenCV 4.6 computes ConvTranspose in 2-D only";
    const auto dilations = ints("dilations");
    if (std::any_of(dilations.begin(), dilations.end(), [](auto d) { return d != 1; }))
      return "OpenCV 4.6 ignores ConvTranspose's dilations";
    if (s.node.attribute("output_shape")) return "OpenCV 4.6 ignores ConvTranspose's output_shape";
    const auto pads = ints("pads");
    for (std::size_t i = 0; i < pads.size() / 2; ++i)
      if (pads[i] != pads[pads.size() / 2 + i])
        return "OpenCV 4.6 pads a ConvTranspose the same at both ends of an axis only";
    if (const auto a = s.node.attribute("auto_pad"); a && a->s().starts_with("SAME")) {
      const auto strides = ints("strides"), kernel = ints("kernel_shape");
      if (std::any_of(strides.begin(), strides.end(), [](auto x) { return x != 1; }) ||
          std::any_of(kernel.begin(), kernel.end(), [](auto k) { return k % 2 == 0; }))
        return "OpenCV 4.6 pads ConvTranspose's SAME wrongly at strides above 1 or with an even "
               "kernel";
    }
    return std::nullopt;
  }
  static bool found(const site& s) { return s.op() == "ConvTranspose" && why(s).has_value(); }
  static std::string reason(const site& s) { return *why(s); }
};

// tests/data/differential/seed-10597-*: a linear Resize at opset 17 with every attribute left
// at its default. Measured: written out, half_pixel, pytorch_half_pixel, align_corners and
// asymmetric each run right at whole scaled lengths, up and down.
struct resize_linear_default_coordinates
    : rc::quirk<"resize_linear_default_coordinates",
                rc::by_rule<resize_linear_coordinates_written>> {
  static constexpr std::string_view summary =
      "Resize in linear mode without its coordinate_transformation_mode written (half_pixel by "
      "default) fails to load";
  static constexpr std::string_view reason =
      "OpenCV 4.6 reads a linear Resize only with its coordinate_transformation_mode written";
  static constexpr std::string_view remedy = "convert writes the default, half_pixel";
  static bool found(const site& s) {
    const auto mode = s.node.attribute("mode");
    return s.op() == "Resize" && s.model.opset() >= 11 && mode && mode->s() == "linear" &&
           !s.node.attribute("coordinate_transformation_mode");
  }
};

// tests/data/differential/seed-11143-*: [3, 4, 7, 7] scaled by 0.5 along the last axis.
struct resize_scale_not_whole : rc::quirk<"resize_scale_not_whole"> {
  static constexpr std::string_view summary =
      "Resize in linear mode by a scale that makes a length that is not whole (7 x 0.5) maps "
      "coordinates by the output's length over the input's, not by the scale (no error: wrong "
      "numbers; align_corners, which reads the lengths only, is right)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 resizes by the output's length over the input's, and this scale differs";
  static bool found(const site& s) {
    const auto mode = s.node.attribute("mode");
    const auto coordinates = s.node.attribute("coordinate_transformation_mode");
    if (s.op() != "Resize" || s.model.opset() < 11 || !mode || mode->s() != "linear") return false;
    if (coordinates && coordinates->s() == "align_corners") return false;
    const auto in = s.model.static_shape(s.input(0));
    const ir::tensor_view scales = s.model.constant(s.input(2));
    if (!in || !scales) return false;
    const auto factor = ir::values_as_double(scales);
    if (factor.size() != in->size()) return false;
    for (std::size_t i = 0; i < in->size(); ++i) {
      const auto length =
          static_cast<double>((*in)[i]) * static_cast<double>(static_cast<float>(factor[i]));
      if (length != std::floor(length)) return true;
    }
    return false;
  }
};

// tests/data/differential/seed-1795931986-*: a [3, 2, 3, 5] resized to [3, 2, 3, 1].
struct resize_to_one_pytorch_half_pixel
    : rc::quirk<"resize_to_one_pytorch_half_pixel", rc::by_rule<resize_to_one_sliced>> {
  static constexpr std::string_view summary =
      "Resize in linear mode with pytorch_half_pixel coordinates samples an axis shrunk to a "
      "length of 1 at its centre, where ONNX takes its first element (no error: wrong numbers)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 maps pytorch_half_pixel as half_pixel, also to a length of 1";
  static constexpr std::string_view remedy = "convert slices those axes to their first element";
  static bool found(const site& s) {
    if (s.op() != "Resize" || s.model.opset() < 11) return false;
    const auto mode = s.node.attribute("mode");
    const auto coordinates = s.node.attribute("coordinate_transformation_mode");
    if (!mode || mode->s() != "linear" || !coordinates || coordinates->s() != "pytorch_half_pixel")
      return false;
    const auto in = s.model.static_shape(s.input(0));
    if (!in) return false;
    const auto out =
        resized_lengths(*in, s.model.constant(s.input(2)), s.model.constant(s.input(3)));
    return shrinks_to_one(*in, out);
  }
};

// tests/data/differential/seed-5006-*: nearest_mode is ignored, and half_pixel is taken as
// asymmetric.
struct resize_nearest_modes : rc::quirk<"resize_nearest_modes"> {
  static constexpr std::string_view summary =
      "Resize in nearest mode computes asymmetric with floor, or align_corners with "
      "round_prefer_ceil, whatever the model asks; half_pixel comes out right at whole-number "
      "upscales only (no error: wrong numbers)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 ignores Resize's nearest_mode and its half_pixel coordinates here";
  static std::string text(const site& s, const char* name, const char* fallback) {
    const auto a = s.node.attribute(name);
    return a ? a->s() : fallback;
  }
  // Every spatial axis upscaled by a whole number.
  static bool whole_upscale(const site& s) {
    const auto in = s.model.static_shape(s.input(0));
    const auto out = s.model.static_shape(s.node.output(0));
    if (!in || !out || in->size() != out->size()) return false;
    for (std::size_t i = 0; i < in->size(); ++i)
      if ((*in)[i] == 0 || (*out)[i] % (*in)[i] != 0) return false;
    return true;
  }
  static bool found(const site& s) {
    if (s.op() != "Resize" || text(s, "mode", "nearest") != "nearest") return false;
    if (s.model.opset() < 11) return false;  // asymmetric and floor then
    const auto coordinates = text(s, "coordinate_transformation_mode", "half_pixel");
    const auto rounding = text(s, "nearest_mode", "round_prefer_floor");
    if (coordinates == "asymmetric" && rounding == "floor") return false;
    if (coordinates == "align_corners" && rounding == "round_prefer_ceil") return false;
    if ((coordinates == "half_pixel" || coordinates == "pytorch_half_pixel") &&
        rounding.starts_with("round_prefer") && whole_upscale(s))
      return false;
    return true;
  }
};

// tests/data/differential/seed-1015-*, seed-1021-*: edge padding of a 3-D and a 1-D tensor.
struct pad_mode_outside_2d : rc::quirk<"pad_mode_outside_2d"> {
  static constexpr std::string_view summary =
      "Pad in edge or reflect mode works on the last two axes of a 4-D tensor only (others fail "
      "when the net runs)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 pads in edge or reflect mode the last two axes of a 4-D tensor only";
  static bool found(const site& s) {
    if (s.op() != "Pad") return false;
    const auto mode = s.node.attribute("mode");
    if (!mode || mode->s() == "constant") return false;
    const auto r = s.model.rank(s.input(0));
    if (!r || *r != 4) return true;
    std::vector<std::int64_t> pads;
    if (const auto a = s.node.attribute("pads")) {
      pads = a->ints();
    } else if (const ir::tensor_view t = s.model.constant(s.input(1))) {
      pads = ints_of(t);
    } else {
      return true;
    }
    // [b0, b1, b2, b3, e0, e1, e2, e3]: axes 0 and 1 unpadded.
    return pads.size() != 8 || pads[0] || pads[1] || pads[4] || pads[5];
  }
};

// tests/data/differential/seed-9466-*: a [1, 3, 1, 1] padded by 2 at both ends of axis 2.
struct edge_pad_wider_than_input
    : rc::quirk<"edge_pad_wider_than_input", rc::by_rule<edge_pad_in_steps>> {
  static constexpr std::string_view summary =
      "Pad in edge mode by more than the input's length at an end fails when the net runs";
  static constexpr std::string_view reason =
      "OpenCV 4.6 pads in edge mode by at most the input's length at each end";
  static constexpr std::string_view remedy =
      "convert pads in steps, each at most the length padded so far";
  static bool found(const site& s) {
    if (s.op() != "Pad") return false;
    const auto mode = s.node.attribute("mode");
    const auto in = s.model.static_shape(s.input(0));
    const ir::tensor_view t = s.model.constant(s.input(1));
    return mode && mode->s() == "edge" && in && t && pads_beyond_length(ints_of(t), *in);
  }
};

// More of what a quarter of an hour of the differential generator found (seeds 7000 on), each
// refused with its reason; the first model of each kind is in tests/data/differential.
struct unsupported_forms : rc::quirk<"unsupported_forms"> {
  static constexpr std::string_view summary =
      "Split into unequal parts given as an input, Slice with a negative step, Resize outside 4-D, "
      "a MatMul by a "
      "constant of more than 2 dims, a Gemm of a constant A, Pow by a non-scalar exponent, "
      "Min and Max of more than two inputs with constants, a reduction of a 1-D tensor, PRelu "
      "with a slope along another axis than the channels (wrong numbers, no error), and "
      "InstanceNormalization without its epsilon written fail to load";
  static std::optional<std::string> why(const site& s) {
    const auto& m = s.model;
    const auto& op = s.op();
    const auto rank = [&](std::size_t k) { return m.rank(s.input(k)); };
    const auto ints = [&](std::size_t k) -> std::optional<std::vector<std::int64_t>> {
      if (s.input(k).empty()) return std::nullopt;
      const ir::tensor_view t = m.constant(s.input(k));
      if (!t) return std::nullopt;
      return ints_of(t);
    };
    if (op == "Split") {
      // As an input (opset 13 on); the attribute's unequal parts load (pytorch-operator/
      // test_operator_chunk).
      if (const auto parts = ints(1);
          parts &&
          std::any_of(parts->begin(), parts->end(), [&](auto p) { return p != parts->front(); }))
        return "OpenCV 4.6 splits into equal parts only, given as an input";
    }
    if (op == "Slice") {
      if (const auto steps = ints(4);
          steps && std::any_of(steps->begin(), steps->end(), [](auto x) { return x < 0; }))
        return "OpenCV 4.6 slices with positive steps only";
    }
    if (op == "Resize" || op == "Upsample") {
      if (const auto r = rank(0); !r || *r != 4) return "OpenCV 4.6 resizes 4-D tensors only";
    }
    if (op == "MatMul" && m.constant(s.input(1)) && !m.constant(s.input(0))) {
      if (const auto r = rank(1); r && *r > 2)
        return "OpenCV 4.6 multiplies by a stored constant of 2 dims only";
    }
    if (op == "Gemm" && m.constant(s.input(0))) return "OpenCV 4.6 takes Gemm's A computed only";
    if (op == "Pow" && m.constant(s.input(1)) &&
        ir::tensor_view(m.constant(s.input(1))).element_count() != 1)
      return "OpenCV 4.6 raises to a single exponent only";
    if ((op == "Min" || op == "Max") && s.node.input_count() > 2)
      for (const auto& in : s.node.inputs())
        if (m.constant(in))
          return "OpenCV 4.6's " + op + " of more than two inputs takes no constant";
    if (op.starts_with("Reduce")) {
      if (const auto r = rank(0); r && *r == 1) return "OpenCV 4.6 cannot reduce a 1-D tensor";
    }
    if (op == "PRelu" && m.opset() >= 7) {  // before, a slope of [C] was the channels'

      const auto x = m.static_shape(s.input(0)), slope = m.static_shape(s.input(1));
      if (!x || !slope) return "OpenCV 4.6 applies PRelu's slope along the channels only";
      if (ir::element_count(*slope) != 1) {
        // Right-aligned to x: every dim 1 but the channels'.
        const auto offset =
            static_cast<std::ptrdiff_t>(x->size()) - static_cast<std::ptrdiff_t>(slope->size());
        for (std::size_t i = 0; i < slope->size(); ++i) {
          const auto axis = offset + static_cast<std::ptrdiff_t>(i);
          if ((*slope)[i] != 1 && axis != 1)
            return "OpenCV 4.6 applies PRelu's slope along the channels only";
        }
      }
    }
    if (op == "InstanceNormalization" && !s.node.attribute("epsilon"))
      return "OpenCV 4.6 needs InstanceNormalization's epsilon written";
    return std::nullopt;
  }
  static bool found(const site& s) { return why(s).has_value(); }
  static std::string reason(const site& s) { return *why(s); }
};

// Softmax and LogSoftmax before opset 13 take the input as 2-D from their axis on; OpenCV 4.6
// computes them along the axis alone.
struct softmax_coerced_to_2d : rc::quirk<"softmax_coerced_to_2d"> {
  static constexpr std::string_view summary =
      "Softmax and LogSoftmax before opset 13 on an axis other than the last give wrong numbers "
      "(OpenCV normalizes along the axis alone, ONNX over every axis from it on; no error)";
  static std::string reason(const site& s) {
    return "OpenCV 4.6 computes " + s.op() + " along its axis alone, and opset " +
           std::to_string(s.model.opset()) + " asks for every axis from it on";
  }
  static bool found(const site& s) {
    if ((s.op() != "Softmax" && s.op() != "LogSoftmax") || s.model.opset() >= 13) return false;
    const auto shape = s.model.static_shape(s.input(0));
    if (!shape) return true;
    const auto a = s.node.attribute("axis");
    auto axis = a ? a->i() : 1;
    if (axis < 0) axis += static_cast<std::int64_t>(shape->size());
    std::int64_t after = 1;
    for (auto i = static_cast<std::size_t>(axis) + 1; i < shape->size(); ++i) after *= (*shape)[i];
    return after != 1;
  }
};

// node/test_maxpool_2d_dilations: a [1, 1, 3, 3] output where [1, 1, 2, 2] is due.
struct pool_dilations : rc::quirk<"pool_dilations"> {
  static constexpr std::string_view summary =
      "pooling ignores dilations (node/test_maxpool_2d_dilations; no error: wrong numbers)";
  static constexpr std::string_view reason = "OpenCV 4.6 ignores pooling's dilations";
  static bool found(const site& s) {
    if (s.op() != "MaxPool" && s.op() != "AveragePool") return false;
    const auto d = s.node.attribute("dilations");
    if (!d) return false;
    const auto v = d->ints();
    return std::any_of(v.begin(), v.end(), [](auto x) { return x != 1; });
  }
};

// Outputs OpenCV does not compute: MaxPool's indices, Dropout's mask (a crash at run time).
struct second_output_not_computed : rc::quirk<"second_output_not_computed"> {
  static constexpr std::string_view summary =
      "MaxPool's indices and Dropout's mask are not computed (node/test_maxpool_with_argmax_*, "
      "node/test_dropout_default_mask*)";
  static bool found(const site& s) {
    return (s.op() == "MaxPool" || s.op() == "Dropout") && s.node.output_count() > 1 &&
           !s.node.output(1).empty();
  }
  static std::string reason(const site& s) {
    return "OpenCV 4.6 does not compute " + s.op() + "'s " +
           (s.op() == "MaxPool" ? "indices" : "mask");
  }
};

// OpenCV computes in float32 and keeps no float16 or bfloat16 (node/test_cast_FLOAT_to_BFLOAT16).
struct cast_to_half : rc::quirk<"cast_to_half"> {
  static constexpr std::string_view summary =
      "a Cast to float16 or bfloat16 is refused: OpenCV computes in float32";
  static constexpr std::string_view reason =
      "OpenCV 4.6 computes in float32: a Cast to float16 or bfloat16 is not done";
  static bool found(const site& s) {
    if (s.op() != "Cast") return false;
    const auto to = s.node.attribute("to");
    return to && (static_cast<ir::dtype>(to->i()) == ir::dtype::f16 ||
                  static_cast<ir::dtype>(to->i()) == ir::dtype::bf16);
  }
};

// OpenCV 4.6 takes a reduction's axes only as an attribute, as before opset 13's ReduceSum
// (node/test_reduce_sum_*; the importer fuses Exp, ReduceSum and Div into a softmax whole);
// GRU only with all six inputs listed (node/test_gru_*).
struct inputs_not_taken : rc::quirk<"inputs_not_taken">, fused_softmax_nodes {
  static constexpr std::string_view summary =
      "ReduceSum with its axes as an input (opset 13; but in a softmax the importer fuses whole) "
      "and GRU with fewer than six inputs are refused (node/test_reduce_sum_*, node/test_gru_*)";
  static bool found(const site& s, const facts& fused) {
    return (s.op() == "ReduceSum" && s.node.input_count() > 1 && !s.input(1).empty() &&
            !fused[static_cast<std::size_t>(s.index)]) ||
           (s.op() == "GRU" && s.node.input_count() < 6);
  }
  static std::string reason(const site& s, const facts&) {
    return s.op() == "GRU" ? "OpenCV 4.6 takes GRU with all six inputs only"
                           : "OpenCV 4.6 takes ReduceSum's axes only as an attribute";
  }
};

// Silent: OpenCV takes the default axis as 1; the rules' own condition finds it.
struct softmax_default_axis
    : rc::quirk<"softmax_default_axis", rc::by_rule<softmax_axis_written_out>> {
  static constexpr std::string_view summary =
      "Softmax from opset 13 on without an axis uses axis 1, not the last "
      "(node/test_softmax_default_axis; no error: wrong numbers)";
};
struct log_softmax_default_axis
    : rc::quirk<"log_softmax_default_axis", rc::by_rule<log_softmax_axis_written_out>> {
  static constexpr std::string_view summary =
      "LogSoftmax from opset 13 on without an axis uses axis 1, not the last "
      "(node/test_logsoftmax_default_axis; no error: wrong numbers)";
};

// Silent: a 1-D Concat on axis -1 (node/test_concat_1d_axis_negative_1).
struct concat_negative_axis
    : rc::quirk<"concat_negative_axis", rc::by_rule<concat_axis_from_front>> {
  static constexpr std::string_view summary =
      "a Concat on a negative axis joins 1-D inputs wrongly (node/test_concat_1d_axis_negative_1; "
      "no error: wrong numbers)";
};

// Silent: node/test_averagepool_2d_pads_count_include_pad; tests/data/differential/seed-51230-*
// (auto_pad SAME_UPPER).
struct average_pool_counts_padding
    : rc::quirk<"average_pool_counts_padding",
                rc::by_rule<average_pool_same_upper_written, average_pool_padded_first>> {
  static constexpr std::string_view summary =
      "average pooling with count_include_pad and pads, written or from auto_pad SAME_UPPER, "
      "leaves the padding out of the count (node/test_averagepool_2d_pads_count_include_pad; no "
      "error: wrong numbers)";
};

// Silent: tests/data/differential/seed-1795927484-* (an AveragePool's [5, 1, 3, 5] where
// [5, 1, 4, 5] is due, then a Reshape of 100 elements fails to load).
struct valid_pool_rounded_down
    : rc::quirk<"valid_pool_rounded_down",
                rc::by_rule<max_pool_valid_pads_written, average_pool_valid_pads_written>> {
  static constexpr std::string_view summary =
      "MaxPool and AveragePool with auto_pad VALID round the output length down even with "
      "ceil_mode (no error: a wrong shape)";
};

// Silent: node/test_maxpool_2d_same_lower, node/test_averagepool_2d_same_lower.
struct max_pool_same_lower_pads
    : rc::quirk<"max_pool_same_lower_pads", rc::by_rule<max_pool_same_lower>> {
  static constexpr std::string_view summary =
      "MaxPool with auto_pad SAME_LOWER pads as SAME_UPPER does "
      "(node/test_maxpool_2d_same_lower; no error: wrong numbers)";
};
struct average_pool_same_lower_pads
    : rc::quirk<"average_pool_same_lower_pads", rc::by_rule<average_pool_same_lower>> {
  static constexpr std::string_view summary =
      "AveragePool with auto_pad SAME_LOWER pads as SAME_UPPER does "
      "(node/test_averagepool_2d_same_lower; no error: wrong numbers)";
};
// tests/data/differential/seed-9183-*, seed-10062-*.
struct conv_same_lower_pads : rc::quirk<"conv_same_lower_pads", rc::by_rule<conv_same_lower>> {
  static constexpr std::string_view summary =
      "Conv with auto_pad SAME_LOWER pads as SAME_UPPER does (no error: wrong numbers)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 pads a Conv with auto_pad SAME_LOWER as for SAME_UPPER (no error: wrong "
      "numbers)";
  static constexpr std::string_view remedy =
      "over a static shape, convert writes the pads out, the extra one first";
  static bool found(const site& s) {
    const auto a = s.node.attribute("auto_pad");
    if (s.op() != "Conv" || !a || a->s() != "SAME_LOWER") return false;
    // Where each axis is padded by an even total, SAME_LOWER pads as SAME_UPPER does
    // (node/test_conv_with_autopad_same runs right as written).
    const auto x = s.model.static_shape(s.input(0)), w = s.model.static_shape(s.input(1));
    if (!x || !w || x->size() != w->size()) return true;
    const auto ints = [&](const char* name) {
      const auto at = s.node.attribute(name);
      return at ? at->ints() : std::vector<std::int64_t>(x->size() - 2, 1);
    };
    const auto strides = ints("strides"), dilations = ints("dilations");
    for (std::size_t i = 0; i + 2 < x->size(); ++i)
      if (same_total_pad((*x)[i + 2], ((*w)[i + 2] - 1) * dilations[i] + 1, strides[i]) % 2 != 0)
        return true;
    return false;
  }
  static bool fixable(const site& s) {
    return s.model.static_shape(s.input(0)) && s.model.static_shape(s.input(1)) &&
           s.model.constant(s.input(1));
  }
};

}  // namespace retarget::backends::opencv_dnn_convert::quirks

// In the order a node's refusals are listed; the rules come in this order too.
template <>
struct retarget::convert::quirks_for<retarget::backends::opencv_dnn>
    : retarget::convert::quirk_list<
          retarget::backends::opencv_dnn_convert::quirks::absent_last_input,
          retarget::backends::opencv_dnn_convert::quirks::identity_of_weight,
          retarget::backends::opencv_dnn_convert::quirks::no_layer_normalization,
          retarget::backends::opencv_dnn_convert::quirks::no_einsum,
          retarget::backends::opencv_dnn_convert::quirks::no_layer,
          retarget::backends::opencv_dnn_convert::quirks::layer_over_constants_only,
          retarget::backends::opencv_dnn_convert::quirks::no_mean,
          retarget::backends::opencv_dnn_convert::quirks::clip_bounds_as_inputs,
          retarget::backends::opencv_dnn_convert::quirks::cubic_resize_by_whole_factor,
          retarget::backends::opencv_dnn_convert::quirks::cubic_resize,
          retarget::backends::opencv_dnn_convert::quirks::expand_to_lower_rank,
          retarget::backends::opencv_dnn_convert::quirks::expand_shape_computed,
          retarget::backends::opencv_dnn_convert::quirks::expand_other_axes,
          retarget::backends::opencv_dnn_convert::quirks::computed_single_element,
          retarget::backends::opencv_dnn_convert::quirks::last_axis_vector,
          retarget::backends::opencv_dnn_convert::quirks::constant_of_the_batch,
          retarget::backends::opencv_dnn_convert::quirks::concat_outside_4d,
          retarget::backends::opencv_dnn_convert::quirks::import_time_arithmetic,
          retarget::backends::opencv_dnn_convert::quirks::import_time_gather,
          retarget::backends::opencv_dnn_convert::quirks::leading_ones_constant,
          retarget::backends::opencv_dnn_convert::quirks::input_not_float32,
          retarget::backends::opencv_dnn_convert::quirks::float64_constant,
          retarget::backends::opencv_dnn_convert::quirks::other_domain,
          retarget::backends::opencv_dnn_convert::quirks::parameter_computed,
          retarget::backends::opencv_dnn_convert::quirks::eltwise_below_2d,
          retarget::backends::opencv_dnn_convert::quirks::computed_broadcast_across_ranks,
          retarget::backends::opencv_dnn_convert::quirks::comparison_broadcasts_constant,
          retarget::backends::opencv_dnn_convert::quirks::computed_broadcast,
          retarget::backends::opencv_dnn_convert::quirks::computed_broadcast_open_dims,
          retarget::backends::opencv_dnn_convert::quirks::three_inputs_broadcast,
          retarget::backends::opencv_dnn_convert::quirks::constant_along_axis_0,
          retarget::backends::opencv_dnn_convert::quirks::constant_broadcast,
          retarget::backends::opencv_dnn_convert::quirks::pads_differ_on_one_axis,
          retarget::backends::opencv_dnn_convert::quirks::average_pool_counts_padding_rounded_up,
          retarget::backends::opencv_dnn_convert::quirks::window_wider_than_input,
          retarget::backends::opencv_dnn_convert::quirks::concat_constant_on_batch,
          retarget::backends::opencv_dnn_convert::quirks::concat_1d_computed,
          retarget::backends::opencv_dnn_convert::quirks::max_min_with_constant,
          retarget::backends::opencv_dnn_convert::quirks::constant_widens_input,
          retarget::backends::opencv_dnn_convert::quirks::constant_after_convolution,
          retarget::backends::opencv_dnn_convert::quirks::divisor_shared,
          retarget::backends::opencv_dnn_convert::quirks::channel_op_fused_wrongly,
          retarget::backends::opencv_dnn_convert::quirks::scale_fused_into_power,
          retarget::backends::opencv_dnn_convert::quirks::concat_constant_with_input,
          retarget::backends::opencv_dnn_convert::quirks::instance_norm_batch,
          retarget::backends::opencv_dnn_convert::quirks::batch_norm_after_matmul,
          retarget::backends::opencv_dnn_convert::quirks::flatten_at_rank,
          retarget::backends::opencv_dnn_convert::quirks::output_computed_at_load,
          retarget::backends::opencv_dnn_convert::quirks::output_without_shape,
          retarget::backends::opencv_dnn_convert::quirks::pool_dilations,
          retarget::backends::opencv_dnn_convert::quirks::conv_without_kernel_shape,
          retarget::backends::opencv_dnn_convert::quirks::global_pool_above_4d,
          retarget::backends::opencv_dnn_convert::quirks::squeeze_not_taken,
          retarget::backends::opencv_dnn_convert::quirks::unsqueeze_not_taken,
          retarget::backends::opencv_dnn_convert::quirks::softmax_1d,
          retarget::backends::opencv_dnn_convert::quirks::sum_of_constants,
          retarget::backends::opencv_dnn_convert::quirks::slice_axes_out_of_order,
          retarget::backends::opencv_dnn_convert::quirks::matmul_constant_first,
          retarget::backends::opencv_dnn_convert::quirks::gemm_scales_and_bias,
          retarget::backends::opencv_dnn_convert::quirks::cumsum_off_last_axis,
          retarget::backends::opencv_dnn_convert::quirks::gather_computed,
          retarget::backends::opencv_dnn_convert::quirks::gather_index_tensor,
          retarget::backends::opencv_dnn_convert::quirks::gather_scalar_shape_at_load,
          retarget::backends::opencv_dnn_convert::quirks::reduce_2d_at_load_size,
          retarget::backends::opencv_dnn_convert::quirks::conv_transpose_unsupported,
          retarget::backends::opencv_dnn_convert::quirks::resize_nearest_modes,
          retarget::backends::opencv_dnn_convert::quirks::resize_linear_default_coordinates,
          retarget::backends::opencv_dnn_convert::quirks::resize_scale_not_whole,
          retarget::backends::opencv_dnn_convert::quirks::resize_to_one_pytorch_half_pixel,
          retarget::backends::opencv_dnn_convert::quirks::pad_mode_outside_2d,
          retarget::backends::opencv_dnn_convert::quirks::edge_pad_wider_than_input,
          retarget::backends::opencv_dnn_convert::quirks::softmax_coerced_to_2d,
          retarget::backends::opencv_dnn_convert::quirks::unsupported_forms,
          retarget::backends::opencv_dnn_convert::quirks::second_output_not_computed,
          retarget::backends::opencv_dnn_convert::quirks::cast_to_half,
          retarget::backends::opencv_dnn_convert::quirks::inputs_not_taken,
          retarget::backends::opencv_dnn_convert::quirks::softmax_default_axis,
          retarget::backends::opencv_dnn_convert::quirks::log_softmax_default_axis,
          retarget::backends::opencv_dnn_convert::quirks::concat_negative_axis,
          retarget::backends::opencv_dnn_convert::quirks::average_pool_counts_padding,
          retarget::backends::opencv_dnn_convert::quirks::valid_pool_rounded_down,
          retarget::backends::opencv_dnn_convert::quirks::max_pool_same_lower_pads,
          retarget::backends::opencv_dnn_convert::quirks::average_pool_same_lower_pads,
          retarget::backends::opencv_dnn_convert::quirks::conv_same_lower_pads> {};

// The rules are the exact fixes the quirks name, in the list's order.
template <>
struct retarget::convert::rules_for<retarget::backends::opencv_dnn>
    : retarget::convert::rules_from_quirks<retarget::backends::opencv_dnn> {};

#endif  // RETARGET_BACKENDS_OPENCV_DNN_QUIRKS_HPP
