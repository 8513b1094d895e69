// Existing models converted for OpenCV 4.6's DNN module: the node rewrites and rules that make
// torch-exported models load, and the table of what the engine refuses. Every rewrite here is
// exact; the one approximation (cubic Resize as linear) runs only when asked for by name.
//
// Measured on OpenCV 4.6 with the corpus of tests/data/convert (tools/make_convert_corpus.py):
//   - Clip takes its bounds only as attributes: Clip with min/max inputs (opset 11 and later)
//     is refused, and so are Min and Max with a constant; Min and Max of x and a computed bound
//     are not, and are exact (Relu(x) - Relu(x - 6) is off by 2 at 1e8). x * 0 + bound is NaN
//     at x = +-inf, Sigmoid(x) * 0 + bound is not; Relu(-inf) is NaN; subnormals are flushed
//     to 0.
//   - there is no LayerNormalization layer; its decomposition (ReduceMean, Sub, Pow, Sqrt, Div,
//     Mul, Add, as torch writes it at opset 13) loads.
//   - Expand broadcasts one way only: an Expand to a shape the input already has is refused,
//     and is the input itself.
//   - a computed divisor with one element is not broadcast (LayerNorm2d at H = W = 1); a 1 x 1
//     by 1 x N MatMul with its reciprocal is.
//   - a 4-D tensor times a constant vector along its last axis is scaled along axis 1: the
//     product is computed with the channels moved to axis 1 and the vector as [C, 1, 1].
//   - a node whose last input is listed as absent ('') is refused (OpenCV looks for a constant
//     named ''); Pad, as torch writes it, is one.
//   - a stored constant added with leading axes of 1 is placed by its own rank: Swin's attention
//     bias [1, H, N, N] lands on the wrong axes; without the leading 1s it lands right.
//   - a constant broadcast over an inner axis of a computed tensor of rank 5 or more fails at run
//     time (full-size Swin-T's shifted-window mask, [nW, 1, N, N] over [1, nW, heads, N, N]).
//   - Identity over a stored weight, Mod, and cubic Resize are refused; folding removes the first
//     two where their inputs are constants.
#ifndef RETARGET_BACKENDS_OPENCV_DNN_CONVERT_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_CONVERT_HPP

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <retarget/backends/opencv_dnn/backend.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/node_rewrite.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/convert/rule.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace retarget::backends::opencv_dnn_convert {

namespace rc = retarget::convert;
using namespace rc::literals;
using namespace retarget::literals;

// The single value of a one-element constant, as a double.
inline std::optional<double> scalar_of(const onnx::TensorProto* t) {
  if (!t) return std::nullopt;
  const auto values = ir::values_as_double(ir::tensor(*t));
  if (values.size() != 1) return std::nullopt;
  return values.front();
}

// A Constant holding dims, for Reshape.
inline ir::value shape_constant(ir::graph& g, const std::vector<std::int64_t>& dims) {
  return g.constant(ir::tensor::of<std::int64_t>(std::span<const std::int64_t>(dims),
                                                 {static_cast<std::int64_t>(dims.size())}));
}

inline ir::value scalar_like(ir::graph& g, const ir::value& x, double v) {
  if (x.dtype() == ir::dtype::f64) return g.constant(ir::tensor::of<double>({v}, {}));
  return g.constant(ir::tensor::of<float>({static_cast<float>(v)}, {}));
}

// An Expand to a shape the input already has (torch's expand(n, -1, -1) once the -1s are
// folded to 1s): the input itself.
struct expand_to_own_shape : rc::rule<"expand_to_own_shape"> {
  static constexpr auto pattern = rc::op<"Expand">("x"_v, "shape"_c);
  static rc::verdict condition(const auto& m) {
    const auto& x = m["x"_v];
    const auto shape = x.has_shape() ? x.static_shape() : std::nullopt;
    if (!shape) return rc::reject("the input's shape is not static");
    const auto target = ir::values_as_double(ir::tensor(*m.graph().constant_data(m["shape"_c])));
    if (target.size() > shape->size()) return rc::reject("the target shape has a higher rank");
    const auto offset = shape->size() - target.size();
    for (std::size_t i = 0; i < target.size(); ++i)
      if (target[i] != 1 && target[i] != static_cast<double>((*shape)[offset + i]))
        return rc::reject("the target shape grows axis " + std::to_string(offset + i));
    return true;
  }
  static ir::value replace(ir::graph&, const auto& m) { return m["x"_v]; }
};

// A division by a computed single element (LayerNorm2d's deviation once H = W = 1): OpenCV
// broadcasts a computed divisor only along an axis, so the quotient is the product of the
// flattened dividend with the divisor's reciprocal, as a 1 x 1 by 1 x N MatMul.
struct single_element_divisor : rc::rule<"single_element_divisor"> {
  static constexpr auto pattern = rc::op<"Div">("a"_v, "b"_v);
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    const auto &a = m["a"_v], &b = m["b"_v];
    if (g.constant_data(b)) return rc::reject("the divisor is a constant, which OpenCV broadcasts");
    if (g.constant_data(a))
      return rc::reject("the dividend is a constant, which OpenCV broadcasts");
    const auto as = a.has_shape() ? a.static_shape() : std::nullopt;
    const auto bs = b.has_shape() ? b.static_shape() : std::nullopt;
    if (!as || !bs) return rc::reject("a shape is not static");
    if (*as == *bs) return rc::reject("the shapes are equal: nothing to broadcast");
    if (bs->size() > as->size()) return rc::reject("the divisor has the higher rank");
    for (const auto d : *bs)
      if (d != 1) return rc::reject("the divisor has more than one element");
    if (a.dtype() != ir::dtype::f32) return rc::reject("not float32");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto &a = m["a"_v], &b = m["b"_v];
    const auto shape = *a.static_shape();
    std::int64_t n = 1;
    for (const auto d : shape) n *= d;
    const auto dims = [&](const std::vector<std::int64_t>& v) { return shape_constant(g, v); };
    auto reciprocal = g.op("Div", scalar_like(g, a, 1.0), b);
    auto product =
        g.op("MatMul", g.op("Reshape", reciprocal, dims({1, 1})), g.op("Reshape", a, dims({1, n})));
    return g.op("Reshape", product, dims(shape));
  }
};

// A 4-D tensor times a constant vector along its last axis (LayerNorm2d's weight, with the
// channels last): OpenCV scales axis 1 instead. With the channels moved to axis 1 and the
// vector as [C, 1, 1], it scales the right axis; the transposes move them back.
template <fixed_string Op, fixed_string Name>
struct last_axis_constant : rc::rule<Name> {
  static constexpr auto pattern = rc::op<Op>("x"_v, "w"_c);
  static rc::verdict condition(const auto& m) {
    const auto& x = m["x"_v];
    if (m.graph().constant_data(x)) return rc::reject("both inputs are constants");
    const auto shape = x.has_shape() ? x.static_shape() : std::nullopt;
    if (!shape || (shape->size() != 3 && shape->size() != 4))
      return rc::reject("the input is not a static 3-D or 4-D tensor");
    const auto& w = *m.graph().constant_data(m["w"_c]);
    std::int64_t elements = 1;
    for (const auto d : w.dims()) elements *= d;
    for (int i = 0; i + 1 < w.dims_size(); ++i)
      if (w.dims(i) != 1) return rc::reject("the constant is not a vector along the last axis");
    if (w.dims_size() == 0 || elements != shape->back() || elements == 1)
      return rc::reject("the constant does not run along the last axis");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    onnx::TensorProto w = *g.constant_data(m["w"_c]);
    const auto channels = static_cast<std::int64_t>(w.dims(w.dims_size() - 1));
    w.clear_dims();
    for (const auto d : {channels, std::int64_t{1}, std::int64_t{1}}) w.add_dims(d);
    w.clear_name();
    const auto vector = g.constant(ir::tensor(w));
    const auto apply = [&](const ir::value& x) {
      if constexpr (Op.view() == "Mul")
        return g.op("Mul", x, vector);
      else
        return g.op("Add", x, vector);
    };
    const auto shape = *m["x"_v].static_shape();
    if (shape.size() == 4) {
      auto moved = g.op("Transpose", m["x"_v], "perm"_i = {0, 3, 1, 2});
      return g.op("Transpose", apply(moved), "perm"_i = {0, 2, 3, 1});
    }
    // 3-D [N, L, C]: as [N, C, L, 1], and back.
    const auto dims = [&](const std::vector<std::int64_t>& v) { return shape_constant(g, v); };
    auto four = g.op("Reshape", m["x"_v], dims({shape[0], shape[1], shape[2], 1}));
    auto moved = g.op("Transpose", four, "perm"_i = {0, 2, 1, 3});
    auto back = g.op("Transpose", apply(moved), "perm"_i = {0, 2, 1, 3});
    return g.op("Reshape", back, dims(shape));
  }
};
using last_axis_scale = last_axis_constant<"Mul", "last_axis_scale">;

// A constant joined to a computed 3-D tensor (ViT's class token): OpenCV joins them in 4-D
// only, so both get a trailing axis of 1, and the result loses it again.
struct constant_concat_in_4d : rc::rule<"constant_concat_in_4d"> {
  static constexpr auto pattern = rc::op<"Concat">("a"_c, "b"_v).as<"concat">();
  static rc::verdict condition(const auto& m) {
    const auto& b = m["b"_v];
    if (m.graph().constant_data(b)) return rc::reject("both inputs are constants");
    const auto shape = b.has_shape() ? b.static_shape() : std::nullopt;
    if (!shape || shape->size() != 3) return rc::reject("the computed input is not static 3-D");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto dims = [&](const std::vector<std::int64_t>& v) { return shape_constant(g, v); };
    auto b_shape = *m["b"_v].static_shape();
    onnx::TensorProto a = *g.constant_data(m["a"_c]);
    a.add_dims(1);
    a.clear_name();
    auto axis = m["concat"_n]["axis"_i].value_or(0);
    if (axis < 0) axis += 3;
    b_shape.push_back(1);
    auto joined = g.op("Concat", g.constant(ir::tensor(a)),
                       g.op("Reshape", m["b"_v], dims(b_shape)), "axis"_i = axis);
    auto out = b_shape;
    out.pop_back();
    out[static_cast<std::size_t>(axis)] += a.dims(static_cast<int>(axis));
    return g.op("Reshape", joined, dims(out));
  }
};
using last_axis_shift = last_axis_constant<"Add", "last_axis_shift">;

// A constant added with leading axes of 1 (Swin's attention bias [1, H, N, N]): OpenCV
// places a stored constant by its own rank, so without the leading 1s it lines up with the
// last axes, as broadcasting means.
struct constant_add_without_leading_ones : rc::rule<"constant_add_without_leading_ones"> {
  static constexpr auto pattern = rc::commutative(rc::op<"Add">("x"_v, "c"_c));
  static rc::verdict condition(const auto& m) {
    if (m.graph().constant_data(m["x"_v])) return rc::reject("both inputs are constants");
    const auto& c = *m.graph().constant_data(m["c"_c]);
    if (c.dims_size() < 2 || c.dims(0) != 1) return rc::reject("the constant has no leading 1");
    std::int64_t elements = 1;
    for (const auto d : c.dims()) elements *= d;
    if (elements == 1) return rc::reject("the constant is a single element");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    onnx::TensorProto c = *g.constant_data(m["c"_c]);
    std::vector<std::int64_t> dims(c.dims().begin(), c.dims().end());
    while (dims.size() > 1 && dims.front() == 1) dims.erase(dims.begin());
    c.clear_dims();
    for (const auto d : dims) c.add_dims(d);
    std::string name = m["c"_c].name() + "_trimmed";
    for (int k = 1; g.has_name(name); ++k) name = m["c"_c].name() + "_trimmed_" + std::to_string(k);
    c.clear_name();
    // An initializer, not a Constant node: OpenCV places a Constant node's value from axis 1.
    return g.op("Add", m["x"_v], g.initializer(name, ir::tensor(c)));
  }
};

}  // namespace retarget::backends::opencv_dnn_convert

template <>
struct retarget::convert::rules_for<retarget::backends::opencv_dnn>
    : retarget::convert::rule_set<
          retarget::backends::opencv_dnn_convert::expand_to_own_shape,
          retarget::backends::opencv_dnn_convert::single_element_divisor,
          retarget::backends::opencv_dnn_convert::last_axis_scale,
          retarget::backends::opencv_dnn_convert::constant_concat_in_4d,
          retarget::backends::opencv_dnn_convert::constant_add_without_leading_ones> {};

// Clip with constant bounds as inputs: Min(Max(x, lo'), hi'), each bound b' a computed tensor
// Sigmoid(x) * 0 + b (Sigmoid(x) * 0 itself for b = 0), since OpenCV takes Min and Max of two
// computed inputs only. Exact for every x, +-inf included: Sigmoid(x) is finite, so
// Sigmoid(x) * 0 + b is b (x * 0 + b is NaN at +-inf), and a NaN x gives NaN as Clip does. An
// absent lower bound is Clip's default, the lowest finite value, to which Clip takes -inf; Relu
// is not used for 0 (OpenCV's gives NaN at -inf).
template <>
struct retarget::convert::node_rewrite<"Clip", retarget::backends::opencv_dnn> {
  static std::vector<ir::value> call(const auto& ctx, ir::graph& g, const node_of<"Clip">& n) {
    namespace cv = retarget::backends::opencv_dnn_convert;
    const bool has_lo = n.has_input(1), has_hi = n.has_input(2);
    if (!has_lo && !has_hi) return ctx.origin(g, n);
    const auto& x = n.input(0);
    if (x.dtype() != ir::dtype::f32 && x.dtype() != ir::dtype::f64) return ctx.origin(g, n);
    // Plain doubles (with has_*): optionals here trip g++ 12's -Wmaybe-uninitialized at -O2.
    double lo = x.dtype() == ir::dtype::f64 ? std::numeric_limits<double>::lowest()
                                            : std::numeric_limits<float>::lowest();
    double hi = 0;
    if (has_lo) {
      const auto v = cv::scalar_of(g.constant_data(n.input(1)));
      if (!v) return ctx.origin(g, n);  // a computed bound: refused, and listed
      lo = *v;
    }
    if (has_hi) {
      const auto v = cv::scalar_of(g.constant_data(n.input(2)));
      if (!v) return ctx.origin(g, n);
      hi = *v;
    }
    const auto zero = g.op("Mul", g.op("Sigmoid", x), cv::scalar_like(g, x, 0.0));
    // A bound of 0 is `zero` itself: an Add of 0 would be a node for nothing.
    const auto bound = [&](double v) {
      return v == 0 ? zero : g.op("Add", zero, cv::scalar_like(g, x, v));
    };
    auto y = g.op("Max", x, bound(lo));
    if (has_hi) y = g.op("Min", y, bound(hi));
    return {y};
  }
};

// LayerNormalization as torch writes it at opset 13: normalized over the axes from `axis` on.
template <>
struct retarget::convert::node_rewrite<"LayerNormalization", retarget::backends::opencv_dnn> {
  static std::vector<ir::value> call(const auto& ctx, ir::graph& g,
                                     const node_of<"LayerNormalization">& n) {
    namespace cv = retarget::backends::opencv_dnn_convert;
    const auto& x = n.input(0);
    // Mean and InvStdDev as outputs, or an unknown rank: kept, and listed as refused.
    if (n.output_count() > 1 &&
        (!n.output_name(1).empty() || (n.output_count() > 2 && !n.output_name(2).empty())))
      return ctx.origin(g, n);
    if (!x.has_shape()) return ctx.origin(g, n);
    const auto rank = static_cast<std::int64_t>(x.rank());
    auto axis = n["axis"_i].value_or(-1);
    if (axis < 0) axis += rank;
    // Negative axes, as torch writes them: OpenCV reads positive ones of a 3-D tensor otherwise.
    std::vector<std::int64_t> axes;
    for (auto a = axis; a < rank; ++a) axes.push_back(a - rank);
    const float epsilon = n["epsilon"_f].value_or(1e-5f);
    auto mean = g.op("ReduceMean", x, "axes"_i = axes, "keepdims"_i = 1);
    auto centred = g.op("Sub", x, mean);
    auto variance = g.op("ReduceMean", g.op("Pow", centred, cv::scalar_like(g, x, 2.0)),
                         "axes"_i = axes, "keepdims"_i = 1);
    auto deviation = g.op("Sqrt", g.op("Add", variance, cv::scalar_like(g, x, epsilon)));
    auto y = g.op("Mul", g.op("Div", centred, deviation), n.input(1));
    if (n.has_input(2)) y = g.op("Add", y, n.input(2));
    return {y};
  }
};

// Pad with its optional constant_value given as an empty name (as torch writes it): OpenCV
// looks for a constant named ''. The same node without the trailing absent input.
template <>
struct retarget::convert::node_rewrite<"Pad", retarget::backends::opencv_dnn> {
  static std::vector<ir::value> call(const auto& ctx, ir::graph& g, const node_of<"Pad">& n) {
    if (n.input_count() < 3 || n.has_input(2)) return ctx.origin(g, n);
    ir::node_spec spec;
    spec.op_type = "Pad";
    spec.inputs = {n.input(0), n.input(1)};
    spec.attributes = n.attributes();
    spec.name = n.name();
    return g.emit(std::move(spec));
  }
};

// Cubic Resize as linear: an approximation, only with "cubic_resize_as_linear" among the
// options' approximations.
template <>
struct retarget::convert::node_rewrite<"Resize", retarget::backends::opencv_dnn> {
  static std::vector<ir::value> call(const auto& ctx, ir::graph& g, const node_of<"Resize">& n) {
    if (n["mode"_s].value_or("nearest") != "cubic" || !ctx.cfg().allows("cubic_resize_as_linear"))
      return ctx.origin(g, n);
    ir::node_spec spec;
    spec.op_type = "Resize";
    spec.inputs = n.inputs();
    for (const auto& a : n.attributes()) {
      if (a.name() == "cubic_coeff_a") continue;
      spec.attributes.push_back(a);
      if (a.name() == "mode") spec.attributes.back().set_s("linear");
    }
    spec.doc_string = "retarget: approximation cubic_resize_as_linear (was cubic)";
    return g.emit(std::move(spec));
  }
};

// The inexact rewrites of this package, which run only when asked for by name.
template <>
struct retarget::convert::approximations<retarget::backends::opencv_dnn> {
  static constexpr std::string_view names[] = {"cubic_resize_as_linear"};
};

// What OpenCV 4.6 refuses, node by node.
template <>
struct retarget::convert::engine_refusals<retarget::backends::opencv_dnn> {
  // Op types its ONNX importer has no layer for ("Can't create layer ... of type"), measured
  // by tests/data/convert/opencv_op_types.py.
  // (LayerNormalization, which it lacks too, has its own entry below.)
  // A table, kept as one.
  // clang-format off
  static constexpr std::string_view no_layer[] = {
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
  // clang-format on

  // The values OpenCV 4.6 computes when it loads the model (stored constants, Shape, and what
  // it evaluates on them), each with the kind of Mat that holds it: it adds or subtracts two
  // of them only when the Mats have one size. Measured on OpenCV 4.6 (FACTS.md, R3): a
  // Gather's result is held as a stored scalar is, a Shape's as no stored tensor is, the others
  // by their dims; "?" where the dims are not known.
  static std::unordered_map<std::string, std::string> import_time_values(const refusal_context& m) {
    static constexpr std::string_view evaluated[] = {
        "Gather",  "Concat",    "Unsqueeze", "Squeeze", "Reshape",
        "Flatten", "Transpose", "Slice",     "Cast",    "ConstantOfShape",
        "Expand",  "Add",       "Sub",       "Mul",     "Div"};
    std::unordered_map<std::string, std::string> out;
    const auto by_dims = [&](const std::string& v) -> std::string {
      const auto dims = m.static_shape(v);
      if (!dims) return "?";
      if (dims->empty()) return "gathered";
      std::string kind;
      for (const auto d : *dims) kind += std::to_string(d) + "x";
      return kind;
    };
    for (const auto& n : m.graph().node()) {
      if (!ir::is_default_domain(n.domain()) || n.output_size() == 0) continue;
      const auto& op = n.op_type();
      if (op == "Shape") {
        out[n.output(0)] = "shape";
        continue;
      }
      if (std::find(std::begin(evaluated), std::end(evaluated), op) == std::end(evaluated) ||
          n.input_size() == 0)
        continue;
      bool constant = true;
      for (const auto& in : n.input())
        constant = constant && (in.empty() || out.count(in) || m.constant(in));
      if (constant) out[n.output(0)] = op == "Gather" ? "gathered" : by_dims(n.output(0));
    }
    for (const auto& t : m.graph().initializer()) out.emplace(t.name(), by_dims(t.name()));
    for (const auto& n : m.graph().node())
      if (n.op_type() == "Constant" && n.output_size() == 1 && m.constant(n.output(0)))
        out.emplace(n.output(0), by_dims(n.output(0)));
    return out;
  }

  static void check(const refusal_context& m, std::vector<refusal>& out) {
    const auto& g = m.graph();
    const auto at_import = import_time_values(m);
    for (int i = 0; i < g.node_size(); ++i) {
      const auto& n = g.node(i);
      const auto refuse = [&](std::string why) {
        out.push_back(
            {i, n.op_type() + (n.name().empty() ? "" : " '" + n.name() + "'"), std::move(why)});
      };
      const auto& op = n.op_type();
      const auto input = [&](int k) { return k < n.input_size() ? n.input(k) : std::string(); };
      if (!ir::is_default_domain(n.domain())) continue;
      if (n.input_size() > 0 && n.input(n.input_size() - 1).empty())
        refuse(
            "its last input is absent but listed (''): OpenCV 4.6 looks for a constant named ''");
      if (op == "Identity" && m.is_initializer(input(0)))
        refuse("Identity over the stored weight '" + input(0) +
               "': OpenCV cannot read it (convert reads the weight through)");
      else if (op == "LayerNormalization")
        refuse("OpenCV 4.6 has no LayerNormalization layer (convert decomposes it)");
      else if (std::find(std::begin(no_layer), std::end(no_layer), op) != std::end(no_layer)) {
        bool constant = true;
        for (const auto& in : n.input()) constant = constant && (in.empty() || m.constant(in));
        refuse("OpenCV 4.6 has no " + op + " layer" +
               (constant && retarget::convert::can_evaluate(op)
                    ? " (its inputs are constants: convert folds it)"
                    : ""));
      } else if (op == "Clip" && (!input(1).empty() || !input(2).empty()))
        refuse(std::string("OpenCV 4.6 takes Clip's bounds only as attributes, not as inputs") +
               ((input(1).empty() || m.constant(input(1))) &&
                        (input(2).empty() || m.constant(input(2)))
                    ? " (they are constants: convert rewrites it with Min and Max)"
                    : ""));
      else if (op == "Resize") {
        for (const auto& a : n.attribute())
          if (a.name() == "mode" && a.s() == "cubic")
            refuse(
                "OpenCV 4.6 resizes in nearest and linear mode only, not cubic "
                "(convert --approximate cubic_resize_as_linear makes it linear)");
      } else if (op == "Expand") {
        const auto in = m.static_shape(input(0));
        const auto* target = m.constant(input(1));
        if (in && target) {
          const auto dims = ir::values_as_double(ir::tensor(*target));
          const auto offset =
              static_cast<std::ptrdiff_t>(in->size()) - static_cast<std::ptrdiff_t>(dims.size());
          for (std::size_t k = 0; k < dims.size(); ++k) {
            const auto at = offset + static_cast<std::ptrdiff_t>(k);
            if (offset < 0 ||
                (at >= 0 && dims[k] == 1 && (*in)[static_cast<std::size_t>(at)] != 1)) {
              refuse(
                  "OpenCV 4.6 expands one way only: the target shape is smaller than the "
                  "input's (convert drops an Expand to the input's own shape)");
              break;
            }
          }
        } else if (!target) {
          refuse("OpenCV 4.6 needs Expand's shape as a constant");
        }
      } else if (op == "Concat") {
        bool constant = false, computed = false;
        for (const auto& in : n.input()) (m.constant(in) ? constant : computed) = true;
        const auto shape = m.static_shape(n.output(0));
        if (constant && computed && shape && shape->size() != 4)
          refuse("OpenCV 4.6 concatenates a constant with a computed tensor in 4-D only, this is " +
                 std::to_string(shape->size()) + "-D");
      } else if (op == "Div" || op == "Mul") {
        const auto a = m.static_shape(input(0)), b = m.static_shape(input(1));
        if (a && b && !m.constant(input(0)) && !m.constant(input(1)) && *a != *b) {
          bool ones = true;
          for (auto d : *b) ones = ones && d == 1;
          if (ones && !b->empty())
            refuse("OpenCV 4.6 cannot broadcast a computed single element over another input");
        }
      }
      if ((op == "Add" || op == "Sub") && n.input_size() == 2) {
        // Both computed when OpenCV loads the model (shape arithmetic: Gather(Shape(x), [1]) + 1
        // in torch's chunk), in Mats of different sizes.
        const auto a = at_import.find(input(0)), b = at_import.find(input(1));
        if (a != at_import.end() && b != at_import.end() && a->second != "?" && b->second != "?" &&
            a->second != b->second)
          refuse(
              "OpenCV 4.6 computes it when loading, from two values it holds in Mats of "
              "different sizes (" +
              a->second + " and " + b->second +
              "), and fails: convert folds it where the input's shape is static");
      } else if (op == "Gather" && at_import.count(input(0))) {
        if (const auto* indices = m.constant(input(1))) {
          std::int64_t count = 1;
          for (const auto d : indices->dims()) count *= d;
          if (count > 1)
            refuse("OpenCV 4.6 gathers one index only from a value it computes when loading");
        }
      }
      if (op == "Add" || op == "Sub" || op == "Mul" || op == "Div") {
        // A constant broadcast over an inner axis of a computed tensor of rank 5 or more (Swin-T's
        // shifted-window mask over its heads, at full size) fails when the net runs.
        for (int k = 0; k < 2 && k < n.input_size(); ++k) {
          const auto x = m.static_shape(input(k));
          const auto c = m.static_shape(input(1 - k));
          if (m.constant(input(k)) || !m.constant(input(1 - k)) || !x || !c || x->size() < 5)
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
          if (inner)
            refuse("OpenCV 4.6 fails at run time broadcasting a constant over an inner axis of a " +
                   std::to_string(x->size()) + "-D tensor");
        }
      }
    }
  }
};

#endif  // RETARGET_BACKENDS_OPENCV_DNN_CONVERT_HPP
