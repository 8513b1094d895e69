// opencv_dnn's node rewrites for existing models, each the fix of a quirk of OpenCV 4.6
// declared in quirks.hpp: Clip, LayerNormalization and Pad exactly, cubic Resize as the
// approximation `cubic_resize_as_linear`, only when asked for by name.

// First, outside the guard: the tag's header includes the whole package (convert.hpp), this
// header among it, once the tag is declared.
#include <retarget/backends/opencv_dnn/backend.hpp>

#ifndef RETARGET_BACKENDS_OPENCV_DNN_NODE_REWRITES_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_NODE_REWRITES_HPP

#include <cstdint>
#include <limits>
#include <retarget/backends/opencv_dnn/rules.hpp>
#include <retarget/convert/node_rewrite.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/ir/axis.hpp>
#include <retarget/ir/graph.hpp>
#include <string>
#include <vector>

namespace retarget::backends::opencv_dnn_convert {
// A cubic Resize made linear: inexact, run only when named in options::approximations.
struct cubic_resize_as_linear : rc::approximation<"cubic_resize_as_linear"> {};
}  // namespace retarget::backends::opencv_dnn_convert

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
    // No bounds, but absent ones listed (''), which OpenCV looks up by name: the same Clip
    // without them (node/test_clip_default_inbounds).
    if (!has_lo && !has_hi)
      return n.inputs().size() > 1 ? std::vector<ir::value>{g.op("Clip", n.input(0))}
                                   : ctx.origin(g, n);
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
    // An axis out of range: kept, for the model's own check to name.
    const auto in_range = ir::axis_in_range(n["axis"_i].value_or(-1), rank);
    if (!in_range) return ctx.origin(g, n);
    const auto axis = *in_range;
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

// Cubic Resize as linear: an approximation, only with its name among the options'
// approximations.
template <>
struct retarget::convert::node_rewrite<"Resize", retarget::backends::opencv_dnn> {
  static std::vector<ir::value> call(const auto& ctx, ir::graph& g, const node_of<"Resize">& n) {
    using approximation = retarget::backends::opencv_dnn_convert::cubic_resize_as_linear;
    if (n["mode"_s].value_or("nearest") != "cubic" || !ctx.cfg().allows(approximation::name))
      return ctx.origin(g, n);
    ir::node_spec spec;
    spec.op_type = "Resize";
    spec.inputs = n.inputs();
    for (const auto& a : n.attributes()) {
      if (a.name() == "cubic_coeff_a") continue;
      if (a.name() == "mode")
        spec.attributes.push_back(ir::attribute_entry("mode", "linear"));
      else
        spec.attributes.push_back(a);
    }
    spec.doc_string = approximation::mark("was cubic");
    return g.emit(std::move(spec));
  }
};

#endif  // RETARGET_BACKENDS_OPENCV_DNN_NODE_REWRITES_HPP
