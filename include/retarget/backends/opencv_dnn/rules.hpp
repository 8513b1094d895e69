// opencv_dnn's pattern rules for existing models, each the exact fix of a quirk of OpenCV 4.6
// declared in quirks.hpp (which derives `rules_for<opencv_dnn>` from them), and the graph
// helpers they and the node rewrites share.
#ifndef RETARGET_BACKENDS_OPENCV_DNN_RULES_HPP
#define RETARGET_BACKENDS_OPENCV_DNN_RULES_HPP

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/convert/rule.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_helpers.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/op_name.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retarget::backends::opencv_dnn_convert {

namespace rc = retarget::convert;
// The pattern literals, in this namespace only (patterns are class-scope constants, where no
// using-directive can go); the attribute literals are retarget's own and need none.
using rc::literals::operator""_v;
using rc::literals::operator""_c;
using rc::literals::operator""_n;
using rc::literals::operator==;  // attribute tests in where(): "ceil_mode"_i == 0

// The single value of a one-element constant, as a double.
inline std::optional<double> scalar_of(const ir::tensor_view& t) {
  if (!t) return std::nullopt;
  const auto values = ir::values_as_double(t);
  if (values.size() != 1) return std::nullopt;
  return values.front();
}

// Whether a Flatten at `axis` of a tensor of `rank` dims flattens at the axis past the last (a
// negative axis counts from it).
inline bool flattened_at_rank(std::int64_t axis, std::size_t rank) {
  return (axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis) ==
         static_cast<std::int64_t>(rank);
}

// ir's graph helper: a scalar of x's element type.
using ir::scalar_like;

// An Expand to a shape the input already has (torch's expand(n, -1, -1) once the -1s are
// folded to 1s): the input itself.
struct expand_to_own_shape : rc::rule<"expand_to_own_shape"> {
  static constexpr auto pattern = rc::op<"Expand">("x"_v, "shape"_c);
  static rc::verdict condition(const auto& m) {
    const auto& x = m["x"_v];
    const auto shape = x.has_shape() ? x.static_shape() : std::nullopt;
    if (!shape) return rc::reject("the input's shape is not static");
    const auto target =
        ir::values_as_double(ir::tensor_view(m.graph().constant_data(m["shape"_c])));
    if (target.size() > shape->size()) return rc::reject("the target shape has a higher rank");
    const auto offset = shape->size() - target.size();
    for (std::size_t i = 0; i < target.size(); ++i)
      if (target[i] != 1 && target[i] != static_cast<double>((*shape)[offset + i]))
        return rc::reject("the target shape grows axis " + std::to_string(offset + i));
    return true;
  }
  static ir::value replace(ir::graph&, const auto& m) { return m["x"_v]; }
};

// What OpenCV 4.6 expands a computed tensor along, measured over every set of axes at ranks 2
// to 5 and batches 1 and 2: one axis, axis 0 or 1, at the input's rank or one more. Any other
// axis, or two at once, fails to load or run, or ([N, C, 1] to [N, C, K] at a batch of 2) runs
// with wrong values.
namespace expansion {
using dims = std::vector<std::int64_t>;

// a and b broadcast together (aligned from the right); nullopt where they do not broadcast.
inline std::optional<dims> joined(const dims& a, const dims& b) {
  dims out(std::max(a.size(), b.size()), 1);
  for (std::size_t k = 0; k < out.size(); ++k) {
    const auto x = k + a.size() >= out.size() ? a[k + a.size() - out.size()] : 1;
    const auto y = k + b.size() >= out.size() ? b[k + b.size() - out.size()] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[k] = std::max(x, y);
  }
  return out;
}
// The Expand's output: in and the target shape written broadcast together.
inline std::optional<dims> output(const dims& in, const std::vector<double>& target) {
  dims t;
  for (const auto d : target) t.push_back(static_cast<std::int64_t>(d));
  return joined(in, t);
}

// in's dims aligned with out's last ones.
inline dims aligned(const dims& in, std::size_t rank) {
  dims out(rank - in.size(), 1);
  out.insert(out.end(), in.begin(), in.end());
  return out;
}

// Whether OpenCV computes it as written: a target of in's rank, each axis the output's or a 1
// where in is as wide (measured: [6, 1, 1] to [1, 8, 1] runs, as the batch-free targets of a
// dynamic batch are written), growing one axis, 0 or 1. A target of a higher rank leaves the
// output's rank unknown to the layers after it (a Max after [2] expanded to [1, 2] fails to
// load: seed 20984), so it goes in steps too; one of a lower rank fails to load.
inline bool accepted(const dims& in, const std::vector<double>& target, const dims& out) {
  if (target.size() != in.size()) return false;
  for (std::size_t k = 0; k < out.size(); ++k) {
    const auto t = static_cast<std::int64_t>(target[k]);
    if (t != out[k] && !(t == 1 && in[k] == out[k])) return false;
  }
  std::vector<std::size_t> grown;
  for (std::size_t k = 0; k < out.size(); ++k)
    if (in[k] != out[k]) grown.push_back(k);
  return grown.empty() || (grown.size() == 1 && grown.front() <= 1);
}
}  // namespace expansion

// An Expand OpenCV does not take (expansion::accepted), in steps it does: for each run of
// adjacent axes the Expand grows, a Reshape to [axes before, 1, axes after] and an Expand of
// axis 1 to the run's size; a last Reshape to the output's shape. Exact: Reshape and Expand
// only move and copy values.
struct expand_in_steps : rc::rule<"expand_in_steps"> {
  static constexpr auto pattern = rc::op<"Expand">("x"_v, "shape"_c);
  static std::vector<double> target(const auto& m) {
    return ir::values_as_double(ir::tensor_view(m.graph().constant_data(m["shape"_c])));
  }
  static std::optional<expansion::dims> output(const auto& m) {
    const auto& x = m["x"_v];
    const auto in = x.has_shape() ? x.static_shape() : std::nullopt;
    if (!in) return std::nullopt;
    return expansion::output(*in, target(m));
  }
  static rc::verdict condition(const auto& m) {
    if (m.graph().constant_data(m["x"_v])) return rc::reject("the input is a constant (folded)");
    const auto out = output(m);
    if (!out) return rc::reject("the input's shape is not static, or does not broadcast");
    const auto in = *m["x"_v].static_shape();
    if (in == *out) return rc::reject("the input's own shape (expand_to_own_shape)");
    if (expansion::accepted(in, target(m), *out)) return rc::reject("OpenCV expands it as written");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto out = *output(m);
    auto now = expansion::aligned(*m["x"_v].static_shape(), out.size());
    const auto product = [&](std::size_t from, std::size_t to) {
      std::int64_t p = 1;
      for (auto k = from; k < to; ++k) p *= now[k];
      return p;
    };
    ir::value y = m["x"_v];
    for (std::size_t k = 0; k < out.size();) {
      if (now[k] == out[k]) {
        ++k;
        continue;
      }
      auto end = k;
      std::int64_t run = 1;
      for (; end < out.size() && now[end] != out[end]; ++end) run *= out[end];
      const auto before = product(0, k), after = product(end, out.size());
      y = g.op("Reshape", y, ir::ints_constant(g, {before, 1, after}));
      y = g.op("Expand", y, ir::ints_constant(g, {before, run, after}));
      std::copy(out.begin() + static_cast<std::ptrdiff_t>(k),
                out.begin() + static_cast<std::ptrdiff_t>(end),
                now.begin() + static_cast<std::ptrdiff_t>(k));
      k = end;
    }
    return g.op("Reshape", y, ir::ints_constant(g, out));
  }
};

// Whether `op` over a and b is the last op of a softmax OpenCV's importer fuses into one
// Softmax or LogSoftmax layer, which it runs right as written (node/test_softmax_*_expanded,
// node/test_logsoftmax_*_expanded): x - ReduceMax(x), e / ReduceSum(e) of e = Exp(..), and
// y - Log(ReduceSum(Exp(y))). A ReduceMax elsewhere is broadcast as any other single element
// (tests/data/differential/seed-50713-*). A rule sees only the nodes built before the one it
// matches, so this is the form's backward half: check's fused_softmax_nodes (quirks.hpp) reads
// the whole form, and names a node the rule left whose form OpenCV would not fuse.
inline bool fused_into_softmax(const auto& g, std::string_view op, const ir::value& a,
                               const ir::value& b) {
  const auto reduced = g.producer(b);
  if (!reduced) return false;
  const auto of = [&](const auto& node, std::string_view type) {
    return node && node->op_type() == type;
  };
  if (op == "Sub" && of(reduced, "ReduceMax")) return reduced->input(0) == a.name();
  if (op == "Div" && of(reduced, "ReduceSum"))
    return reduced->input(0) == a.name() && of(g.producer(a), "Exp");
  if (op != "Sub" || !of(reduced, "Log")) return false;
  const auto sum = g.producer(g.find(reduced->input(0)));
  if (!of(sum, "ReduceSum")) return false;
  const auto exp = g.producer(g.find(sum->input(0)));
  return of(exp, "Exp") && exp->input(0) == a.name();
}

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
    for (const auto d : *bs)
      if (d != 1) return rc::reject("the divisor has more than one element");
    if (a.dtype() != ir::dtype::f32) return rc::reject("not float32");
    // Exp / ReduceSum(Exp) is a softmax OpenCV's importer fuses into one layer whole: the
    // division stays (node/test_softmax_example_expanded).
    if (fused_into_softmax(g, "Div", a, b))
      return rc::reject("it divides by a ReduceSum, a softmax OpenCV fuses");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto &a = m["a"_v], &b = m["b"_v];
    // A divisor of the higher rank adds leading ones: the output's shape.
    const auto shape = *expansion::joined(*a.static_shape(), *b.static_shape());
    const auto n = ir::element_count(shape);
    const auto dims = [&](const std::vector<std::int64_t>& v) { return ir::ints_constant(g, v); };
    auto reciprocal = g.op("Div", scalar_like(g, a, 1.0), b);
    auto product =
        g.op("MatMul", g.op("Reshape", reciprocal, dims({1, 1})), g.op("Reshape", a, dims({1, n})));
    return g.op("Reshape", product, dims(shape));
  }
};

// A computed tensor times (or divided by) a constant that varies along axis 0, of its rank (an
// image [3, H, W] normalized by a [3, 1, 1] mean, as torchvision's detection transform does):
// OpenCV scales from axis 1 on. With a leading axis of 1 on both, axis 0 is axis 1, where
// OpenCV scales; the output loses the axis again.
template <fixed_string Op, fixed_string Name>
struct constant_on_axis_0_lifted : rc::rule<Name> {
  static constexpr auto pattern = [] {
    if constexpr (Op.view() == "Mul")
      return rc::commutative(rc::op<Op>("x"_v, "c"_c));
    else
      return rc::op<Op>("x"_v, "c"_c);
  }();
  static rc::verdict condition(const auto& m) {
    const auto& x = m["x"_v];
    if (m.graph().constant_data(x)) return rc::reject("both inputs are constants");
    const auto shape = x.has_shape() ? x.static_shape() : std::nullopt;
    if (!shape || shape->size() < 2 || shape->size() > 4)
      return rc::reject("the input is not a static tensor of 2 to 4 dims");
    const auto c = ir::tensor_view(m.graph().constant_data(m["c"_c])).dims();
    if (c.size() != shape->size() || c[0] == 1)
      return rc::reject("the constant does not vary along axis 0 of the input's rank");
    if (!expansion::joined(*shape, c)) return rc::reject("the two do not broadcast");
    if (m.graph().opset() < 9) return rc::reject("before opset 9 a Constant holds no int64 dims");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const ir::tensor_view c = g.constant_data(m["c"_c]);
    const auto x = *m["x"_v].static_shape();
    const auto out = *expansion::joined(x, c.dims());
    const auto lifted = [](std::vector<std::int64_t> d) {
      d.insert(d.begin(), 1);
      return d;
    };
    const auto dims = [&](const std::vector<std::int64_t>& v) { return ir::ints_constant(g, v); };
    const auto x4 = g.op("Reshape", m["x"_v], dims(lifted(x)));
    const auto c4 = g.constant(c.reshaped(lifted(c.dims())));
    if constexpr (Op.view() == "Mul")
      return g.op("Reshape", g.op("Mul", x4, c4), dims(out));
    else
      return g.op("Reshape", g.op("Div", x4, c4), dims(out));
  }
};
using mul_on_axis_0_lifted = constant_on_axis_0_lifted<"Mul", "mul_on_axis_0_lifted">;
using div_on_axis_0_lifted = constant_on_axis_0_lifted<"Div", "div_on_axis_0_lifted">;

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
    const ir::tensor_view w = m.graph().constant_data(m["w"_c]);
    const auto dims = w.dims();
    const auto elements = w.element_count();
    for (std::size_t i = 0; i + 1 < dims.size(); ++i)
      if (dims[i] != 1) return rc::reject("the constant is not a vector along the last axis");
    if (dims.empty() || elements != shape->back() || elements == 1)
      return rc::reject("the constant does not run along the last axis");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const ir::tensor_view w = g.constant_data(m["w"_c]);
    const auto channels = w.dims().back();
    const auto vector = g.constant(w.reshaped({channels, 1, 1}));
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
    const auto dims = [&](const std::vector<std::int64_t>& v) { return ir::ints_constant(g, v); };
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
    const auto dims = [&](const std::vector<std::int64_t>& v) { return ir::ints_constant(g, v); };
    auto b_shape = *m["b"_v].static_shape();
    const ir::tensor_view a = g.constant_data(m["a"_c]);
    auto a_shape = a.dims();
    a_shape.push_back(1);
    auto axis = m["concat"_n]["axis"_i].value_or(0);
    if (axis < 0) axis += 3;
    b_shape.push_back(1);
    auto joined = g.op("Concat", g.constant(a.reshaped(a_shape)),
                       g.op("Reshape", m["b"_v], dims(b_shape)), "axis"_i = axis);
    auto out = b_shape;
    out.pop_back();
    out[static_cast<std::size_t>(axis)] += a_shape[static_cast<std::size_t>(axis)];
    return g.op("Reshape", joined, dims(out));
  }
};
using last_axis_shift = last_axis_constant<"Add", "last_axis_shift">;

// A stored constant joined before a computed tensor along another axis than the batch, the
// same along axis 0 and as long as the batch (ViT's class token expanded to the batch, once the
// batch's shape arithmetic is folded at a trial size): a constant that holds for one batch
// only, so the model could not stay dynamic. Written as the computed tensor padded with zeros
// where the constant goes, plus the constant's one row there and zeros elsewhere, a constant
// free of the batch. Exact: each element is x + 0 or 0 + c.
struct batch_constant_concat_as_pad : rc::rule<"batch_constant_concat_as_pad"> {
  static constexpr auto pattern = rc::op<"Concat">("a"_c, "b"_v).as<"concat">();
  static std::int64_t axis(const auto& m, std::size_t rank) {
    const auto a = m["concat"_n]["axis"_i].value_or(0);
    return a < 0 ? a + static_cast<std::int64_t>(rank) : a;
  }
  static rc::verdict condition(const auto& m) {
    if (!m.cfg().at_trial_sizes) return rc::reject("the model has no open dims");
    if (m.graph().opset() < 11) return rc::reject("before opset 11 Pad's pads are an attribute");
    const auto& b = m["b"_v];
    if (m.graph().constant_data(b)) return rc::reject("both inputs are constants");
    const auto shape = b.has_shape() ? b.static_shape() : std::nullopt;
    if (!shape || shape->size() < 2 || b.dtype() != ir::dtype::f32)
      return rc::reject("the computed input is not a static float32 tensor of 2 dims or more");
    if (axis(m, shape->size()) == 0) return rc::reject("joined along the batch");
    const ir::tensor_view a = m.graph().constant_data(m["a"_c]);
    const auto dims = a.dims();
    if (dims.size() != shape->size() || dims[0] != (*shape)[0] || dims[0] < 2)
      return rc::reject("the constant is not as long as the batch");
    const auto values = ir::values_as_double(a);
    const auto row = values.size() / static_cast<std::size_t>(dims[0]);
    for (std::size_t i = row; i < values.size(); ++i)
      if (values[i] != values[i % row]) return rc::reject("the constant differs along the batch");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto in = *m["b"_v].static_shape();
    const auto k = static_cast<std::size_t>(axis(m, in.size()));
    const ir::tensor_view a = g.constant_data(m["a"_c]);
    const auto length = a.dims()[k];
    std::vector<std::int64_t> pads(2 * in.size(), 0);
    pads[k] = length;
    const auto padded = g.op("Pad", m["b"_v], ir::ints_constant(g, pads));
    // The constant's one row in place, zeros after it, over the output's dims but the batch.
    std::vector<std::int64_t> dims(in.begin() + 1, in.end());
    dims[k - 1] += length;
    const auto values = ir::values_as_double(a);
    std::int64_t inner = 1;
    for (auto d = k + 1; d < in.size(); ++d) inner *= in[d];
    std::vector<float> row(static_cast<std::size_t>(ir::element_count(dims)), 0.0f);
    const auto run = length * inner;  // the constant's elements per step along axis k - 1
    const auto step = dims[k - 1] * inner;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const auto at = static_cast<std::int64_t>(i) % step;
      if (at < run)
        row[i] = static_cast<float>(
            values[static_cast<std::size_t>(static_cast<std::int64_t>(i) / step * run + at)]);
    }
    return g.op("Add", padded,
                g.constant(ir::tensor::of<float>(std::span<const float>(row), dims)));
  }
};

// Whether a stored constant of dims c, added to a computed tensor of rank `x_rank`, has leading
// 1s that can go: 2 dims or more, the first 1, and no more dims than x (of more, its leading 1s
// are the output's: without them the output would lose dims; tests/data/differential/
// seed-1795971054-*: a [3, 3, 1] plus a [1, 3, 1, 1]).
inline bool leading_ones_trimmable(std::size_t x_rank, const std::vector<std::int64_t>& c) {
  return c.size() >= 2 && c[0] == 1 && c.size() <= x_rank;
}

// A constant added with leading axes of 1 (Swin's attention bias [1, H, N, N]): OpenCV
// places a stored constant by its own rank, so without the leading 1s it lines up with the
// last axes, as broadcasting means.
struct constant_add_without_leading_ones : rc::rule<"constant_add_without_leading_ones"> {
  static constexpr auto pattern = rc::commutative(rc::op<"Add">("x"_v, "c"_c));
  static rc::verdict condition(const auto& m) {
    if (m.graph().constant_data(m["x"_v])) return rc::reject("both inputs are constants");
    const ir::tensor_view c = m.graph().constant_data(m["c"_c]);
    const auto dims = c.dims();
    if (!m["x"_v].has_shape()) return rc::reject("the input's rank is not known");
    if (!leading_ones_trimmable(m["x"_v].rank(), dims))
      return rc::reject("the constant has no leading 1, or more dims than the input");
    if (c.element_count() == 1) return rc::reject("the constant is a single element");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const ir::tensor_view c = g.constant_data(m["c"_c]);
    auto dims = c.dims();
    while (dims.size() > 1 && dims.front() == 1) dims.erase(dims.begin());
    std::string name = m["c"_c].name() + "_trimmed";
    for (int k = 1; g.has_name(name); ++k) name = m["c"_c].name() + "_trimmed_" + std::to_string(k);
    // An initializer, not a Constant node: OpenCV places a Constant node's value from axis 1.
    return g.op("Add", m["x"_v], g.initializer(name, c.reshaped(dims)));
  }
};

// Softmax and LogSoftmax from opset 13 on, without an axis: ONNX's default is the last axis,
// OpenCV 4.6 takes axis 1; written out, the axis is read right.
template <fixed_string Op, fixed_string Name>
struct default_axis_written_out : rc::rule<Name> {
  static constexpr auto pattern = rc::op<Op>("x"_v).template as<"softmax">();
  static rc::verdict condition(const auto& m) {
    if (m.graph().opset() < 13) return rc::reject("before opset 13 the default axis is 1");
    if (m["softmax"_n]["axis"_i]) return rc::reject("the axis is written");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    return g.op(retarget::runtime_op(std::string(Op.view())), m["x"_v], "axis"_i = -1);
  }
};
using softmax_axis_written_out = default_axis_written_out<"Softmax", "softmax_axis_written_out">;
using log_softmax_axis_written_out =
    default_axis_written_out<"LogSoftmax", "log_softmax_axis_written_out">;

// A Concat on a negative axis: OpenCV 4.6 counts it from the wrong end for a 1-D result; the
// same axis counted from the front is read right.
struct concat_axis_from_front : rc::rule<"concat_axis_from_front"> {
  static constexpr auto pattern =
      rc::op<"Concat">("a"_v, "b"_v, rc::optional("c"_v)).as<"concat">();
  static rc::verdict condition(const auto& m) {
    if (m["concat"_n]["axis"_i].value_or(0) >= 0) return rc::reject("the axis is not negative");
    if (!m["a"_v].has_shape()) return rc::reject("the rank is not known");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto rank = static_cast<std::int64_t>(m["a"_v].rank());
    const auto axis = *m["concat"_n]["axis"_i] + rank;
    if (m.has("c"_v)) return g.op("Concat", m["a"_v], m["b"_v], m["c"_v], "axis"_i = axis);
    return g.op("Concat", m["a"_v], m["b"_v], "axis"_i = axis);
  }
};

// Average pooling that counts the padding (count_include_pad = 1) over explicit pads: OpenCV
// 4.6 leaves the padding out of the count. The same pool over the input padded with zeros
// first, and no pads of its own, counts them.
struct average_pool_padded_first : rc::rule<"average_pool_padded_first"> {
  static constexpr auto pattern =
      rc::op<"AveragePool">("x"_v)
          .where("count_include_pad"_i == 1, "auto_pad"_s == "NOTSET", "ceil_mode"_i == 0)
          .as<"pool">();
  static rc::verdict condition(const auto& m) {
    const auto pads = m["pool"_n]["pads"_i].value_or(std::vector<std::int64_t>{});
    if (std::all_of(pads.begin(), pads.end(), [](auto p) { return p == 0; }))
      return rc::reject("no pads");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto pool = m["pool"_n];
    const auto pads = *pool["pads"_i];
    const auto spatial = pads.size() / 2;
    // Pad's pads: every axis's begin, then every axis's end; none on batch and channels.
    std::vector<std::int64_t> all(2 * (spatial + 2), 0);
    for (std::size_t i = 0; i < spatial; ++i) {
      all[2 + i] = pads[i];
      all[spatial + 4 + i] = pads[spatial + i];
    }
    auto padded = g.op("Pad", m["x"_v], ir::ints_constant(g, all));
    const auto kernel = *pool["kernel_shape"_i];
    const auto strides = pool["strides"_i].value_or(std::vector<std::int64_t>(kernel.size(), 1));
    return g.op("AveragePool", padded, "kernel_shape"_i = kernel, "strides"_i = strides);
  }
};

// What auto_pad SAME_* pads an axis by in all: the output is ceil(in / stride) long, and the
// kernel reaches (k - 1) * dilation + 1. SAME_LOWER puts the odd one at the beginning.
inline std::int64_t same_total_pad(std::int64_t in, std::int64_t reach, std::int64_t stride) {
  const auto out = (in + stride - 1) / stride;
  return std::max<std::int64_t>(0, (out - 1) * stride + reach - in);
}

// The pads auto_pad SAME_UPPER or SAME_LOWER gives a window over an input of static dims: each
// spatial axis's begin, then each one's end.
inline std::vector<std::int64_t> same_pads(const std::vector<std::int64_t>& shape,
                                           const std::vector<std::int64_t>& kernel,
                                           const std::vector<std::int64_t>& strides, bool lower) {
  const auto spatial = kernel.size();
  std::vector<std::int64_t> pads(2 * spatial, 0);
  for (std::size_t i = 0; i < spatial; ++i) {
    const auto total = same_total_pad(shape[2 + i], kernel[i], strides[i]);
    pads[i] = lower ? total - total / 2 : total / 2;
    pads[spatial + i] = total - pads[i];
  }
  return pads;
}

// Pooling with auto_pad SAME_LOWER: OpenCV 4.6 pads as for SAME_UPPER, the extra row at the
// end. The pads written out, the extra one first, are read right.
template <fixed_string Op, fixed_string Name>
struct same_lower_pads_written : rc::rule<Name> {
  static constexpr auto pattern =
      rc::op<Op>("x"_v).where("auto_pad"_s == "SAME_LOWER").template as<"pool">();
  static rc::verdict condition(const auto& m) {
    const auto pool = m["pool"_n];
    if (pool.node->output_count() != 1) return rc::reject("it gives its indices too");
    if (!m["x"_v].has_shape() || !m["x"_v].static_shape())
      return rc::reject("the input's shape is not static");
    if constexpr (Op.view() == "MaxPool") {  // AveragePool has no dilations before opset 19
      const auto dilations = pool["dilations"_i].value_or(std::vector<std::int64_t>{});
      if (std::any_of(dilations.begin(), dilations.end(), [](auto d) { return d != 1; }))
        return rc::reject("dilated");
    }
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto pool = m["pool"_n];
    const auto shape = *m["x"_v].static_shape();
    const auto kernel = *pool["kernel_shape"_i];
    const auto strides = pool["strides"_i].value_or(std::vector<std::int64_t>(kernel.size(), 1));
    const auto pads = same_pads(shape, kernel, strides, true);
    if constexpr (Op.view() == "MaxPool")
      return g.op("MaxPool", m["x"_v], "kernel_shape"_i = kernel, "strides"_i = strides,
                  "pads"_i = pads);
    else
      return g.op("AveragePool", m["x"_v], "kernel_shape"_i = kernel, "strides"_i = strides,
                  "pads"_i = pads, "count_include_pad"_i = pool["count_include_pad"_i].value_or(0));
  }
};
using max_pool_same_lower = same_lower_pads_written<"MaxPool", "max_pool_same_lower">;
using average_pool_same_lower = same_lower_pads_written<"AveragePool", "average_pool_same_lower">;

// Pooling with auto_pad VALID and ceil_mode: OpenCV 4.6 rounds the output length down all the
// same (a [1, 1, 7, 6] by 2 x 2 at strides [2, 1] gives 3 rows where 4 are due; no error). The
// same pool with zero pads written instead of VALID rounds up.
template <fixed_string Op, fixed_string Name>
struct valid_pool_pads_written : rc::rule<Name> {
  static constexpr auto pattern =
      rc::op<Op>("x"_v).where("auto_pad"_s == "VALID", "ceil_mode"_i == 1).template as<"pool">();
  static rc::verdict condition(const auto& m) {
    if (m["pool"_n].node->output_count() != 1) return rc::reject("it gives its indices too");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto pool = *m["pool"_n].node;
    ir::node_spec spec;
    spec.op_type = std::string(Op.view());
    spec.name = pool.name();
    spec.doc_string = pool.doc_string();
    spec.inputs = {m["x"_v]};
    for (const auto& a : pool.attributes())
      if (a.name() != "auto_pad") spec.attributes.push_back(a);
    const auto spatial = static_cast<std::size_t>(m["x"_v].rank()) - 2;
    spec.attributes.push_back(
        ir::attribute_entry("pads"_i = std::vector<std::int64_t>(2 * spatial, 0)));
    return g.emit(std::move(spec)).front();
  }
};
using max_pool_valid_pads_written =
    valid_pool_pads_written<"MaxPool", "max_pool_valid_pads_written">;
using average_pool_valid_pads_written =
    valid_pool_pads_written<"AveragePool", "average_pool_valid_pads_written">;

// Average pooling that counts the padding under auto_pad SAME_UPPER: OpenCV 4.6 leaves the
// padding out of the count (tests/data/differential/seed-51230-*: no error, wrong numbers). The
// pads written out, which average_pool_padded_first then pads with zeros first.
struct average_pool_same_upper_written : rc::rule<"average_pool_same_upper_written"> {
  static constexpr auto pattern =
      rc::op<"AveragePool">("x"_v)
          .where("auto_pad"_s == "SAME_UPPER", "count_include_pad"_i == 1, "ceil_mode"_i == 0)
          .as<"pool">();
  static rc::verdict condition(const auto& m) {
    if (!m["x"_v].has_shape() || !m["x"_v].static_shape())
      return rc::reject("the input's shape is not static");
    const auto pads = written_pads(m);
    if (std::all_of(pads.begin(), pads.end(), [](auto p) { return p == 0; }))
      return rc::reject("no padding");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto [kernel, strides] = window(m);
    return g.op("AveragePool", m["x"_v], "kernel_shape"_i = kernel, "strides"_i = strides,
                "pads"_i = same_pads(*m["x"_v].static_shape(), kernel, strides, false),
                "count_include_pad"_i = 1);
  }
  static std::vector<std::int64_t> written_pads(const auto& m) {
    const auto [kernel, strides] = window(m);
    return same_pads(*m["x"_v].static_shape(), kernel, strides, false);
  }
  // The pool's kernel and strides (1s where none are written).
  static std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> window(const auto& m) {
    const auto pool = m["pool"_n];
    auto kernel = *pool["kernel_shape"_i];
    auto strides = pool["strides"_i].value_or(std::vector<std::int64_t>(kernel.size(), 1));
    return {std::move(kernel), std::move(strides)};
  }
};

// A Conv with auto_pad SAME_LOWER: OpenCV 4.6 pads it as for SAME_UPPER, the extra row at the
// end (no error: wrong numbers). The same Conv with the pads written out, the extra one first.
struct conv_same_lower : rc::rule<"conv_same_lower"> {
  static constexpr auto pattern = rc::op<"Conv">("x"_v, "w"_c, rc::optional("b"_v))
                                      .where("auto_pad"_s == "SAME_LOWER")
                                      .as<"conv">();
  static rc::verdict condition(const auto& m) {
    const auto& x = m["x"_v];
    if (!x.has_shape() || !x.static_shape()) return rc::reject("the input's shape is not static");
    const auto& w = m["w"_c];
    if (!w.has_shape() || !w.static_shape()) return rc::reject("the weight's shape is not known");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto conv = *m["conv"_n].node;  // a copy: the accessor is a temporary
    const auto shape = *m["x"_v].static_shape();
    const auto weight = *m["w"_c].static_shape();
    const auto spatial = weight.size() - 2;
    const auto ints = [&](std::string_view name) {
      const auto a = conv.attribute(name);
      return a ? a->ints() : std::vector<std::int64_t>(spatial, 1);
    };
    const auto strides = ints("strides"), dilations = ints("dilations");
    std::vector<std::int64_t> pads(2 * spatial, 0);
    for (std::size_t i = 0; i < spatial; ++i) {
      const auto total =
          same_total_pad(shape[2 + i], (weight[2 + i] - 1) * dilations[i] + 1, strides[i]);
      pads[i] = total - total / 2;  // SAME_LOWER: the odd one at the beginning
      pads[spatial + i] = total / 2;
    }
    ir::node_spec spec;
    spec.op_type = "Conv";
    spec.name = conv.name();
    spec.inputs = {m["x"_v], m["w"_c]};
    if (m.has("b"_v)) spec.inputs.push_back(m["b"_v]);
    for (const auto& a : conv.attributes())
      if (a.name() != "auto_pad") spec.attributes.push_back(a);
    spec.attributes.push_back(ir::attribute_entry("pads", pads));
    return g.emit(std::move(spec)).front();
  }
};

// The lengths a Resize makes of an input of dims `in`: its sizes, or each length times its
// scale rounded down (the scale taken as float32, as stored); empty when neither is known.
inline std::vector<std::int64_t> resized_lengths(const std::vector<std::int64_t>& in,
                                                 const ir::tensor_view& scales,
                                                 const ir::tensor_view& sizes) {
  if (sizes) {
    const auto v = ir::values_as_double(sizes);
    return v.size() == in.size() ? std::vector<std::int64_t>(v.begin(), v.end())
                                 : std::vector<std::int64_t>{};
  }
  if (!scales) return {};
  const auto factor = ir::values_as_double(scales);
  if (factor.size() != in.size()) return {};
  std::vector<std::int64_t> out;
  for (std::size_t i = 0; i < in.size(); ++i)
    out.push_back(static_cast<std::int64_t>(std::floor(
        static_cast<double>(in[i]) * static_cast<double>(static_cast<float>(factor[i])))));
  return out;
}

// Whether a Resize shrinks an axis to a length of 1. In pytorch_half_pixel mode ONNX samples
// such an axis at 0, its first element; OpenCV 4.6 samples it at the half-pixel centre, as any
// other length (no error: wrong numbers; tests/data/differential/seed-1795931986-*).
inline bool shrinks_to_one(const std::vector<std::int64_t>& in,
                           const std::vector<std::int64_t>& out) {
  for (std::size_t i = 0; i < in.size() && i < out.size(); ++i)
    if (out[i] == 1 && in[i] > 1) return true;
  return false;
}

// A linear Resize in pytorch_half_pixel mode that shrinks an axis to 1 (shrinks_to_one): those
// axes sliced to their first element first, which is what ONNX samples, and the rest resized by
// sizes as before (a length of 1 kept at 1 samples its one element).
struct resize_to_one_sliced : rc::rule<"resize_to_one_sliced"> {
  static constexpr auto pattern =
      rc::op<"Resize">("x"_v, rc::optional("roi"_v), rc::optional("scales"_v),
                       rc::optional("sizes"_v))
          .where("mode"_s == "linear", "coordinate_transformation_mode"_s == "pytorch_half_pixel")
          .as<"resize">();
  static std::vector<std::int64_t> lengths(const auto& m) {
    const auto& g = m.graph();
    const auto in = m["x"_v].has_shape() ? m["x"_v].static_shape() : std::nullopt;
    if (!in) return {};
    const auto stored = [&](auto capture) -> ir::tensor_view {
      return m.has(capture) ? ir::tensor_view(g.constant_data(m[capture])) : ir::tensor_view();
    };
    return resized_lengths(*in, stored("scales"_v), stored("sizes"_v));
  }
  static rc::verdict condition(const auto& m) {
    const auto out = lengths(m);
    if (out.empty()) return rc::reject("the lengths are not known");
    if (!shrinks_to_one(*m["x"_v].static_shape(), out)) return rc::reject("no axis shrinks to 1");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto in = *m["x"_v].static_shape();
    const auto out = lengths(m);
    std::vector<std::int64_t> axes;
    for (std::size_t i = 0; i < in.size(); ++i)
      if (out[i] == 1 && in[i] > 1) axes.push_back(static_cast<std::int64_t>(i));
    const std::vector<std::int64_t> zeros(axes.size(), 0), ones(axes.size(), 1);
    const auto sliced = g.op("Slice", m["x"_v], ir::ints_constant(g, zeros),
                             ir::ints_constant(g, ones), ir::ints_constant(g, axes));
    const auto resize = *m["resize"_n].node;
    ir::node_spec spec;
    spec.op_type = "Resize";
    spec.name = resize.name();
    spec.doc_string = resize.doc_string();
    const ir::value roi = m.has("roi"_v) ? m["roi"_v] : ir::value();
    const ir::tensor_view scales =
        m.has("scales"_v) ? ir::tensor_view(g.constant_data(m["scales"_v])) : ir::tensor_view();
    if (scales && scales.element_count() > 0) {
      // Scales stay scales: where a length is not a whole multiple, the coordinates follow the
      // scale written, not the ratio of the lengths (tests/data/differential/seed-1795992454-*).
      auto kept = scales.values<float>();
      for (const auto a : axes) kept[static_cast<std::size_t>(a)] = 1.0f;
      spec.inputs = {
          sliced, roi,
          g.constant(ir::tensor::of<float>(kept, {static_cast<std::int64_t>(kept.size())}))};
    } else {
      spec.inputs = {sliced, roi, ir::value(), ir::ints_constant(g, out)};
    }
    for (const auto& a : resize.attributes()) spec.attributes.push_back(a);
    return g.emit(std::move(spec)).front();
  }
};

// The whole factor s (2 or more, the same along H and W, N and C kept) of a cubic Resize of a
// static [N, C, H, W] to [N, C, sH, sW] in half_pixel, pytorch_half_pixel or asymmetric
// coordinates without exclude_outside, at opset 11 or later: the Resizes
// cubic_resize_as_convolution computes exactly; nullopt for any other. `lengths` are the output's
// (resized_lengths).
inline std::optional<std::int64_t> cubic_whole_factor(const std::vector<std::int64_t>& in,
                                                      const std::vector<std::int64_t>& lengths,
                                                      std::string_view coordinates,
                                                      std::int64_t exclude_outside, int opset) {
  if (opset < 11 || in.size() != 4 || lengths.size() != 4 || exclude_outside != 0)
    return std::nullopt;
  if (coordinates != "half_pixel" && coordinates != "pytorch_half_pixel" &&
      coordinates != "asymmetric")
    return std::nullopt;
  if (lengths[0] != in[0] || lengths[1] != in[1] || in[2] < 1 || in[3] < 1) return std::nullopt;
  const auto s = lengths[2] / in[2];
  if (s < 2 || lengths[2] != s * in[2] || lengths[3] != s * in[3]) return std::nullopt;
  return s;
}

// The weights of output phase p of s along an axis over the input at offsets -2 to 2 from
// element k of output s k + p: ONNX's cubic kernel (coefficient a) at each tap's distance from
// the sample, which sits at k + (p + 0.5) / s - 0.5 (k + p / s in asymmetric coordinates).
inline std::array<double, 5> cubic_phase_weights(std::int64_t p, std::int64_t s, double a,
                                                 bool asymmetric) {
  const double d = asymmetric ? static_cast<double>(p) / static_cast<double>(s)
                              : (static_cast<double>(p) + 0.5) / static_cast<double>(s) - 0.5;
  const double below = std::floor(d), t = d - below;
  const auto kernel = [a](double x) {
    x = std::abs(x);
    if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
    if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
    return 0.0;
  };
  std::array<double, 5> out{};
  const auto at = static_cast<std::size_t>(below + 2);  // the tap at offset `below`
  out[at - 1] = kernel(1 + t);
  out[at] = kernel(t);
  out[at + 1] = kernel(1 - t);
  out[at + 2] = kernel(2 - t);
  return out;
}

// A cubic Resize by a whole factor s (cubic_whole_factor): output phase (py, px) of each s x s
// block is a fixed 4 x 4 filter of the input, whose indices ONNX clamps at the edges. Written as
// an edge Pad of 2, a depthwise Conv whose s * s outputs per channel are the phases' 5 x 5
// kernels, and a DepthToSpace (CRD, as Reshape, Transpose, Reshape) that puts each phase in
// place. Exact: the same weighted sums of the same elements (the seed's SRCNN: bicubic x3
// without --approximate).
struct cubic_resize_as_convolution : rc::rule<"cubic_resize_as_convolution"> {
  static constexpr auto pattern =
      rc::op<"Resize">("x"_v, rc::optional("roi"_v), rc::optional("scales"_v),
                       rc::optional("sizes"_v))
          .where("mode"_s == "cubic")
          .as<"resize">();
  static std::optional<std::int64_t> factor(const auto& m) {
    const auto& g = m.graph();
    const auto in = m["x"_v].has_shape() ? m["x"_v].static_shape() : std::nullopt;
    if (!in || m["x"_v].dtype() != ir::dtype::f32) return std::nullopt;
    const auto stored = [&](auto capture) -> ir::tensor_view {
      return m.has(capture) ? ir::tensor_view(g.constant_data(m[capture])) : ir::tensor_view();
    };
    const auto node = *m["resize"_n].node;
    const auto coordinates = node.attribute("coordinate_transformation_mode");
    const auto exclude = node.attribute("exclude_outside");
    return cubic_whole_factor(*in, resized_lengths(*in, stored("scales"_v), stored("sizes"_v)),
                              coordinates ? coordinates->s() : "half_pixel",
                              exclude ? exclude->i() : 0, g.opset());
  }
  static rc::verdict condition(const auto& m) {
    if (!factor(m))
      return rc::reject("not a whole factor along H and W of a static float [N, C, H, W]");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto s = *factor(m);
    const auto channels = (*m["x"_v].static_shape())[1];
    const auto node = *m["resize"_n].node;
    const auto coefficient = node.attribute("cubic_coeff_a");
    const auto coordinates = node.attribute("coordinate_transformation_mode");
    const double a = coefficient ? coefficient->f() : -0.75;
    const bool asymmetric = coordinates && coordinates->s() == "asymmetric";
    std::vector<std::array<double, 5>> phase;
    for (std::int64_t p = 0; p < s; ++p) phase.push_back(cubic_phase_weights(p, s, a, asymmetric));
    std::vector<float> weights;
    for (std::int64_t c = 0; c < channels; ++c)
      for (std::int64_t py = 0; py < s; ++py)
        for (std::int64_t px = 0; px < s; ++px)
          for (std::size_t i = 0; i < 5; ++i)
            for (std::size_t j = 0; j < 5; ++j)
              weights.push_back(static_cast<float>(phase[static_cast<std::size_t>(py)][i] *
                                                   phase[static_cast<std::size_t>(px)][j]));
    const auto padded =
        g.op("Pad", m["x"_v], ir::ints_constant(g, {0, 0, 2, 2, 0, 0, 2, 2}), "mode"_s = "edge");
    const auto kernels = g.constant(ir::tensor::of<float>(weights, {channels * s * s, 1, 5, 5}));
    const auto phases =
        g.op("Conv", padded, kernels, "group"_i = channels, "kernel_shape"_i = {5, 5});
    // DepthToSpace (CRD) spelled out: OpenCV 4.6 fixes its batch when it loads the model.
    const auto in = *m["x"_v].static_shape();
    const auto split =
        g.op("Reshape", phases, ir::ints_constant(g, {in[0], channels, s, s, in[2], in[3]}));
    const auto interleaved = g.op("Transpose", split, "perm"_i = {0, 1, 4, 2, 5, 3});
    return g.op("Reshape", interleaved,
                ir::ints_constant(g, {in[0], channels, in[2] * s, in[3] * s}));
  }
};

// A linear Resize without its coordinate_transformation_mode (OpenCV 4.6 fails to load it): the
// same node with the default, half_pixel, written.
struct resize_linear_coordinates_written : rc::rule<"resize_linear_coordinates_written"> {
  static constexpr auto pattern =
      rc::op<"Resize">("x"_v, rc::optional("roi"_v), rc::optional("scales"_v),
                       rc::optional("sizes"_v))
          .where("mode"_s == "linear")
          .as<"resize">();
  static rc::verdict condition(const auto& m) {
    if (m.graph().opset() < 11) return rc::reject("before opset 11 there are no coordinate modes");
    if (m["resize"_n].node->attribute("coordinate_transformation_mode"))
      return rc::reject("the coordinate mode is written");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto resize = *m["resize"_n].node;
    ir::node_spec spec;
    spec.op_type = "Resize";
    spec.name = resize.name();
    spec.doc_string = resize.doc_string();  // an approximation's mark stays on the node
    spec.inputs = {m["x"_v], m.has("roi"_v) ? m["roi"_v] : ir::value(),
                   m.has("scales"_v) ? m["scales"_v] : ir::value(),
                   m.has("sizes"_v) ? m["sizes"_v] : ir::value()};
    while (!spec.inputs.back().valid()) spec.inputs.pop_back();
    for (const auto& a : resize.attributes()) spec.attributes.push_back(a);
    spec.attributes.push_back(
        ir::attribute_entry("coordinate_transformation_mode"_s = std::string("half_pixel")));
    return g.emit(std::move(spec)).front();
  }
};

// A Conv or ConvTranspose without kernel_shape (ONNX infers it from the weight; some exporters
// leave it out): OpenCV 4.6's importer needs it written. The same node with the weight's
// spatial dims as its kernel_shape.
template <fixed_string Op, fixed_string Name>
struct kernel_from_weight : rc::rule<Name> {
  static constexpr auto pattern =
      rc::op<Op>("x"_v, "w"_c, rc::optional("b"_v)).template as<"conv">();
  static rc::verdict condition(const auto& m) {
    if (m["conv"_n].node->attribute("kernel_shape")) return rc::reject("it has its kernel_shape");
    const auto& w = m["w"_c];
    const auto dims = w.has_shape() ? w.static_shape() : std::nullopt;
    if (!dims || dims->size() < 3) return rc::reject("the weight's shape is not known");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto conv = *m["conv"_n].node;
    const auto dims = *m["w"_c].static_shape();
    ir::node_spec spec;
    spec.op_type = std::string(Op.view());
    spec.inputs = {m["x"_v], m["w"_c]};
    if (m.has("b"_v)) spec.inputs.push_back(m["b"_v]);
    for (const auto& a : conv.attributes()) spec.attributes.push_back(a);
    spec.attributes.push_back(ir::attribute_entry(
        "kernel_shape", std::vector<std::int64_t>(dims.begin() + 2, dims.end())));
    spec.name = conv.name();
    return g.emit(std::move(spec)).front();
  }
};
using conv_kernel_from_weight = kernel_from_weight<"Conv", "conv_kernel_from_weight">;
using conv_transpose_kernel_from_weight =
    kernel_from_weight<"ConvTranspose", "conv_transpose_kernel_from_weight">;

// A Conv, MaxPool or AveragePool over one spatial axis ([N, C, L]) whose pads differ at its two
// ends, or are SAME: OpenCV 4.6 computes the wrong length, or fails when the net runs (seed
// 11096). Over [N, C, 1, L], with the kernel [1, k] and the
// pads [0, b, 0, e], the same node is right (measured for kernels 2 and 3, strides 1 and 2, and
// every pair of pads below the kernel); the weight gets its axis of 1 too, and the result loses
// it again. Reshape's 0s keep N and C as they come.
template <fixed_string Op, fixed_string Name>
struct one_axis_in_2d : rc::rule<Name> {
  static constexpr auto pattern = [] {
    if constexpr (Op.view() == "Conv")
      return rc::op<Op>("x"_v, "w"_c, rc::optional("b"_v)).template as<"node">();
    else
      return rc::op<Op>("x"_v).template as<"node">();
  }();
  static rc::verdict condition(const auto& m) {
    const auto node = *m["node"_n].node;  // a copy: the accessor is a temporary
    if (node.output_count() > 1 && !node.output(1).empty())
      return rc::reject("its second output is used");
    if (!m["x"_v].has_shape() || m["x"_v].rank() != 3)
      return rc::reject("not over one spatial axis");
    if (const auto a = node.attribute("ceil_mode"); a && a->i() != 0)
      return rc::reject("it rounds its length up");
    const auto automatic = node.attribute("auto_pad");
    const bool same = automatic && automatic->s().starts_with("SAME");
    if (automatic && automatic->s() != "NOTSET" && !same) return rc::reject("its pads are VALID");
    const auto pads = node.attribute("pads");
    if (!same && (!pads || pads->ints().size() != 2 || pads->ints()[0] == pads->ints()[1]))
      return rc::reject("its pads are the same at both ends");
    if constexpr (Op.view() == "Conv") {
      const auto& w = m["w"_c];
      if (!w.has_shape() || !w.static_shape() || w.static_shape()->size() != 3)
        return rc::reject("the weight's shape is not known");
    }
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto node = *m["node"_n].node;
    const auto dims = [&](const std::vector<std::int64_t>& v) { return ir::ints_constant(g, v); };
    ir::node_spec spec;
    spec.op_type = std::string(Op.view());
    spec.name = node.name();
    spec.inputs = {g.op("Reshape", m["x"_v], dims({0, 0, 1, -1}))};
    if constexpr (Op.view() == "Conv") {
      const ir::tensor_view w = g.constant_data(m["w"_c]);
      auto w_dims = w.dims();
      w_dims.insert(w_dims.begin() + 2, 1);
      std::string name = m["w"_c].name() + "_2d";
      for (int k = 1; g.has_name(name); ++k) name = m["w"_c].name() + "_2d_" + std::to_string(k);
      spec.inputs.push_back(g.initializer(name, w.reshaped(w_dims)));
      if (m.has("b"_v)) spec.inputs.push_back(m["b"_v]);
    }
    for (const auto& a : node.attributes()) {
      const auto name = a.name();
      if (name == "kernel_shape" || name == "strides" || name == "dilations")
        spec.attributes.push_back(ir::attribute_entry(name, {1, a.ints().at(0)}));
      else if (name == "pads")
        spec.attributes.push_back(ir::attribute_entry(name, {0, a.ints()[0], 0, a.ints()[1]}));
      else
        spec.attributes.push_back(a);
    }
    return g.op("Reshape", g.emit(std::move(spec)).front(), dims({0, 0, -1}));
  }
};
using conv_in_2d = one_axis_in_2d<"Conv", "conv_in_2d">;
using max_pool_in_2d = one_axis_in_2d<"MaxPool", "max_pool_in_2d">;
using average_pool_in_2d = one_axis_in_2d<"AveragePool", "average_pool_in_2d">;

// A stored constant joined to a computed tensor along axis 0: OpenCV 4.6 gives wrong numbers
// (values of 1e37), at every rank; and 1-D computed inputs fail to join (a MatMul's [6] and a
// [1]: seed 11808). Each input as one row [1, K, 1, 1], joined along axis 1, is right, and read
// back in the output's shape holds the same elements in the same order.
template <fixed_string Name, std::size_t Inputs>
struct concat_on_batch_in_rows : rc::rule<Name> {
  static_assert(Inputs == 2 || Inputs == 3, "two or three inputs");
  static constexpr auto pattern = [] {
    if constexpr (Inputs == 2)
      return rc::op<"Concat">("a"_v, "b"_v).as<"concat">();
    else
      return rc::op<"Concat">("a"_v, "b"_v, "c"_v).as<"concat">();
  }();
  static std::vector<ir::value> inputs(const auto& m) {
    if constexpr (Inputs == 2)
      return {m["a"_v], m["b"_v]};
    else
      return {m["a"_v], m["b"_v], m["c"_v]};
  }
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    const auto in = inputs(m);
    bool constant = false, computed = false;
    for (const auto& v : in) {
      if (!v.has_shape() || !v.static_shape()) return rc::reject("a shape is not static");
      if (v.dtype() != ir::dtype::f32) return rc::reject("not float32");
      (g.constant_data(v) ? constant : computed) = true;
    }
    const auto rank = static_cast<std::int64_t>(in[0].rank());
    // 1-D: computed inputs alone too, of different lengths or made by nodes
    // (concat_1d_computed).
    const auto unequal = std::any_of(in.begin(), in.end(), [&](const ir::value& v) {
      return *v.static_shape() != *in[0].static_shape() || g.producer(v).has_value();
    });
    if (!computed || (!constant && (rank != 1 || !unequal)))
      return rc::reject(
          "not a constant joined to a computed tensor, nor a 1-D join of lengths that differ or "
          "of values nodes made");
    const auto axis = m["concat"_n]["axis"_i].value_or(0);
    if (axis != 0 && axis != -rank) return rc::reject("not along axis 0");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto dims = [&](const std::vector<std::int64_t>& v) { return ir::ints_constant(g, v); };
    std::vector<ir::value> rows;
    auto out = *m["a"_v].static_shape();
    out[0] = 0;
    for (const auto& v : inputs(m)) {
      const auto shape = *v.static_shape();
      out[0] += shape[0];
      const std::vector<std::int64_t> row = {1, ir::element_count(shape), 1, 1};
      if (const ir::tensor_view c = g.constant_data(v)) {
        std::string name = v.name() + "_row";
        for (int k = 1; g.has_name(name); ++k) name = v.name() + "_row_" + std::to_string(k);
        rows.push_back(g.initializer(name, c.reshaped(row)));
      } else {
        rows.push_back(g.op("Reshape", v, dims(row)));
      }
    }
    return g.op("Reshape", g.op("Concat", rows, "axis"_i = 1), dims(out));
  }
};
using concat_on_batch_of_two = concat_on_batch_in_rows<"concat_on_batch_of_two", 2>;
using concat_on_batch_of_three = concat_on_batch_in_rows<"concat_on_batch_of_three", 3>;

// A global pooling over 5 dims or more (the 3-D video classifiers' last pooling): OpenCV 4.6
// fails to load it. The same pooling over the input as [N, C, D·H·W, 1] pools the same elements,
// and its result gets back its axes of 1. Reshape's 0s keep N and C as they come, so a dynamic
// batch stays one.
template <fixed_string Op, fixed_string Name>
struct global_pool_in_4d : rc::rule<Name> {
  static constexpr auto pattern = rc::op<Op>("x"_v);
  static rc::verdict condition(const auto& m) {
    // The shapes go in Constant nodes, which hold int64 from opset 9 on.
    if (m.graph().opset() < 9) return rc::reject("before opset 9 a Constant holds no shape");
    const auto& x = m["x"_v];
    const auto rank = x.has_shape() ? std::optional(x.rank()) : std::nullopt;
    if (!rank || *rank < 5) return rc::reject("the input has fewer than 5 dims, or none known");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto& x = m["x"_v];
    const auto pooled = g.op(retarget::runtime_op{std::string(Op.view())},
                             g.op("Reshape", x, ir::ints_constant(g, {0, 0, -1, 1})));
    std::vector<std::int64_t> ones(x.rank(), 1);
    ones[0] = ones[1] = 0;
    return g.op("Reshape", pooled, ir::ints_constant(g, ones));
  }
};
using global_average_pool_in_4d =
    global_pool_in_4d<"GlobalAveragePool", "global_average_pool_in_4d">;
using global_max_pool_in_4d = global_pool_in_4d<"GlobalMaxPool", "global_max_pool_in_4d">;

// The axes a Squeeze or Unsqueeze names, as written: its constant second input (opset 13 on)
// or its attribute (before; read by name, as the attribute exists at some opsets only). Empty
// when it names none.
inline std::vector<std::int64_t> named_axes(const auto& m, const ir::node_view& n) {
  std::vector<std::int64_t> axes;
  if (m.has("axes"_c)) {
    axes = ir::values_as_int64(ir::tensor_view(m.graph().constant_data(m["axes"_c])));
  } else if (const auto a = n.attribute("axes")) {
    axes = a->ints();
  }
  return axes;
}

// The dims of Squeeze's or Unsqueeze's result from the input's static dims.
template <fixed_string Op>
std::vector<std::int64_t> reshaped_dims(const auto& m, const ir::node_view& n,
                                        const std::vector<std::int64_t>& in) {
  auto axes = named_axes(m, n);
  // Squeeze counts its axes in the input, Unsqueeze in the result.
  const auto rank = static_cast<std::int64_t>(in.size()) +
                    (Op.view() == "Unsqueeze" ? static_cast<std::int64_t>(axes.size()) : 0);
  for (auto& a : axes)
    if (a < 0) a += rank;
  const auto named = [&](std::int64_t i) {
    return std::find(axes.begin(), axes.end(), i) != axes.end();
  };
  std::vector<std::int64_t> out;
  if constexpr (Op.view() == "Squeeze") {
    for (std::int64_t i = 0; i < rank; ++i)
      if (!(axes.empty() ? in[i] == 1 : named(i))) out.push_back(in[i]);
  } else {
    std::size_t next = 0;
    for (std::int64_t i = 0; i < rank; ++i) out.push_back(named(i) ? 1 : in[next++]);
  }
  return out;
}

// Squeeze with its axes as an input (opset 13 on) or with none, and Unsqueeze of more than one
// axis or of a negative one: OpenCV 4.6's importer refuses them. Over a static shape they are
// a Reshape to the result's dims; a result of no dims OpenCV cannot reshape to.
template <fixed_string Op, fixed_string Name>
struct as_reshape : rc::rule<Name> {
  static constexpr auto pattern = rc::op<Op>("x"_v, rc::optional("axes"_c)).template as<"node">();
  static rc::verdict condition(const auto& m) {
    if (m.graph().opset() < 9) return rc::reject("before opset 9 a Constant holds no shape");
    const auto& x = m["x"_v];
    const auto in = x.has_shape() ? x.static_shape() : std::nullopt;
    if (!in) return rc::reject("the input's shape is not static");
    const auto node = *m["node"_n].node;  // a copy: the accessor is a temporary
    if constexpr (Op.view() == "Squeeze") {
      if (!m.has("axes"_c) && node.attribute("axes"))
        return rc::reject("its axes are an attribute, as OpenCV takes them");
    } else {
      const auto axes = named_axes(m, node);
      if (axes.size() == 1 && axes[0] >= 0)
        return rc::reject("one axis, from the front, as OpenCV takes it");
    }
    if (reshaped_dims<Op>(m, node, *in).empty()) return rc::reject("the result has no dims");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto dims = reshaped_dims<Op>(m, *m["node"_n].node, *m["x"_v].static_shape());
    return g.op("Reshape", m["x"_v], ir::ints_constant(g, dims));
  }
};
using squeeze_as_reshape = as_reshape<"Squeeze", "squeeze_as_reshape">;
using unsqueeze_as_reshape = as_reshape<"Unsqueeze", "unsqueeze_as_reshape">;

// The reductions whose axes are an attribute (until opset 18) that OpenCV 4.6 ends with a
// Reshape to the shape it computes when loading: a 2-D computed input in a model with open dims
// (reduce_2d_at_load_size).
inline bool reduces_with_shape_at_load(std::string_view op) {
  return op == "ReduceMean" || op == "ReduceMax" || op == "ReduceMin" || op == "ReduceProd";
}

// The axes a reduction names (its attribute, counted from the front), all of them when none.
inline std::vector<std::int64_t> reduced_axes(const ir::node_view& n, std::size_t rank) {
  std::vector<std::int64_t> axes;
  if (const auto a = n.attribute("axes")) axes = a->ints();
  if (axes.empty())
    for (std::size_t i = 0; i < rank; ++i) axes.push_back(static_cast<std::int64_t>(i));
  for (auto& a : axes)
    if (a < 0) a += static_cast<std::int64_t>(rank);
  return axes;
}

// A reduction along axis 1 of a 2-D computed tensor [N, C], in a model with open dims: OpenCV
// 4.6 reshapes its result to [1, 1], the shape at a batch of 1, and fails at any other. Over
// [N, 1, C] (axis 2) it reshapes by the batch it is given: a Reshape on each side keeps the
// result's shape. Exact: the same elements are reduced. Not along axis 0 (the batch), which
// OpenCV gets wrong whatever the form.
template <fixed_string Op, fixed_string Name>
struct reduce_2d_lifted : rc::rule<Name> {
  static constexpr auto pattern = rc::op<Op>("x"_v).template as<"node">();
  static rc::verdict condition(const auto& m) {
    if (!m.cfg().at_trial_sizes) return rc::reject("the model has no open dims");
    if (m.graph().opset() >= 18) return rc::reject("its axes are an input (opset 18)");
    const auto& x = m["x"_v];
    if (m.graph().constant_data(x)) return rc::reject("a constant: convert folds it");
    const auto shape = x.has_shape() ? x.static_shape() : std::nullopt;
    if (!shape || shape->size() != 2) return rc::reject("not a static 2-D tensor");
    const auto axes = reduced_axes(*m["node"_n].node, 2);
    if (axes != std::vector<std::int64_t>{1}) return rc::reject("not along axis 1 alone");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto node = *m["node"_n].node;
    const auto keep = node.attribute("keepdims") ? node.attribute("keepdims")->i() : 1;
    const auto lifted = g.op("Reshape", m["x"_v], ir::ints_constant(g, {0, 1, -1}));
    const auto reduced = g.op(retarget::runtime_op{std::string(Op.view())}, lifted, "axes"_i = {2},
                              "keepdims"_i = 1);
    return g.op("Reshape", reduced,
                ir::ints_constant(
                    g, keep ? std::vector<std::int64_t>{0, 1} : std::vector<std::int64_t>{-1}));
  }
};
using reduce_mean_2d_lifted = reduce_2d_lifted<"ReduceMean", "reduce_mean_2d_lifted">;
using reduce_max_2d_lifted = reduce_2d_lifted<"ReduceMax", "reduce_max_2d_lifted">;
using reduce_min_2d_lifted = reduce_2d_lifted<"ReduceMin", "reduce_min_2d_lifted">;
using reduce_prod_2d_lifted = reduce_2d_lifted<"ReduceProd", "reduce_prod_2d_lifted">;

// A Flatten at the axis past the last (axis = rank, its default 1 for a 1-D tensor): OpenCV 4.6
// fails to load it. Its output is [N, 1], N the input's element count, as a Reshape to [-1, 1]
// writes it, which OpenCV takes for every rank (measured for 1-D to 4-D, an input and a computed
// tensor). Exact.
struct flatten_at_rank_as_reshape : rc::rule<"flatten_at_rank_as_reshape"> {
  static constexpr auto pattern = rc::op<"Flatten">("x"_v).as<"node">();
  static rc::verdict condition(const auto& m) {
    // The shape goes in a Constant node, which holds int64 from opset 9 on.
    if (m.graph().opset() < 9) return rc::reject("before opset 9 a Constant holds no shape");
    const auto& x = m["x"_v];
    if (!x.has_shape()) return rc::reject("the input's rank is not known");
    if (!flattened_at_rank(m["node"_n]["axis"_i].value_or(1), x.rank()))
      return rc::reject("it flattens at an axis inside the tensor, as OpenCV takes it");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    return g.op("Reshape", m["x"_v], ir::ints_constant(g, {-1, 1}));
  }
};

// Softmax or LogSoftmax over a 1-D tensor on axis -1: OpenCV 4.6 gives wrong numbers (1 where
// 0.1 is due). Over the tensor as one [1, N] row, on axis 1, it is right.
template <fixed_string Op, fixed_string Name>
struct softmax_1d_in_a_row : rc::rule<Name> {
  static constexpr auto pattern = rc::op<Op>("x"_v);
  static rc::verdict condition(const auto& m) {
    if (m.graph().opset() < 9) return rc::reject("before opset 9 a Constant holds no shape");
    const auto& x = m["x"_v];
    const auto shape = x.has_shape() ? x.static_shape() : std::nullopt;
    if (!shape || shape->size() != 1) return rc::reject("not a static 1-D tensor");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const ir::value in[] = {m["x"_v]};
    return in_rows(g, in, [&](std::span<const ir::value> rows) {
      return g.op(retarget::runtime_op{std::string(Op.view())}, rows[0], "axis"_i = 1);
    });
  }
};
using softmax_1d_as_row = softmax_1d_in_a_row<"Softmax", "softmax_1d_in_a_row">;
using log_softmax_1d_as_row = softmax_1d_in_a_row<"LogSoftmax", "log_softmax_1d_in_a_row">;

// A Sum of three inputs, some of them constants: OpenCV 4.6 sums constants of two inputs only.
// Two Adds, in the Sum's order, give the same numbers.
struct sum_as_adds : rc::rule<"sum_as_adds"> {
  static constexpr auto pattern = rc::op<"Sum">("a"_v, "b"_v, "c"_v);
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    if (!g.constant_data(m["a"_v]) && !g.constant_data(m["b"_v]) && !g.constant_data(m["c"_v]))
      return rc::reject("no input is a constant");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    return g.op("Add", g.op("Add", m["a"_v], m["b"_v]), m["c"_v]);
  }
};

// A Sum of two inputs of different shapes, one of them a constant: OpenCV 4.6 fails when the
// net runs (tests/data/differential/seed-50848-*: a [1, 1, 6, 2] over [5, 1, 6, 2]). An Add
// gives the same numbers, and the forms of its constant are constant_broadcast's.
struct sum_of_two_as_add : rc::rule<"sum_of_two_as_add"> {
  static constexpr auto pattern = rc::op<"Sum">("a"_v, "b"_v);
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    if (!g.constant_data(m["a"_v]) && !g.constant_data(m["b"_v]))
      return rc::reject("no input is a constant");
    if (m["a"_v].has_shape() && m["b"_v].has_shape() && m["a"_v].static_shape() &&
        m["a"_v].static_shape() == m["b"_v].static_shape())
      return rc::reject("of one shape");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) { return g.op("Add", m["a"_v], m["b"_v]); }
};

// Whether OpenCV 4.6 slices over these axes right: consecutive, ascending as written, each
// counted from the front. A negative axis is wrong even alone: with steps, or over a 1-D tensor
// (tests/data/differential/seed-10812-*, seed-11122-*), it slices another axis or none.
inline bool slice_axes_taken(const std::vector<std::int64_t>& axes) {
  for (std::size_t i = 0; i < axes.size(); ++i)
    if (axes[i] < 0 || (i > 0 && axes[i] != axes[i - 1] + 1)) return false;
  return true;
}

// A Slice whose axes are not consecutive and ascending as written (a negative one, or a gap):
// OpenCV 4.6 refuses it. One Slice per axis, each counted from the front, takes the same
// elements.
struct slice_axis_by_axis : rc::rule<"slice_axis_by_axis"> {
  static constexpr auto pattern =
      rc::op<"Slice">("x"_v, "starts"_c, "ends"_c, "axes"_c, rc::optional("steps"_c));
  // Exactly: a double would round the INT64_MAX that means "to the end".
  static std::vector<std::int64_t> ints(const auto& m, const ir::value& v) {
    return ir::values_as_int64(ir::tensor_view(m.graph().constant_data(v)));
  }
  static rc::verdict condition(const auto& m) {
    if (!m["x"_v].has_shape()) return rc::reject("the rank is not known");
    if (slice_axes_taken(ints(m, m["axes"_c])))
      return rc::reject("the axes are consecutive and ascending, from the front");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto rank = static_cast<std::int64_t>(m["x"_v].rank());
    const auto starts = ints(m, m["starts"_c]), ends = ints(m, m["ends"_c]),
               axes = ints(m, m["axes"_c]);
    const auto steps =
        m.has("steps"_c) ? ints(m, m["steps"_c]) : std::vector<std::int64_t>(axes.size(), 1);
    auto y = m["x"_v];
    for (std::size_t i = 0; i < axes.size(); ++i)
      y = g.op("Slice", y, ir::ints_constant(g, {starts[i]}), ir::ints_constant(g, {ends[i]}),
               ir::ints_constant(g, {axes[i] < 0 ? axes[i] + rank : axes[i]}),
               ir::ints_constant(g, {steps[i]}));
    return y;
  }
};

// A constant times a computed matrix, MatMul(C, X): OpenCV 4.6 takes MatMul's first input
// computed only. In 2-D, (Xᵀ Cᵀ)ᵀ: the same products, summed over the same terms.
struct constant_first_matmul : rc::rule<"constant_first_matmul"> {
  static constexpr auto pattern = rc::op<"MatMul">("c"_c, "x"_v);
  static rc::verdict condition(const auto& m) {
    if (!m["x"_v].has_shape() || m["x"_v].rank() != 2 || m["c"_c].rank() != 2)
      return rc::reject("not a product of two matrices");
    if (m.graph().constant_data(m["x"_v])) return rc::reject("both are constants");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto flip = [&](const ir::value& v) { return g.op("Transpose", v, "perm"_i = {1, 0}); };
    return flip(g.op("MatMul", flip(m["x"_v]), flip(m["c"_c])));
  }
};

// Gemm with alpha or beta other than 1, transA, no transB, or a C of one element: OpenCV 4.6
// ignores alpha and beta, fails on transA and on a B not written [N, K] (transB = 0) with a
// bias, and takes one bias value per output column only. With B
// constant, alpha goes into B and beta into C (convert folds both products), and a C of one value
// is repeated per column.
struct gemm_scales_folded : rc::rule<"gemm_scales_folded"> {
  static constexpr auto pattern = rc::op<"Gemm">("a"_v, "b"_c, rc::optional("c"_c)).as<"gemm">();
  static rc::verdict condition(const auto& m) {
    const auto gemm = m["gemm"_n];
    const auto b = m["b"_c].static_shape();
    if (!b || b->size() != 2) return rc::reject("B is not a static matrix");
    if (m["b"_c].dtype() != ir::dtype::f32) return rc::reject("not float32");
    const auto n = gemm["transB"_i].value_or(0) ? (*b)[0] : (*b)[1];
    const bool scaled = gemm["alpha"_f].value_or(1.0f) != 1.0f ||
                        (m.has("c"_c) && gemm["beta"_f].value_or(1.0f) != 1.0f) ||
                        gemm["transA"_i].value_or(0) != 0 || gemm["transB"_i].value_or(0) == 0;
    if (!m.has("c"_c)) return scaled ? rc::verdict(true) : rc::reject("nothing to fold");
    const auto c = m["c"_c].static_shape();
    if (!c) return rc::reject("C's shape is not static");
    const bool per_column =
        *c == std::vector<std::int64_t>{n} || *c == std::vector<std::int64_t>{1, n};
    if (ir::element_count(*c) != 1 && !per_column)
      return rc::reject("C is not one value, nor one per column");
    // A [1] or [1, 1] C of a one-column Gemm is one value and one per column: nothing to fold.
    if (!scaled && per_column) return rc::reject("nothing to fold");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto gemm = m["gemm"_n];
    const auto b = *m["b"_c].static_shape();
    const auto n = gemm["transB"_i].value_or(0) ? b[0] : b[1];
    const auto alpha = gemm["alpha"_f].value_or(1.0f), beta = gemm["beta"_f].value_or(1.0f);
    const auto scaled = [&](const ir::value& v, float k) {
      return k == 1.0f ? v : g.op("Mul", v, scalar_like(g, v, k));
    };
    // As [N, K], transB = 1, the form OpenCV reads (folded, as the products).
    const auto weight = gemm["transB"_i].value_or(0)
                            ? scaled(m["b"_c], alpha)
                            : g.op("Transpose", scaled(m["b"_c], alpha), "perm"_i = {1, 0});
    // transA fails when the net runs: A transposed first.
    const auto a =
        gemm["transA"_i].value_or(0) ? g.op("Transpose", m["a"_v], "perm"_i = {1, 0}) : m["a"_v];
    if (!m.has("c"_c)) return g.op("Gemm", a, weight, "transB"_i = 1);
    auto bias = m["c"_c];
    const auto c = *bias.static_shape();
    if (c != std::vector<std::int64_t>{n} && c != std::vector<std::int64_t>{1, n})
      bias = g.op("Expand", bias, ir::ints_constant(g, {n}));  // folded: a stored [N]
    return g.op("Gemm", a, weight, scaled(bias, beta), "transB"_i = 1);
  }
};

// CumSum along an axis other than the last (OpenCV 4.6 sums wrongly there: values of 1e37
// that change from run to run), or on a 1-D tensor with its axis written -1 (taken as a
// size-1 axis): the same CumSum along the last axis, written from the front, between two
// Transposes that move the axis there and back. Exclusive sums are left to the quirk.
struct cumsum_on_last_axis : rc::rule<"cumsum_on_last_axis"> {
  static constexpr auto pattern = rc::op<"CumSum">("x"_v, "axis"_c).as<"cumsum">();
  static std::int64_t axis(const auto& m) {
    const auto v = ir::values_as_double(ir::tensor_view(m.graph().constant_data(m["axis"_c])));
    const auto a = static_cast<std::int64_t>(v.at(0));
    return a < 0 ? a + static_cast<std::int64_t>(m["x"_v].rank()) : a;
  }
  static rc::verdict condition(const auto& m) {
    if (m["cumsum"_n]["exclusive"_i].value_or(0) != 0) return rc::reject("exclusive");
    if (!m["x"_v].has_shape()) return rc::reject("the rank is not known");
    const auto rank = static_cast<std::int64_t>(m["x"_v].rank());
    const auto written =
        ir::values_as_double(ir::tensor_view(m.graph().constant_data(m["axis"_c])));
    if (written.size() != 1) return rc::reject("the axis is not one value");
    if (axis(m) == rank - 1 && written[0] >= 0) return rc::reject("the last axis, from the front");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto rank = static_cast<std::int64_t>(m["x"_v].rank());
    const auto a = axis(m);
    const auto reverse = m["cumsum"_n]["reverse"_i].value_or(0);
    const auto last = g.constant(ir::tensor::of<std::int64_t>({rank - 1}, {}));
    if (a == rank - 1) return g.op("CumSum", m["x"_v], last, "reverse"_i = reverse);
    std::vector<std::int64_t> perm(static_cast<std::size_t>(rank));
    for (std::int64_t i = 0; i < rank; ++i) perm[i] = i;
    std::swap(perm[a], perm[rank - 1]);  // its own inverse
    const auto moved = g.op("Transpose", m["x"_v], "perm"_i = perm);
    const auto sum = g.op("CumSum", moved, last, "reverse"_i = reverse);
    return g.op("Transpose", sum, "perm"_i = perm);
  }
};

// Gather of one index from a computed tensor, with a negative axis (OpenCV 4.6 corrupts its
// heap) or a negative index (it fails): both written from the front.
struct gather_from_front : rc::rule<"gather_from_front"> {
  static constexpr auto pattern = rc::op<"Gather">("x"_v, "i"_c).as<"gather">();
  static rc::verdict condition(const auto& m) {
    if (m.graph().constant_data(m["x"_v])) return rc::reject("a constant: convert folds it");
    const auto shape = m["x"_v].has_shape() ? m["x"_v].static_shape() : std::nullopt;
    if (!shape) return rc::reject("the input's shape is not static");
    const ir::tensor_view i = m.graph().constant_data(m["i"_c]);
    const auto index = ir::values_as_double(i);
    if (index.size() != 1) return rc::reject("more than one index");
    if (!i.dims().empty() && shape->size() >= 2)
      return rc::reject("an index tensor, not a scalar (gather_one_as_slice)");
    if (m["gather"_n]["axis"_i].value_or(0) >= 0 && index[0] >= 0)
      return rc::reject("the axis and the index count from the front");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto shape = *m["x"_v].static_shape();
    auto axis = m["gather"_n]["axis"_i].value_or(0);
    if (axis < 0) axis += static_cast<std::int64_t>(shape.size());
    auto index = static_cast<std::int64_t>(
        ir::values_as_double(ir::tensor_view(g.constant_data(m["i"_c]))).front());
    if (index < 0) index += shape[static_cast<std::size_t>(axis)];
    const auto indices =
        g.constant(ir::tensor::of<std::int64_t>({index}, *m["i"_c].static_shape()));
    return g.op("Gather", m["x"_v], indices, "axis"_i = axis);
  }
};

// A Gather of one index held in a tensor ([1], not a scalar) from a computed tensor of 2 dims or
// more: OpenCV drops the axis as for a scalar index. The same values are a Slice of the axis
// (measured right at ranks 2 to 5 on every axis), reshaped where the index has 2 dims or more.
struct gather_one_as_slice : rc::rule<"gather_one_as_slice"> {
  static constexpr auto pattern = rc::op<"Gather">("x"_v, "i"_c).as<"gather">();
  static rc::verdict condition(const auto& m) {
    if (m.graph().constant_data(m["x"_v])) return rc::reject("a constant: convert folds it");
    const auto shape = m["x"_v].has_shape() ? m["x"_v].static_shape() : std::nullopt;
    if (!shape) return rc::reject("the input's shape is not static");
    const ir::tensor_view i = m.graph().constant_data(m["i"_c]);
    if (i.element_count() != 1) return rc::reject("more than one index");
    // A scalar index at a static batch is OpenCV's own Slice and Reshape (gather_from_front's).
    if (i.dims().empty() && !m.cfg().at_trial_sizes)
      return rc::reject("a scalar index, with no open dims (gather_from_front)");
    if (i.dims().empty() && shape->size() < 2)
      return rc::reject("a scalar of a 1-D input, whose shape holds for any batch");
    if (shape->size() < 2 && i.dims().size() == 1)
      return rc::reject("a 1-D input by a [1] index, which OpenCV gathers as it should");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    auto shape = *m["x"_v].static_shape();
    const auto rank = static_cast<std::int64_t>(shape.size());
    auto axis = m["gather"_n]["axis"_i].value_or(0);
    if (axis < 0) axis += rank;
    const auto size = shape[static_cast<std::size_t>(axis)];
    const ir::tensor_view i = g.constant_data(m["i"_c]);
    auto index = ir::values_as_int64(i).front();
    if (index < 0) index += size;
    auto y = g.op("Slice", m["x"_v], ir::ints_constant(g, {index}),
                  ir::ints_constant(g, {index + 1}), ir::ints_constant(g, {axis}));
    const auto index_dims = i.dims();
    if (index_dims.size() == 1) return y;
    // The axis becomes the index's dims, all ones (none for a scalar: the axis goes).
    shape.erase(shape.begin() + axis);
    shape.insert(shape.begin() + axis, index_dims.begin(), index_dims.end());
    return g.op("Reshape", y, ir::ints_constant(g, shape));
  }
};

// Whether pads ([b0, b1, ..., e0, e1, ...]) pad some end of `shape` by more than its length,
// which OpenCV 4.6's edge mode fails on.
inline bool pads_beyond_length(const std::vector<std::int64_t>& pads,
                               const std::vector<std::int64_t>& shape) {
  if (pads.size() != 2 * shape.size()) return false;
  for (std::size_t i = 0; i < pads.size(); ++i)
    if (pads[i] > shape[i % shape.size()]) return true;
  return false;
}

// Pad in edge mode by more than the input's length at an end: the same Pad in steps, each by
// at most the length padded so far. Exact: an edge of the edge is the edge.
struct edge_pad_in_steps : rc::rule<"edge_pad_in_steps"> {
  static constexpr auto pattern =
      rc::op<"Pad">("x"_v, "pads"_c, rc::optional("value"_c)).where("mode"_s == "edge");
  static rc::verdict condition(const auto& m) {
    const auto shape = m["x"_v].has_shape() ? m["x"_v].static_shape() : std::nullopt;
    if (!shape) return rc::reject("the input's shape is not static");
    const auto pads = ir::values_as_int64(ir::tensor_view(m.graph().constant_data(m["pads"_c])));
    if (!pads_beyond_length(pads, *shape))
      return rc::reject("no end is padded by more than the input's length");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    auto length = *m["x"_v].static_shape();
    auto left = ir::values_as_int64(ir::tensor_view(g.constant_data(m["pads"_c])));
    const auto rank = length.size();
    ir::value y = m["x"_v];
    while (std::any_of(left.begin(), left.end(), [](auto p) { return p > 0; })) {
      std::vector<std::int64_t> step(2 * rank);
      for (std::size_t i = 0; i < step.size(); ++i) {
        step[i] = std::min(left[i], length[i % rank]);
        left[i] -= step[i];
      }
      for (std::size_t a = 0; a < rank; ++a) length[a] += step[a] + step[a + rank];
      y = g.op("Pad", y, ir::ints_constant(g, step), "mode"_s = "edge");
    }
    return y;
  }
};

// Whether the computed inputs all have one static shape below 2 dims ([3] by [3]), which
// OpenCV's eltwise layers refuse and `in_rows` lifts.
inline rc::verdict one_shape_below_2d(const auto& g, std::span<const ir::value> in) {
  // The shapes go in Constant nodes, which hold int64 from opset 9 on.
  if (g.opset() < 9) return rc::reject("before opset 9 a Constant holds no shape");
  const auto first = in[0].has_shape() ? in[0].static_shape() : std::nullopt;
  if (!first) return rc::reject("the shape is not static");
  if (first->size() >= 2) return rc::reject("2 dims or more");
  for (const auto& v : in) {
    if (g.constant_data(v)) return rc::reject("an input is a constant");
    if (!v.has_shape() || v.static_shape() != first) return rc::reject("the inputs' shapes differ");
  }
  return true;
}

// `compute` over the inputs as [1, N] rows, and its result back in their shape.
inline ir::value in_rows(ir::graph& g, std::span<const ir::value> in, const auto& compute) {
  const auto shape = *in[0].static_shape();
  const auto row = ir::ints_constant(g, {1, ir::element_count(shape)});
  std::vector<ir::value> rows;
  for (const auto& v : in) rows.push_back(g.op("Reshape", v, row));
  return g.op("Reshape", compute(std::span<const ir::value>(rows)), ir::ints_constant(g, shape));
}

// `op` over one, two or three inputs, named at run time.
inline ir::value variadic(ir::graph& g, std::string_view op, std::span<const ir::value> in) {
  const retarget::runtime_op name{std::string(op)};
  switch (in.size()) {
    case 1:
      return g.op(name, in[0]);
    case 2:
      return g.op(name, in[0], in[1]);
    default:
      return g.op(name, in[0], in[1], in[2]);
  }
}

// A pattern of one op over one, two or three captured inputs "a", "b", "c", and those inputs.
template <fixed_string Op, std::size_t Inputs>
struct over_inputs {
  static_assert(Inputs >= 1 && Inputs <= 3, "one, two or three inputs");
  static constexpr auto pattern = [] {
    if constexpr (Inputs == 1)
      return rc::op<Op>("a"_v);
    else if constexpr (Inputs == 2)
      return rc::op<Op>("a"_v, "b"_v);
    else
      return rc::op<Op>("a"_v, "b"_v, "c"_v);
  }();
  static std::vector<ir::value> inputs(const auto& m) {
    if constexpr (Inputs == 1)
      return {m["a"_v]};
    else if constexpr (Inputs == 2)
      return {m["a"_v], m["b"_v]};
    else
      return {m["a"_v], m["b"_v], m["c"_v]};
  }
};

// Elementwise ops over computed inputs of one shape below 2 dims ([3] by [3], node/test_min_
// example): OpenCV's eltwise layers need 2 dims. The same op over the inputs as [1, N], and the
// result back in their shape. Min and Max of one input are that input.
template <fixed_string Op, fixed_string Name, std::size_t Inputs>
struct lifted_to_2d : rc::rule<Name>, over_inputs<Op, Inputs> {
  using over_inputs<Op, Inputs>::pattern;
  static rc::verdict condition(const auto& m) {
    if constexpr (Inputs == 1)
      return true;
    else
      return one_shape_below_2d(m.graph(), lifted_to_2d::inputs(m));
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto in = lifted_to_2d::inputs(m);
    if constexpr (Inputs == 1)
      return g.op("Identity", in[0]);
    else
      return in_rows(g, in,
                     [&](std::span<const ir::value> rows) { return variadic(g, Op.view(), rows); });
  }
};
using add_lifted = lifted_to_2d<"Add", "add_lifted_to_2d", 2>;
using sub_lifted = lifted_to_2d<"Sub", "sub_lifted_to_2d", 2>;
using mul_lifted = lifted_to_2d<"Mul", "mul_lifted_to_2d", 2>;
using div_lifted = lifted_to_2d<"Div", "div_lifted_to_2d", 2>;
using min_lifted = lifted_to_2d<"Min", "min_lifted_to_2d", 2>;
using max_lifted = lifted_to_2d<"Max", "max_lifted_to_2d", 2>;
using sum_lifted = lifted_to_2d<"Sum", "sum_lifted_to_2d", 2>;
using min_of_three_lifted = lifted_to_2d<"Min", "min_of_three_lifted_to_2d", 3>;
using max_of_three_lifted = lifted_to_2d<"Max", "max_of_three_lifted_to_2d", 3>;
using sum_of_three_lifted = lifted_to_2d<"Sum", "sum_of_three_lifted_to_2d", 3>;
using min_of_one = lifted_to_2d<"Min", "min_of_one", 1>;
using max_of_one = lifted_to_2d<"Max", "max_of_one", 1>;

// Mean, which OpenCV 4.6 has no layer for (node/test_mean_*): the Sum of its inputs divided by
// their count, the very operations ONNX defines it by. Below 2 dims, over them as [1, N] rows.
template <fixed_string Name, std::size_t Inputs>
struct mean_as_sum : rc::rule<Name>, over_inputs<"Mean", Inputs> {
  using over_inputs<"Mean", Inputs>::pattern;
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto in = mean_as_sum::inputs(m);
    if constexpr (Inputs == 1) {
      return g.op("Identity", in[0]);
    } else {
      const auto mean = [&](std::span<const ir::value> terms) {
        return g.op("Div", variadic(g, "Sum", terms),
                    scalar_like(g, terms[0], static_cast<double>(Inputs)));
      };
      return one_shape_below_2d(g, in) ? in_rows(g, in, mean) : mean(in);
    }
  }
};
using mean_of_one = mean_as_sum<"mean_of_one", 1>;
using mean_of_two = mean_as_sum<"mean_of_two", 2>;
using mean_of_three = mean_as_sum<"mean_of_three", 3>;

// ---- A stored constant broadcast over a computed tensor ----
// OpenCV 4.6 applies a stored constant c to a computed tensor x (Add, Sub, Mul, Div; x of 2 dims
// or more, c of no more) in a few forms only; the others fail when the net runs, or, where the
// dims happen to fit, give wrong numbers. Measured over ranks 2 to 5, every form c can take, each
// op either way round, and c both as an initializer and as a Constant node's output
// (differential.opencv_dnn_forms runs them all):
// - c of one element: always;
// - c / x: only then (otherwise wrong numbers);
// - Add and Sub of an initializer: when c, aligned with x's last axes, is x's own dims for a
//   while and then ones ([3, 1, 1] over [2, 3, 4, 5]; not [1, 3, 1, 1] there, nor [4, 5, 1]);
// - Mul and Div by c, and Add and Sub of a Constant node's output: when c, its leading ones
//   left out, starts at x's axis 1 and is x's own dims for a while, then ones ([1, 3, 4, 1] and
//   [3, 4, 5] over [2, 3, 4, 5]; not [4, 5]); and Add and Sub of c of x's very shape.
namespace broadcast {
using dims = std::vector<std::int64_t>;

// Whether c, from x's axis `at` on, is x's own dims for a while and then ones.
inline bool own_dims_then_ones(const dims& x, const dims& c, std::size_t at) {
  std::size_t i = 0;
  while (i < c.size() && c[i] == x[at + i]) ++i;
  return std::all_of(c.begin() + static_cast<std::ptrdiff_t>(i), c.end(),
                     [](auto d) { return d == 1; });
}

inline bool is_shift(std::string_view op) { return op == "Add" || op == "Sub"; }

// Whether d is one element held in one or more axes.
inline bool single(const dims& d) {
  return !d.empty() && std::all_of(d.begin(), d.end(), [](auto x) { return x == 1; });
}

// Whether c broadcasts to x's own shape (aligned with x's last axes, no higher rank, widening
// none of x's axes).
inline bool fits(const dims& x, const dims& c) {
  if (c.size() > x.size()) return false;
  const auto offset = x.size() - c.size();
  for (std::size_t i = 0; i < c.size(); ++i)
    if (c[i] != 1 && c[i] != x[offset + i]) return false;
  return true;
}

// Whether OpenCV 4.6 computes `op` right with the constant c (before x when constant_first).
inline bool accepted(std::string_view op, const dims& x, const dims& c, bool constant_first,
                     bool from_constant_node) {
  if (ir::element_count(c) == 1) return true;
  if (c.size() > x.size() || (op == "Div" && constant_first)) return false;
  if (is_shift(op) && !from_constant_node) return own_dims_then_ones(x, c, x.size() - c.size());
  if (is_shift(op) && c == x) return true;
  const auto first = std::find_if(c.begin(), c.end(), [](auto d) { return d != 1; });
  const dims rest(first, c.end());
  return x.size() - rest.size() == 1 && own_dims_then_ones(x, rest, 1);
}

// The dims convert writes c in, as an initializer, where it is not accepted as it is: x's dims
// from the first axis c varies along (axis 1 for Mul and Div) to the last, then ones, with c's
// values repeated along the axes it is broadcast over. nullopt where no form is accepted (c / x,
// Mul and Div by a c that varies along the batch axis or where x's axis 1 is 1).
inline std::optional<dims> accepted_form(std::string_view op, const dims& x, const dims& c,
                                         bool constant_first) {
  if (!fits(x, c)) return std::nullopt;
  const auto offset = x.size() - c.size();
  std::optional<std::size_t> first, last;
  for (std::size_t i = 0; i < c.size(); ++i)
    if (c[i] != 1) {
      if (!first) first = offset + i;
      last = offset + i;
    }
  if (!first) return std::nullopt;  // one element: accepted as it is
  const std::size_t from = is_shift(op) ? *first : 1;
  if (*first < from) return std::nullopt;
  dims form(x.begin() + static_cast<std::ptrdiff_t>(from),
            x.begin() + static_cast<std::ptrdiff_t>(*last) + 1);
  form.resize(x.size() - from, 1);
  if (!accepted(op, x, form, constant_first, false)) return std::nullopt;
  return form;
}

// c's float32 values in `form`, the dims of x's axes from x.size() - form.size() on.
inline ir::tensor repeated(const ir::tensor_view& c, const dims& form) {
  // c's dims aligned with the form's: its leading ones beyond the form dropped, or ones added.
  auto c_dims = c.dims();
  while (c_dims.size() > form.size()) c_dims.erase(c_dims.begin());
  c_dims.insert(c_dims.begin(), form.size() - c_dims.size(), 1);
  const auto values = ir::values_as_double(c);
  std::vector<float> out(static_cast<std::size_t>(ir::element_count(form)));
  std::vector<std::int64_t> at(form.size(), 0);
  for (auto& v : out) {
    std::int64_t source = 0;
    for (std::size_t a = 0; a < form.size(); ++a)
      source = source * c_dims[a] + (c_dims[a] == 1 ? 0 : at[a]);
    v = static_cast<float>(values[static_cast<std::size_t>(source)]);
    for (std::size_t a = form.size(); a-- > 0;) {
      if (++at[a] < form[a]) break;
      at[a] = 0;
    }
  }
  return ir::tensor::of(out, form);
}
}  // namespace broadcast

// The constant written again in the form OpenCV takes (broadcast::accepted_form), as an
// initializer: its values repeated along the axes it is broadcast over, so the op reads the
// same numbers. Exact.
template <fixed_string Op, fixed_string Name>
struct constant_in_accepted_form : rc::rule<Name> {
  static constexpr auto pattern = rc::either(rc::op<Op>("x"_v, "c"_c).template as<"node">(),
                                             rc::op<Op>("c"_c, "x"_v).template as<"node">());
  static bool constant_first(const auto& m) {
    return m["node"_n].node->input(0) == m["c"_c].name();
  }
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    const auto &x = m["x"_v], &c = m["c"_c];
    if (g.constant_data(x)) return rc::reject("both inputs are constants");
    const auto xs = x.has_shape() ? x.static_shape() : std::nullopt;
    if (!xs || xs->size() < 2)
      return rc::reject("the computed input is not static, of 2 dims or more");
    const ir::tensor_view data = g.constant_data(c);
    if (data.type() != ir::dtype::f32) return rc::reject("the constant is not float32");
    const bool from_node = g.producer(c).has_value();
    if (!broadcast::accepted_form(Op.view(), *xs, data.dims(), constant_first(m)))
      return rc::reject("no form of the constant is one OpenCV takes here, or it widens x");
    if (broadcast::accepted(Op.view(), *xs, data.dims(), constant_first(m), from_node))
      return rc::reject("OpenCV takes the constant in this form");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto &x = m["x"_v], &c = m["c"_c];
    const ir::tensor_view data = g.constant_data(c);
    const bool first = constant_first(m);
    const auto form = *broadcast::accepted_form(Op.view(), *x.static_shape(), data.dims(), first);
    std::string name = c.name() + "_broadcast";
    for (int k = 1; g.has_name(name); ++k) name = c.name() + "_broadcast_" + std::to_string(k);
    const auto written = g.initializer(name, broadcast::repeated(data, form));
    const ir::value in[] = {first ? written : x, first ? x : written};
    return variadic(g, Op.view(), in);
  }
};
using add_constant_in_accepted_form =
    constant_in_accepted_form<"Add", "add_constant_in_accepted_form">;
using sub_constant_in_accepted_form =
    constant_in_accepted_form<"Sub", "sub_constant_in_accepted_form">;
using mul_constant_in_accepted_form =
    constant_in_accepted_form<"Mul", "mul_constant_in_accepted_form">;
using div_constant_in_accepted_form =
    constant_in_accepted_form<"Div", "div_constant_in_accepted_form">;

// The computed input and the stored constant of a match of `rc::op<Op>("a"_v, "b"_v)` that has
// one of each, and whether the constant comes first.
struct computed_and_constant {
  ir::value x, c;
  bool constant_first = false;
  static std::optional<computed_and_constant> of(const auto& m) {
    const auto& g = m.graph();
    const bool a = g.constant_data(m["a"_v]) != nullptr, b = g.constant_data(m["b"_v]) != nullptr;
    if (a == b) return std::nullopt;
    return a ? computed_and_constant{m["b"_v], m["a"_v], true}
             : computed_and_constant{m["a"_v], m["b"_v], false};
  }
  // `op` over the constant and `computed` in place of x, in the order they were written.
  ir::value op(ir::graph& g, std::string_view op, const ir::value& computed) const {
    const ir::value in[] = {constant_first ? c : computed, constant_first ? computed : c};
    return variadic(g, op, in);
  }
};

// Whether a stored constant of dims c widens the computed input x of an Add, Sub, Mul or Div:
// the output is larger than x. OpenCV 4.6 then fails when the net runs, whatever the shapes
// (measured for each op, the constant first and second, ranks 2 to 4: a [1, 1] plus a [3], a
// [2, 1, 4] times a [3, 1]; tests/data/differential/seed-50713-*).
inline bool widened_by_constant(std::string_view op, const std::vector<std::int64_t>& x,
                                const std::vector<std::int64_t>& c) {
  if (op != "Add" && op != "Sub" && op != "Mul" && op != "Div") return false;
  const auto out = expansion::joined(x, c);
  return out && *out != x;
}

// An op whose stored constant widens its computed input (widened_by_constant): the input
// expanded to the output's shape first (an Expand that expand_in_steps writes in steps OpenCV
// takes), so the constant broadcasts over it. Exact: an Expand copies.
template <fixed_string Op, fixed_string Name>
struct expanded_to_constant : rc::rule<Name> {
  static constexpr auto pattern = rc::op<Op>("a"_v, "b"_v);
  static rc::verdict condition(const auto& m) {
    const auto in = computed_and_constant::of(m);
    if (!in) return rc::reject("not one constant input");
    if (!in->x.has_shape() || !in->x.static_shape())
      return rc::reject("the input's shape is not static");
    const ir::tensor_view c = m.graph().constant_data(in->c);
    if (!widened_by_constant(Op.view(), *in->x.static_shape(), c.dims()))
      return rc::reject("the constant does not widen the input");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto in = *computed_and_constant::of(m);
    const ir::tensor_view c = g.constant_data(in.c);
    const auto out = *expansion::joined(*in.x.static_shape(), c.dims());
    return in.op(g, Op.view(), g.op("Expand", in.x, ir::ints_constant(g, out)));
  }
};
using add_expanded_to_constant = expanded_to_constant<"Add", "add_expanded_to_constant">;
using sub_expanded_to_constant = expanded_to_constant<"Sub", "sub_expanded_to_constant">;
using mul_expanded_to_constant = expanded_to_constant<"Mul", "mul_expanded_to_constant">;
using div_expanded_to_constant = expanded_to_constant<"Div", "div_expanded_to_constant">;

// Whether a stored constant of dims c, applied to a tensor of rank `rank`, is one OpenCV 4.6
// folds into a convolution right: a single element, or one that varies along axis 1 alone.
inline bool per_channel_or_single(std::size_t rank, const std::vector<std::int64_t>& c) {
  if (ir::element_count(c) <= 1) return true;
  if (c.size() > rank) return false;
  for (std::size_t k = 0; k < c.size(); ++k)
    if (rank - c.size() + k != 1 && c[k] != 1) return false;
  return true;
}

// The op that makes `x`, looked through the layers OpenCV 4.6 folds into a convolution before
// it: a BatchNormalization, and an Add, Sub, Mul or Div of a constant per_channel_or_single
// (tests/data/differential/seed-1795934330-*: a Conv, plus one, plus a [3, 1]). Over any view of
// a model: producer(name) gives the node that makes a value (or nullopt), constant_dims(name) a
// stored constant's dims (or nullopt), rank(name) a value's rank (or nullopt).
inline std::string convolution_behind(std::string x, const auto& producer,
                                      const auto& constant_dims, const auto& rank) {
  for (;;) {
    const auto made = producer(x);
    if (!made) return {};
    const std::string op = made->op_type();
    if (op == "BatchNormalization") {
      x = made->input(0);
      continue;
    }
    if ((op == "Add" || op == "Sub" || op == "Mul" || op == "Div") && made->input_count() == 2) {
      const auto a = constant_dims(made->input(0)), b = constant_dims(made->input(1));
      const std::string computed = a ? made->input(1) : made->input(0);
      const auto r = rank(computed);
      if (a.has_value() != b.has_value() && r && per_channel_or_single(*r, a ? *a : *b)) {
        x = computed;
        continue;
      }
    }
    return op;
  }
}

// Whether OpenCV 4.6 folds `op` with a stored constant of dims c into the convolution that
// makes its other input (of rank `rank`; `producer` is convolution_behind's answer) as if c were
// per channel: an Add, Sub, Mul or Div after a Conv or ConvTranspose, c not per_channel_or_single.
// The net then fails when it runs, or, where c's length happens to be the channel count, gives
// wrong numbers (tests/data/differential/seed-40510-*, seed-40298-*).
inline bool folded_into_convolution(std::string_view op, std::string_view producer,
                                    std::size_t rank, const std::vector<std::int64_t>& c) {
  if (op != "Add" && op != "Sub" && op != "Mul" && op != "Div") return false;
  if (producer != "Conv" && producer != "ConvTranspose") return false;
  return !per_channel_or_single(rank, c);
}

// An op with a constant that OpenCV would fold into the convolution before it
// (folded_into_convolution): the convolution's output reshaped to its own shape first, which
// OpenCV computes as a layer of its own and folds nothing into. Exact: a Reshape copies.
template <fixed_string Op, fixed_string Name>
struct apart_from_convolution : rc::rule<Name> {
  static constexpr auto pattern = rc::op<Op>("a"_v, "b"_v);
  static rc::verdict condition(const auto& m) {
    const auto in = computed_and_constant::of(m);
    if (!in) return rc::reject("not one constant input");
    const auto& g = m.graph();
    if (!in->x.has_shape() || !in->x.static_shape()) return rc::reject("not of static shape");
    const auto behind = convolution_behind(
        in->x.name(), [&](const std::string& v) { return g.producer(g.find(v)); },
        [&](const std::string& v) -> std::optional<std::vector<std::int64_t>> {
          const ir::tensor_view t = g.constant_data(g.find(v));
          return t ? std::optional(t.dims()) : std::nullopt;
        },
        [&](const std::string& v) -> std::optional<std::size_t> {
          const auto value = g.find(v);
          return value.has_shape() ? std::optional(value.rank()) : std::nullopt;
        });
    const ir::tensor_view c = g.constant_data(in->c);
    if (!folded_into_convolution(Op.view(), behind, in->x.rank(), c.dims()))
      return rc::reject("OpenCV folds nothing wrong here");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto in = *computed_and_constant::of(m);
    return in.op(g, Op.view(), g.op("Reshape", in.x, ir::ints_constant(g, *in.x.static_shape())));
  }
};
using add_apart_from_convolution = apart_from_convolution<"Add", "add_apart_from_convolution">;
using sub_apart_from_convolution = apart_from_convolution<"Sub", "sub_apart_from_convolution">;
using mul_apart_from_convolution = apart_from_convolution<"Mul", "mul_apart_from_convolution">;
using div_apart_from_convolution = apart_from_convolution<"Div", "div_apart_from_convolution">;

// `node` written again over `inputs` (values of the graph being built, in its order), input
// `at` reshaped to its own (static) shape first: a layer of its own in OpenCV 4.6, which nothing
// is fused into and which fuses nothing. Exact: a Reshape copies.
inline ir::value with_input_reshaped(ir::graph& g, const ir::node_view& node,
                                     std::vector<ir::value> inputs, std::size_t at) {
  ir::node_spec spec;
  spec.op_type = node.op_type();
  spec.name = node.name();
  spec.doc_string = node.doc_string();
  inputs[at] = g.op("Reshape", inputs[at], ir::ints_constant(g, *inputs[at].static_shape()));
  spec.inputs = std::move(inputs);
  for (const auto& a : node.attributes()) spec.attributes.push_back(a);
  return g.emit(std::move(spec)).front();
}

// Whether OpenCV 4.6 fuses a per-channel op (BatchNormalization, PRelu) into the layer that
// makes its input and then applies it to the wrong elements: the input made by an Add, Sub,
// Mul, Div, Max, Min or Sum of computed tensors (`inputs_computed`), or by an Add or Sub of a
// computed tensor and a stored constant of the output's own dims (`constant_of_its_dims`, which
// OpenCV holds as a layer of its own), and of 2 or 3 dims. Measured for each op over [1, 5],
// [2, 5] and [1, 5, 3], and for each constant form beside [2, 8], [1, 8], [2, 8, 5] and
// [1, 8, 5] (a constant of fewer dims, or a Mul or Div, is folded in right); in 4-D it is
// right. No error: wrong numbers (tests/data/differential/seed-70635-*, seed-1795963609-*).
inline bool fused_into_eltwise(std::string_view op, std::string_view producer, bool inputs_computed,
                               bool constant_of_its_dims, std::size_t rank) {
  static constexpr std::string_view eltwise[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum"};
  if (op != "BatchNormalization" && op != "PRelu") return false;
  if (rank != 2 && rank != 3) return false;
  if (constant_of_its_dims && (producer == "Add" || producer == "Sub")) return true;
  return inputs_computed &&
         std::find(std::begin(eltwise), std::end(eltwise), producer) != std::end(eltwise);
}

// Whether OpenCV 4.6 fuses a BatchNormalization or PRelu into the MatMul by a stored matrix
// before it (`by_stored_matrix`: an InnerProduct layer, whose fused per-channel op acts per
// output column, the last axis) where its channels are axis 1 of 3 dims or more: a
// BatchNormalization, or a PRelu whose slope varies along another axis than the last. Measured
// over [2, 4, 2], [1, 4, 2] and [2, 4, 5, 2] by [2, 3], slopes [4, 1] and [4, 1, 1] wrong, [3]
// and [1] right, and 2 dims right. No error: wrong numbers (tests/data/differential/
// seed-1795991306-*).
inline bool fused_into_inner_product(std::string_view op, bool by_stored_matrix, std::size_t rank,
                                     std::span<const std::int64_t> slope_dims) {
  if (!by_stored_matrix || rank < 3) return false;
  if (op == "BatchNormalization") return true;
  if (op != "PRelu") return false;
  // Varying along the last axis alone: [K], [1, K], ... (or a single element).
  for (std::size_t i = 0; i + 1 < slope_dims.size(); ++i)
    if (slope_dims[i] != 1) return true;
  return false;
}

// A BatchNormalization or PRelu that OpenCV would fuse into the layer before it
// (fused_into_eltwise, fused_into_inner_product): its input reshaped to its own shape first, a
// layer of its own that nothing is fused into. Exact: a Reshape copies.
struct apart_from_eltwise {
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    const auto& x = m["x"_v];
    const auto node = m.nodes().front();
    if (node.output_count() > 1) return rc::reject("it gives its statistics too");
    const auto made = g.producer(x);
    if (!made || !x.has_shape() || !x.static_shape()) return rc::reject("no node of static shape");
    bool computed = true, constant_of_its_dims = false;
    for (std::size_t k = 0; k < made->input_count(); ++k) {  // "": an absent optional input
      if (made->input(k).empty()) continue;
      const ir::tensor_view c = g.constant_data(g.find(made->input(k)));
      computed = computed && !c;
      constant_of_its_dims = constant_of_its_dims || (c && c.dims() == *x.static_shape());
    }
    const bool by_stored_matrix = made->op_type() == "MatMul" && made->input_count() == 2 &&
                                  g.constant_data(g.find(made->input(1)));
    const ir::tensor_view slope =
        node.op_type() == "PRelu" ? g.constant_data(g.find(node.input(1))) : ir::tensor_view();
    const auto slope_dims = node.op_type() != "PRelu" ? std::vector<std::int64_t>{}
                            : slope                   ? slope.dims()
                                                      : std::vector<std::int64_t>{0, 0};
    if (!fused_into_eltwise(node.op_type(), made->op_type(), computed, constant_of_its_dims,
                            x.rank()) &&
        !fused_into_inner_product(node.op_type(), by_stored_matrix, x.rank(), slope_dims))
      return rc::reject("OpenCV fuses nothing wrong here");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto node = m.nodes().front();
    std::vector<ir::value> in{m["x"_v]};
    for (std::size_t k = 1; k < node.input_count(); ++k) in.push_back(g.find(node.input(k)));
    return with_input_reshaped(g, node, std::move(in), 0);
  }
};
struct batch_norm_apart_from_eltwise : rc::rule<"batch_norm_apart_from_eltwise">,
                                       apart_from_eltwise {
  static constexpr auto pattern =
      rc::op<"BatchNormalization">("x"_v, "scale"_v, "bias"_v, "mean"_v, "var"_v);
};
struct prelu_apart_from_eltwise : rc::rule<"prelu_apart_from_eltwise">, apart_from_eltwise {
  static constexpr auto pattern = rc::op<"PRelu">("x"_v, "slope"_v);
};

// Whether OpenCV 4.6 makes a Power layer with an exponent other than 1 of a node `op` whose
// inputs are `a` and `b` (each its value where it is a stored single element): a Pow by such an
// element other than 1, or such an element divided by a tensor.
inline bool raised_to_a_power(std::string_view op, std::optional<double> a,
                              std::optional<double> b) {
  if (op == "Pow") return !a && b && *b != 1.0;
  return op == "Div" && a && !b;
}

// Whether OpenCV 4.6 fuses `op`, reading a Power layer (raised_to_a_power) at input `at` where
// nothing else reads it, into that layer as a scale and shift applied before the power: it
// computes (a x + b)^p where a x^p + b is due (no error: wrong numbers, NaN for a negative a and
// a fractional p). `other_single`: the op's other input (BatchNormalization's scale) is a stored
// single element. Measured for Add, Sub and Mul either way round, a Div by the element, a Neg
// and a BatchNormalization of one channel, after exponents -0.43, 0.5, 2 and 3 and after 1.5 / x;
// a Div of an element by the power, a Pow, Relu, Sqrt or a BatchNormalization of 3 channels
// after it are right, and so is anything after a Pow by 1 (tests/data/differential/seed-81062-*).
inline bool fused_into_power(std::string_view op, std::size_t at, bool other_single) {
  if (op == "Neg") return true;
  if (op == "Add" || op == "Sub" || op == "Mul") return other_single;
  return (op == "Div" || op == "BatchNormalization") && at == 0 && other_single;
}

// The Power layers of raised_to_a_power, as a pattern (the match's second node): its interior
// must have no other reader, as OpenCV's fusion wants.
inline constexpr auto power_layer =
    rc::either(rc::op<"Pow">("x"_v, "p"_c), rc::op<"Div">("p"_c, "x"_v));

// An op that OpenCV would fuse into the Power layer before it (fused_into_power): the power's
// output reshaped to its own shape first, a layer of its own that nothing is fused into.
// `Rule::inputs(m, power)` gives the op's inputs in order, the power's output among them.
template <class Rule>
struct apart_from_power {
  static ir::value power_of(const auto& m) { return m.graph().find(m.nodes()[1].output(0)); }
  static std::size_t power_at(const std::vector<ir::value>& in, const ir::value& power) {
    return static_cast<std::size_t>(
        std::find_if(in.begin(), in.end(),
                     [&](const auto& v) { return v.name() == power.name(); }) -
        in.begin());
  }
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    const auto node = m.nodes().front();
    const auto power = m.nodes()[1];
    if (node.output_count() > 1) return rc::reject("it gives its statistics too");
    const auto single = [&](const std::string& v) { return scalar_of(g.constant_data(g.find(v))); };
    if (!raised_to_a_power(power.op_type(), single(power.input(0)), single(power.input(1))))
      return rc::reject("OpenCV makes no Power layer of an exponent other than 1 here");
    const auto out = power_of(m);
    const auto in = Rule::inputs(m, out);
    const auto at = power_at(in, out);
    const bool other_single =
        in.size() > 1 && scalar_of(g.constant_data(in[at == 0 ? 1 : 0])).has_value();
    if (!fused_into_power(node.op_type(), at, other_single))
      return rc::reject("OpenCV fuses nothing wrong here");
    if (!out.has_shape() || !out.static_shape()) return rc::reject("not of static shape");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto out = power_of(m);
    auto in = Rule::inputs(m, out);
    const auto at = power_at(in, out);
    return with_input_reshaped(g, m.nodes().front(), std::move(in), at);
  }
};
// An Add, Sub or Mul of the power and a constant, either way round.
template <fixed_string Op, fixed_string Name>
struct scale_apart_from_power : rc::rule<Name>, apart_from_power<scale_apart_from_power<Op, Name>> {
  static constexpr auto pattern =
      rc::either(rc::op<Op>(power_layer, "c"_c).template as<"power_first">(),
                 rc::op<Op>("c"_c, power_layer).template as<"constant_first">());
  static std::vector<ir::value> inputs(const auto& m, const ir::value& power) {
    if (m["constant_first"_n].node) return {m["c"_c], power};
    return {power, m["c"_c]};
  }
};
using add_apart_from_power = scale_apart_from_power<"Add", "add_apart_from_power">;
using sub_apart_from_power = scale_apart_from_power<"Sub", "sub_apart_from_power">;
using mul_apart_from_power = scale_apart_from_power<"Mul", "mul_apart_from_power">;
struct div_apart_from_power : rc::rule<"div_apart_from_power">,
                              apart_from_power<div_apart_from_power> {
  static constexpr auto pattern = rc::op<"Div">(power_layer, "c"_c);
  static std::vector<ir::value> inputs(const auto& m, const ir::value& power) {
    return {power, m["c"_c]};
  }
};
struct neg_apart_from_power : rc::rule<"neg_apart_from_power">,
                              apart_from_power<neg_apart_from_power> {
  static constexpr auto pattern = rc::op<"Neg">(power_layer);
  static std::vector<ir::value> inputs(const auto&, const ir::value& power) { return {power}; }
};
struct batch_norm_apart_from_power : rc::rule<"batch_norm_apart_from_power">,
                                     apart_from_power<batch_norm_apart_from_power> {
  static constexpr auto pattern =
      rc::op<"BatchNormalization">(power_layer, "scale"_c, "bias"_c, "mean"_c, "var"_c);
  static std::vector<ir::value> inputs(const auto& m, const ir::value& power) {
    return {power, m["scale"_c], m["bias"_c], m["mean"_c], m["var"_c]};
  }
};

// A Concat of stored constants and a graph input of a batch of one: OpenCV 4.6 joins them with
// wrong values (1e37s: tests/data/differential/seed-1795929651-*), whether the constant is an
// initializer or a Constant node, first or last; with a computed tensor, or at a batch of 2, it
// is right. Each graph input reshaped to its own shape first makes it a computed tensor. Exact.
struct concat_input_apart : rc::rule<"concat_input_apart"> {
  static constexpr auto pattern =
      rc::op<"Concat">("a"_v, "b"_v, rc::optional("c"_v)).as<"concat">();
  static bool graph_input(const ir::graph& g, const ir::value& v) {
    return v.valid() && !g.producer(v) && !g.constant_data(v);
  }
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    bool constant = false, input = false;
    for (const auto& v : inputs(m)) {
      constant = constant || g.constant_data(v) != nullptr;
      if (graph_input(g, v)) {
        if (!v.has_shape() || !v.static_shape()) return rc::reject("a graph input is not static");
        input = input || v.static_shape()->front() == 1;
      }
    }
    if (!constant || !input)
      return rc::reject("no constant beside a graph input of a batch of one");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    std::vector<ir::value> in;
    for (const auto& v : inputs(m))
      in.push_back(graph_input(g, v) ? g.op("Reshape", v, ir::ints_constant(g, *v.static_shape()))
                                     : v);
    const auto axis = "axis"_i = m["concat"_n]["axis"_i].value_or(0);
    return in.size() == 3 ? g.op("Concat", in[0], in[1], in[2], axis)
                          : g.op("Concat", in[0], in[1], axis);
  }
  static std::vector<ir::value> inputs(const auto& m) {
    std::vector<ir::value> in{m["a"_v], m["b"_v]};
    if (m.has("c"_v)) in.push_back(m["c"_v]);
    return in;
  }
};

// A Div by a stored constant (not a single element) that other nodes read too: OpenCV 4.6's
// importer takes the divisor's reciprocal in place, so they read 1 / c as well
// (tests/data/differential/seed-40514-*: no error, wrong numbers). The Div is given a copy of
// its own.
struct divisor_copied : rc::rule<"divisor_copied"> {
  static constexpr auto pattern = rc::op<"Div">("x"_v, "c"_c);
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    if (g.constant_data(m["x"_v])) return rc::reject("both inputs are constants");
    const ir::tensor_view c = g.constant_data(m["c"_c]);
    if (c.element_count() <= 1) return rc::reject("a single element, divided by as a power");
    if (m.readers(m["c"_c]) < 2) return rc::reject("the Div alone reads it");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const ir::tensor_view c = g.constant_data(m["c"_c]);
    std::string name = m["c"_c].name() + "_divisor";
    for (int k = 1; g.has_name(name); ++k) name = m["c"_c].name() + "_divisor_" + std::to_string(k);
    return g.op("Div", m["x"_v], g.initializer(name, c.reshaped(c.dims())));
  }
};

// Which input of `op` (Add, Sub, Mul, Div, Max, Min or a Sum of two) on two computed tensors is
// a single element broadcast over the other, where OpenCV 4.6 fails on it (0 or 1; nullopt
// where neither is). Every such Mul and Div fails to load or run, and every such Add and Sub
// but the element after a [1, 1, H, W] (measured over 4-D batches of one, [1, 4], [1, 2, 3]
// and 5-D, ReduceMean's and GlobalAveragePool's single elements alike;
// tests/data/differential/seed-9908-*); so does a single element of the higher rank, either
// side, for every op (a [1, 1] and a [5]: seed-70635-*).
inline std::optional<std::size_t> single_element_broadcast(std::string_view op,
                                                           const std::vector<std::int64_t>& a,
                                                           const std::vector<std::int64_t>& b) {
  if (a == b) return std::nullopt;
  if (broadcast::single(b)) {
    const bool runs = (op == "Add" || op == "Sub") && a.size() == 4 && a[0] == 1 && a[1] == 1 &&
                      b.size() <= a.size();
    return runs ? std::nullopt : std::optional<std::size_t>(1);
  }
  if (broadcast::single(a)) return 0;
  return std::nullopt;
}

namespace broadcast {
// Whether OpenCV 4.6 computes `op` (Add, Sub, Mul, Div, Max, Min or a Sum of two) over two
// computed inputs of shapes a and b as written. Measured over every pair of shapes that
// broadcast to one of ranks 2 to 4 at batches 1 and 2, either input of lower rank: Mul and Div
// only per channel ([N, C, 1, 1] over [N, C, H, W]) or along one axis in 3-D or more; Add, Sub,
// Max, Min and Sum in no form reliably (each fails to load or run, or runs wrong, for some
// producer of the same shapes: tests/data/differential/seed-5067-*, seed-9309-*). A Div
// broadcasts its divisor only: a broadcast dividend is divided by, not into (seed-41218-*).
// In a model with open dims (`open`) Mul and Div fail too, per channel or along one axis, at
// any batch but 1 (probed at 3: computed_broadcast_open_dims).
inline bool computed_taken(std::string_view op, const dims& a, const dims& b, bool open = false) {
  if (a == b) return true;
  if (single(a) || single(b)) return !single_element_broadcast(op, a, b).has_value();
  if (open) return false;
  if ((op != "Mul" && op != "Div") || a.size() != b.size() || a.size() < 3) return false;
  const auto per_channel = [](const dims& big, const dims& small) {
    return (small[0] == 1 || small[0] == big[0]) && small[1] == big[1] &&
           std::all_of(small.begin() + 2, small.end(), [](auto d) { return d == 1; });
  };
  std::size_t differing = 0;
  bool dividend_broadcast = false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    differing += a[i] != b[i];
    dividend_broadcast = dividend_broadcast || (op == "Div" && a[i] < b[i]);
  }
  if (dividend_broadcast) return false;
  return differing == 1 || per_channel(a, b) || per_channel(b, a);
}

}  // namespace broadcast

// An Add, Sub, Mul, Div, Max, Min or Sum of two computed tensors broadcast in a form OpenCV
// does not take (broadcast::computed_taken): each input expanded to the output's shape first
// (an Expand that expand_in_steps writes in steps OpenCV takes), so the op joins two tensors of
// one shape. Exact: an Expand copies. A division by a single element is single_element_divisor's.
template <fixed_string Op, fixed_string Name>
struct computed_broadcast_expanded : rc::rule<Name> {
  static constexpr auto pattern = rc::op<Op>("a"_v, "b"_v);
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    const auto &a = m["a"_v], &b = m["b"_v];
    if (g.constant_data(a) || g.constant_data(b)) return rc::reject("an input is a constant");
    const auto as = a.has_shape() ? a.static_shape() : std::nullopt;
    const auto bs = b.has_shape() ? b.static_shape() : std::nullopt;
    if (!as || !bs) return rc::reject("a shape is not static");
    if (a.dtype() != ir::dtype::f32) return rc::reject("not float32");
    if (broadcast::computed_taken(Op.view(), *as, *bs, m.cfg().at_trial_sizes))
      return rc::reject("OpenCV takes the form");
    if (fused_into_softmax(g, Op.view(), a, b))
      return rc::reject("a softmax OpenCV fuses into one layer");
    if (Op.view() == "Div" && broadcast::single(*bs))
      return rc::reject("a division by a single element (single_element_divisor)");
    if (!expansion::joined(*as, *bs)) return rc::reject("the shapes do not broadcast");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto &a = m["a"_v], &b = m["b"_v];
    const auto out = *expansion::joined(*a.static_shape(), *b.static_shape());
    const auto grown = [&](const ir::value& v) {
      return *v.static_shape() == out ? v : g.op("Expand", v, ir::ints_constant(g, out));
    };
    const ir::value in[] = {grown(a), grown(b)};
    return variadic(g, Op.view(), in);
  }
};
using add_broadcast_expanded = computed_broadcast_expanded<"Add", "add_broadcast_expanded">;
using sub_broadcast_expanded = computed_broadcast_expanded<"Sub", "sub_broadcast_expanded">;
using mul_broadcast_expanded = computed_broadcast_expanded<"Mul", "mul_broadcast_expanded">;
using div_broadcast_expanded = computed_broadcast_expanded<"Div", "div_broadcast_expanded">;
using max_broadcast_expanded = computed_broadcast_expanded<"Max", "max_broadcast_expanded">;
using min_broadcast_expanded = computed_broadcast_expanded<"Min", "min_broadcast_expanded">;
using sum_broadcast_expanded = computed_broadcast_expanded<"Sum", "sum_broadcast_expanded">;

// A Sum, Max or Min of three computed inputs whose shapes differ (OpenCV 4.6 fails to load or
// run them: seeds 20845, 20984): the op over the first two, then over that and the third, so
// that each pair is one computed_broadcast_expanded takes. Exact: each is associative.
template <fixed_string Op, fixed_string Name>
struct of_three_in_pairs : rc::rule<Name> {
  static constexpr auto pattern = rc::op<Op>("a"_v, "b"_v, "c"_v);
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    const ir::value in[] = {m["a"_v], m["b"_v], m["c"_v]};
    for (const auto& v : in) {
      if (g.constant_data(v)) return rc::reject("an input is a constant");
      if (!v.has_shape() || !v.static_shape()) return rc::reject("a shape is not static");
    }
    if (*in[0].static_shape() == *in[1].static_shape() &&
        *in[1].static_shape() == *in[2].static_shape())
      return rc::reject("the shapes are one");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const ir::value first[] = {m["a"_v], m["b"_v]};
    const ir::value then[] = {variadic(g, Op.view(), first), m["c"_v]};
    return variadic(g, Op.view(), then);
  }
};
using sum_of_three_in_pairs = of_three_in_pairs<"Sum", "sum_of_three_in_pairs">;
using max_of_three_in_pairs = of_three_in_pairs<"Max", "max_of_three_in_pairs">;
using min_of_three_in_pairs = of_three_in_pairs<"Min", "min_of_three_in_pairs">;

// Max and Min with a stored constant (OpenCV 4.6 fails to load them: its Max and Min take
// computed inputs only): the constant made a computed tensor, Sigmoid(x) * 0 + c, which is c
// for every x (Sigmoid is finite), as the Clip rewrite makes its bounds.
template <fixed_string Op, fixed_string Name>
struct with_constant_computed : rc::rule<Name> {
  static constexpr auto pattern = rc::commutative(rc::op<Op>("x"_v, "c"_c));
  static rc::verdict condition(const auto& m) {
    const auto& g = m.graph();
    const auto &x = m["x"_v], &c = m["c"_c];
    if (g.constant_data(x)) return rc::reject("both inputs are constants");
    if (x.dtype() != ir::dtype::f32) return rc::reject("not float32");
    const auto xs = x.has_shape() ? x.static_shape() : std::nullopt;
    if (!xs || xs->size() < 2)
      return rc::reject("the computed input is not static, of 2 dims or more");
    if (!broadcast::fits(*xs, ir::tensor_view(g.constant_data(c)).dims()))
      return rc::reject("the constant widens the computed input");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto& x = m["x"_v];
    const auto zero = g.op("Mul", g.op("Sigmoid", x), scalar_like(g, x, 0.0));
    const ir::value in[] = {x, g.op("Add", zero, m["c"_c])};
    return variadic(g, Op.view(), in);
  }
};
using max_with_constant_computed = with_constant_computed<"Max", "max_with_constant_computed">;
using min_with_constant_computed = with_constant_computed<"Min", "min_with_constant_computed">;

// ---- Einsum, which OpenCV 4.6 has no layer for ----

// An Einsum equation that is a batched matrix product: the two operands and the output share
// their leading letters (the batch), then each has two more; the letter both operands have
// there and the output lacks is summed over. MaxViT's attention writes "bghid,bghjd->bghij"
// (q times k transposed) and "bghij,bghjd->bghid".
struct batched_matmul_plan {
  std::size_t rank = 0;        // of the operands and the output
  bool transpose_a = false;    // a ends [c, i]: its last two axes are swapped first
  bool transpose_b = false;    // b ends [k, c]
  bool transpose_out = false;  // the output ends [k, i]
};

// The plan of `equation` (spaces allowed); nullopt for any other equation (an ellipsis, a
// repeated letter, a sum over a batch letter, a third operand).
inline std::optional<batched_matmul_plan> batched_matmul_of(std::string_view equation) {
  std::string e;
  for (const char c : equation)
    if (c != ' ') e += c;
  const auto arrow = e.find("->");
  const auto comma = e.find(',');
  if (arrow == std::string::npos || comma == std::string::npos || comma > arrow) return {};
  const std::string a = e.substr(0, comma), b = e.substr(comma + 1, arrow - comma - 1),
                    out = e.substr(arrow + 2);
  const auto letters = [](const std::string& t) {
    for (std::size_t i = 0; i < t.size(); ++i)
      if (!std::isalpha(static_cast<unsigned char>(t[i])) || t.find(t[i], i + 1) != t.npos)
        return false;
    return true;
  };
  const auto n = a.size();
  if (n < 2 || b.size() != n || out.size() != n || !letters(a) || !letters(b) || !letters(out))
    return {};
  if (a.substr(0, n - 2) != b.substr(0, n - 2) || a.substr(0, n - 2) != out.substr(0, n - 2))
    return {};
  const std::string ta = a.substr(n - 2), tb = b.substr(n - 2), to = out.substr(n - 2);
  // The summed letter: in both operands' last two, not in the output.
  char c = 0;
  for (const char x : ta)
    if (tb.find(x) != tb.npos && out.find(x) == out.npos) c = x;
  if (!c) return {};
  const char i = ta[0] == c ? ta[1] : ta[0], k = tb[0] == c ? tb[1] : tb[0];
  if (i == k) return {};
  if (to != std::string{i, k} && to != std::string{k, i}) return {};
  return batched_matmul_plan{n, ta[0] == c, tb[1] == c, to[0] == k};
}

// Whether OpenCV 4.6 multiplies the two computed operands of the plan (their dims as the
// Einsum has them) as MatMul: of one rank, 2 to 6, with the same leading dims (it does not
// broadcast them; probed on MaxViT's shapes).
inline bool matmul_of_computed_taken(const batched_matmul_plan& plan, std::vector<std::int64_t> a,
                                     std::vector<std::int64_t> b) {
  if (a.size() != b.size() || a.size() != plan.rank || a.size() < 2 || a.size() > 6) return false;
  if (plan.transpose_a) std::swap(a[a.size() - 2], a.back());
  if (plan.transpose_b) std::swap(b[b.size() - 2], b.back());
  return std::equal(a.begin(), a.end() - 2, b.begin());
}

// Einsum as a batched matrix product: MatMul, with the Transposes its letters' order asks for.
struct einsum_as_matmul : rc::rule<"einsum_as_matmul"> {
  static constexpr auto pattern = rc::op<"Einsum">("a"_v, "b"_v).as<"einsum">();
  static rc::verdict condition(const auto& m) {
    const auto equation = m["einsum"_n].node->attribute("equation");
    if (!equation || !batched_matmul_of(equation->s()))
      return rc::reject("the equation is not a batched matrix product");
    const auto &a = m["a"_v], &b = m["b"_v];
    if (m.graph().constant_data(a) || m.graph().constant_data(b))
      return rc::reject("an operand is a constant");
    const auto as = a.has_shape() ? a.static_shape() : std::nullopt;
    const auto bs = b.has_shape() ? b.static_shape() : std::nullopt;
    if (!as || !bs) return rc::reject("a shape is not static");
    if (!matmul_of_computed_taken(*batched_matmul_of(equation->s()), *as, *bs))
      return rc::reject("the operands' leading dims differ, or their rank is outside 2 to 6");
    if (a.dtype() != ir::dtype::f32) return rc::reject("not float32");
    return true;
  }
  static ir::value replace(ir::graph& g, const auto& m) {
    const auto plan = *batched_matmul_of(m["einsum"_n].node->attribute("equation")->s());
    std::vector<std::int64_t> swap(plan.rank);
    for (std::size_t i = 0; i < plan.rank; ++i) swap[i] = static_cast<std::int64_t>(i);
    std::swap(swap[plan.rank - 2], swap[plan.rank - 1]);
    const auto swapped = [&](const ir::value& v) { return g.op("Transpose", v, "perm"_i = swap); };
    const auto a = plan.transpose_a ? swapped(m["a"_v]) : m["a"_v];
    const auto b = plan.transpose_b ? swapped(m["b"_v]) : m["b"_v];
    const auto product = g.op("MatMul", a, b);
    return plan.transpose_out ? swapped(product) : product;
  }
};

}  // namespace retarget::backends::opencv_dnn_convert

#endif  // RETARGET_BACKENDS_OPENCV_DNN_RULES_HPP
