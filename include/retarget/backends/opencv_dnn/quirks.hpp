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
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <retarget/backends/opencv_dnn/node_rewrites.hpp>
#include <retarget/backends/opencv_dnn/rules.hpp>
#include <retarget/convert/evaluate.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/convert/rule.hpp>
#include <retarget/ir/domain.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
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

// Op types its ONNX importer has no layer for ("Can't create layer ... of type"), measured by
// tests/data/convert/opencv_op_types.py. (LayerNormalization, which it lacks too, is the
// quirk above.)
struct no_layer : rc::quirk<"no_layer", rc::by_folding> {
  // A table, kept as one.
  // clang-format off
  static constexpr std::string_view op_types[] = {
      "And", "Bernoulli", "BitShift", "BlackmanWindow", "CastLike", "Compress",
      "ConcatFromSequence", "ConvInteger", "DFT", "Det", "DynamicQuantizeLinear", "Einsum",
      "EyeLike", "GatherElements", "GatherND", "GlobalLpPool", "GreaterOrEqual", "GridSample",
      "HammingWindow", "HannWindow", "Hardmax", "If", "IsInf", "IsNaN", "LessOrEqual", "Loop",
      "LpNormalization", "LpPool", "MatMulInteger", "MaxRoiPool", "Mean",
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
      "74 op types have no layer (tests/data/convert/opencv_op_types.txt)";
  static constexpr std::string_view remedy = "its inputs are constants: convert folds it";
  static bool found(const site& s) {
    return std::find(std::begin(op_types), std::end(op_types), s.op()) != std::end(op_types);
  }
  static bool fixable(const site& s) {
    for (const auto& in : s.node.inputs())
      if (!in.empty() && !s.model.constant(in)) return false;
    return rc::can_evaluate(s.op());
  }
  static std::string reason(const site& s) { return "OpenCV 4.6 has no " + s.op() + " layer"; }
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

struct cubic_resize : rc::quirk<"cubic_resize", cubic_resize_as_linear> {
  static constexpr std::string_view summary = "Resize in cubic mode is refused";
  static constexpr std::string_view reason =
      "OpenCV 4.6 resizes in nearest and linear mode only, not cubic";
  static constexpr std::string_view remedy =
      "convert --approximate cubic_resize_as_linear makes it linear";
  static bool found(const site& s) {
    if (s.op() != "Resize") return false;
    const auto mode = s.node.attribute("mode");
    return mode && mode->s() == "cubic";
  }
};

struct expand_one_way : rc::quirk<"expand_one_way", rc::by_rule<expand_to_own_shape>> {
  static constexpr std::string_view summary =
      "Expand broadcasts one way only: an Expand to a smaller target shape than its input's is "
      "refused (torch's expand(n, -1, -1) once the -1s are folded to 1s)";
  static constexpr std::string_view reason =
      "OpenCV 4.6 expands one way only: the target shape is smaller than the input's";
  static constexpr std::string_view remedy = "convert drops an Expand to the input's own shape";
  static bool found(const site& s) {
    if (s.op() != "Expand") return false;
    const auto in = s.model.static_shape(s.input(0));
    const auto* target = s.model.constant(s.input(1));
    if (!in || !target) return false;
    const auto dims = ir::values_as_double(ir::tensor_view(target));
    const auto offset =
        static_cast<std::ptrdiff_t>(in->size()) - static_cast<std::ptrdiff_t>(dims.size());
    if (offset < 0) return !dims.empty();
    for (std::size_t k = 0; k < dims.size(); ++k)
      if (dims[k] == 1 && (*in)[static_cast<std::size_t>(offset) + k] != 1) return true;
    return false;
  }
};

struct expand_shape_computed : rc::quirk<"expand_shape_computed"> {
  static constexpr std::string_view summary = "Expand's shape must be a constant";
  static constexpr std::string_view reason = "OpenCV 4.6 needs Expand's shape as a constant";
  static bool found(const site& s) { return s.op() == "Expand" && !s.model.constant(s.input(1)); }
};

struct computed_single_element
    : rc::quirk<"computed_single_element", rc::by_rule<single_element_divisor>> {
  static constexpr std::string_view summary =
      "a computed single element is not broadcast over another computed input (LayerNorm2d's "
      "divisor at H = W = 1); a 1 x 1 by 1 x N MatMul with its reciprocal is";
  static constexpr std::string_view reason =
      "OpenCV 4.6 cannot broadcast a computed single element over another input";
  static bool found(const site& s) {
    if (s.op() != "Div" && s.op() != "Mul") return false;
    const auto& m = s.model;
    const auto a = m.static_shape(s.input(0)), b = m.static_shape(s.input(1));
    if (!a || !b || m.constant(s.input(0)) || m.constant(s.input(1)) || *a == *b) return false;
    return !b->empty() && std::all_of(b->begin(), b->end(), [](auto d) { return d == 1; });
  }
};

// Silent: OpenCV loads it and scales axis 1; the rule's own condition finds it.
struct last_axis_vector : rc::quirk<"last_axis_vector", rc::by_rule<last_axis_scale>> {
  static constexpr std::string_view summary =
      "a 3-D or 4-D tensor times a constant vector along its last axis is scaled along axis 1 "
      "(no error: wrong numbers)";
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
      if (std::find(std::begin(evaluated), std::end(evaluated), op) == std::end(evaluated) ||
          n.input_count() == 0)
        continue;
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

// A constant broadcast over an inner axis of a computed tensor of rank 5 or more (Swin-T's
// shifted-window mask over its heads, at full size) fails when the net runs.
struct inner_axis_broadcast : rc::quirk<"inner_axis_broadcast"> {
  static constexpr std::string_view summary =
      "a constant broadcast over an inner axis of a computed tensor of rank 5 or more fails at "
      "run time (full-size Swin-T's shifted-window mask)";
  static std::optional<std::size_t> rank(const site& s) {
    if (s.op() != "Add" && s.op() != "Sub" && s.op() != "Mul" && s.op() != "Div")
      return std::nullopt;
    const auto& m = s.model;
    for (std::size_t k = 0; k < 2 && k < s.node.input_count(); ++k) {
      const auto x = m.static_shape(s.input(k));
      const auto c = m.static_shape(s.input(1 - k));
      if (m.constant(s.input(k)) || !m.constant(s.input(1 - k)) || !x || !c || x->size() < 5)
        continue;
      const auto offset =
          static_cast<std::ptrdiff_t>(x->size()) - static_cast<std::ptrdiff_t>(c->size());
      bool inner = false, seen_wide = false;
      for (std::size_t i = 0; i < c->size(); ++i) {
        const auto at = offset + static_cast<std::ptrdiff_t>(i);
        if (at < 0) continue;
        const auto xd = (*x)[static_cast<std::size_t>(at)];
        if ((*c)[i] != 1) seen_wide = true;
        if (seen_wide && (*c)[i] == 1 && xd != 1) inner = true;
      }
      if (inner) return x->size();
    }
    return std::nullopt;
  }
  static bool found(const site& s) { return rank(s).has_value(); }
  static std::string reason(const site& s) {
    return "OpenCV 4.6 fails at run time broadcasting a constant over an inner axis of a " +
           std::to_string(*rank(s)) + "-D tensor";
  }
};

// Silent: OpenCV places a stored constant by its own rank; the rule's own condition finds it.
struct leading_ones_constant
    : rc::quirk<"leading_ones_constant", rc::by_rule<constant_add_without_leading_ones>> {
  static constexpr std::string_view summary =
      "a stored constant added with leading axes of 1 is placed by its own rank (Swin's "
      "attention bias [1, H, N, N] lands on the wrong axes; no error: wrong numbers)";
};

}  // namespace retarget::backends::opencv_dnn_convert::quirks

// In the order a node's refusals are listed; the rules come in this order too.
template <>
struct retarget::convert::quirks_for<retarget::backends::opencv_dnn>
    : retarget::convert::quirk_list<
          retarget::backends::opencv_dnn_convert::quirks::absent_last_input,
          retarget::backends::opencv_dnn_convert::quirks::identity_of_weight,
          retarget::backends::opencv_dnn_convert::quirks::no_layer_normalization,
          retarget::backends::opencv_dnn_convert::quirks::no_layer,
          retarget::backends::opencv_dnn_convert::quirks::clip_bounds_as_inputs,
          retarget::backends::opencv_dnn_convert::quirks::cubic_resize,
          retarget::backends::opencv_dnn_convert::quirks::expand_one_way,
          retarget::backends::opencv_dnn_convert::quirks::expand_shape_computed,
          retarget::backends::opencv_dnn_convert::quirks::computed_single_element,
          retarget::backends::opencv_dnn_convert::quirks::last_axis_vector,
          retarget::backends::opencv_dnn_convert::quirks::concat_outside_4d,
          retarget::backends::opencv_dnn_convert::quirks::import_time_arithmetic,
          retarget::backends::opencv_dnn_convert::quirks::import_time_gather,
          retarget::backends::opencv_dnn_convert::quirks::inner_axis_broadcast,
          retarget::backends::opencv_dnn_convert::quirks::leading_ones_constant> {};

// The rules are the exact fixes the quirks name, in the list's order.
template <>
struct retarget::convert::rules_for<retarget::backends::opencv_dnn>
    : retarget::convert::rules_from_quirks<retarget::backends::opencv_dnn> {};

#endif  // RETARGET_BACKENDS_OPENCV_DNN_QUIRKS_HPP
