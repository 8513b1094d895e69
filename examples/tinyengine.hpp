// tinyengine's package, as a user of retarget writes one for an engine of their own
// (tutorials 11 and 12). tinyengine is imaginary: it has no LayerNormalization, no Gemm and no
// Erf (so no erf-GELU), and runs Softmax on the last axis only. Otherwise it runs ONNX files as
// they are: here, on ONNX Runtime, after refusing what it lacks, as a real engine would fail to
// load them. The package holds
//   1. its tag;
//   2. to 6. its pattern rules and their rule set (tutorial 11);
//   7. its quirks: what it refuses, which `retarget check --backend tinyengine` lists;
//   8. its manager: how a model becomes its files and runs (retarget run, compare, deploy).
// and the transformer block both tutorials convert.
#ifndef RETARGET_EXAMPLES_TINYENGINE_HPP
#define RETARGET_EXAMPLES_TINYENGINE_HPP

#include <algorithm>
#include <cmath>
#include <retarget/backend/manager.hpp>
#include <retarget/backends/onnxruntime.hpp>
#include <retarget/convert.hpp>
#include <retarget/ir.hpp>
#include <string>
#include <vector>

// 1. The engine's tag.
struct tinyengine : retarget::backend_tag<"tinyengine"> {};

namespace tiny {

namespace rc = retarget::convert;
namespace rx = retarget::ir;
using namespace retarget::literals;  // "axis"_i, "epsilon"_f: attributes
using namespace rc::literals;        // "x"_v, "w"_c, "n"_n: captures; "transA"_i == 0: tests

// A float32 scalar constant.
inline rx::value scalar(rx::graph& g, float v) {
  return g.constant(rx::tensor::of<float>({v}, {}));
}

// 2. LayerNormalization, with or without its bias, over its axes: mean, variance, scale.
struct layer_norm : rc::rule<"layer_norm"> {
  static constexpr auto pattern =
      rc::op<"LayerNormalization">("x"_v, "scale"_v, rc::optional("bias"_v)).as<"ln">();
  static rc::verdict condition(const auto& m) {
    if (!m["x"_v].has_shape()) return rc::reject("the input's rank is unknown");
    return true;
  }
  static rx::value replace(rx::graph& g, const auto& m) {
    const auto& x = m["x"_v];
    const auto rank = static_cast<std::int64_t>(x.rank());
    auto axis = m["ln"_n]["axis"_i].value_or(-1);
    if (axis < 0) axis += rank;
    std::vector<std::int64_t> axes;
    for (auto a = axis; a < rank; ++a) axes.push_back(a);
    const float epsilon = m["ln"_n]["epsilon"_f].value_or(1e-5f);
    auto mean = g.op<"ReduceMean">(x, "axes"_i = axes);
    auto centred = g.op<"Sub">(x, mean);
    auto variance = g.op<"ReduceMean">(g.op<"Mul">(centred, centred), "axes"_i = axes);
    auto deviation = g.op<"Sqrt">(g.op<"Add">(variance, scalar(g, epsilon)));
    auto y = g.op<"Mul">(g.op<"Div">(centred, deviation), m["scale"_v]);
    return m.has("bias"_v) ? g.op<"Add">(y, m["bias"_v]) : y;
  }
};

// 3. Gemm, with or without C, A not transposed (an attribute test: the schema's default, 0,
// counts when the node sets none): MatMul, B transposed when transB says so.
struct gemm : rc::rule<"gemm"> {
  static constexpr auto pattern =
      rc::op<"Gemm">("a"_v, "b"_v, rc::optional("c"_v)).where("transA"_i == 0).as<"gemm">();
  static rx::value replace(rx::graph& g, const auto& m) {
    const auto& n = m["gemm"_n];
    auto b = n["transB"_i].value_or(0) ? g.op<"Transpose">(m["b"_v]) : m["b"_v];
    auto y = g.op<"MatMul">(m["a"_v], b);
    if (const float alpha = n["alpha"_f].value_or(1.0f); alpha != 1.0f)
      y = g.op<"Mul">(y, scalar(g, alpha));
    if (!m.has("c"_v)) return y;
    const float beta = n["beta"_f].value_or(1.0f);
    return g.op<"Add">(y, beta == 1.0f ? m["c"_v] : g.op<"Mul">(m["c"_v], scalar(g, beta)));
  }
};

// 4. GELU as exporters write it with Erf. torch writes x * (1 + erf(x / sqrt 2)) * 0.5; others
// write (x * 0.5) * (1 + erf(x * (1 / sqrt 2))). One pattern takes both: alternatives at the
// root and for the scaling, commutative products and sums, constants tested by value.
inline constexpr auto erf_term = rc::commutative(rc::op<"Add">(
    rc::op<"Erf">(rc::either(rc::op<"Div">("x"_v, rc::near("k"_c, 1.41421356, 1e-6)),
                             rc::op<"Mul">("x"_v, rc::near("k"_c, 0.70710678, 1e-6)))),
    "one"_c == 1.0));
inline constexpr auto gelu_pattern =
    rc::either(rc::commutative(
                   rc::op<"Mul">(rc::commutative(rc::op<"Mul">("x"_v, erf_term)), "half"_c == 0.5)),
               rc::commutative(rc::op<"Mul">(rc::commutative(rc::op<"Mul">("x"_v, "half"_c == 0.5)),
                                             erf_term)));

// The tanh form: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), within 1e-3 of GELU. An
// approximation: its rule runs only when the conversion names it, and its nodes carry its name.
struct gelu_as_tanh : rc::approximation<"gelu_as_tanh"> {};
struct gelu_tanh : rc::rule<"gelu_tanh"> {
  using approximation = gelu_as_tanh;
  static constexpr auto pattern = gelu_pattern;
  static rx::value replace(rx::graph& g, const auto& m) {
    const auto& x = m["x"_v];
    auto cube = g.op<"Mul">(g.op<"Mul">(x, x), x);
    auto inner = g.op<"Add">(x, g.op<"Mul">(cube, scalar(g, 0.044715f)));
    auto t = g.op<"Tanh">(g.op<"Mul">(inner, scalar(g, 0.7978845608f)));
    return g.op<"Mul">(g.op<"Mul">(x, scalar(g, 0.5f)), g.op<"Add">(t, scalar(g, 1.0f)));
  }
};

// The exact form: erf(z) as sign(z) (1 - (a1 t + ... + a5 t^5) exp(-z^2)), t = 1 / (1 + p |z|),
// whose error is at most 1.5e-7 (Abramowitz and Stegun 7.1.26): float32's own resolution.
struct gelu_erf : rc::rule<"gelu_erf"> {
  static constexpr auto pattern = gelu_pattern;
  static rx::value replace(rx::graph& g, const auto& m) {
    const auto& x = m["x"_v];
    auto z = g.op<"Mul">(x, scalar(g, 0.70710678f));
    auto magnitude = g.op<"Abs">(z);
    auto t = g.op<"Reciprocal">(
        g.op<"Add">(scalar(g, 1.0f), g.op<"Mul">(magnitude, scalar(g, 0.3275911f))));
    rx::value poly = scalar(g, 1.061405429f);
    for (const float a : {-1.453152027f, 1.421413741f, -0.284496736f, 0.254829592f})
      poly = g.op<"Add">(g.op<"Mul">(poly, t), scalar(g, a));
    poly = g.op<"Mul">(poly, t);
    auto gauss = g.op<"Exp">(g.op<"Neg">(g.op<"Mul">(z, z)));
    auto erf_abs = g.op<"Sub">(scalar(g, 1.0f), g.op<"Mul">(poly, gauss));
    auto erf = g.op<"Mul">(g.op<"Sign">(z), erf_abs);
    return g.op<"Mul">(g.op<"Mul">(x, scalar(g, 0.5f)), g.op<"Add">(erf, scalar(g, 1.0f)));
  }
};

// 5. Softmax off the last axis: moved there and back, since tinyengine has only that one.
struct softmax_last_axis : rc::rule<"softmax_last_axis"> {
  static constexpr auto pattern = rc::op<"Softmax">("x"_v).as<"softmax">();
  static rc::verdict condition(const auto& m) {
    if (!m["x"_v].has_shape()) return rc::reject("the input's rank is unknown");
    const auto rank = static_cast<std::int64_t>(m["x"_v].rank());
    const auto axis = m["softmax"_n]["axis"_i].value_or(-1);
    if (axis == -1 || axis == rank - 1) return rc::reject("already on the last axis");
    return true;
  }
  static rx::value replace(rx::graph& g, const auto& m) {
    const auto rank = static_cast<std::int64_t>(m["x"_v].rank());
    auto axis = m["softmax"_n]["axis"_i].value_or(-1);
    if (axis < 0) axis += rank;
    std::vector<std::int64_t> perm;
    for (std::int64_t i = 0; i < rank; ++i) perm.push_back(i);
    std::swap(perm[static_cast<std::size_t>(axis)], perm.back());  // its own inverse
    auto moved = g.op<"Transpose">(m["x"_v], "perm"_i = perm);
    return g.op<"Transpose">(g.op<"Softmax">(moved, "axis"_i = -1), "perm"_i = perm);
  }
};

}  // namespace tiny

// 6. The rule set: tried in this order at each node of a rule's root op (the approximation
// first, so that a conversion that asks for it gets it).
template <>
struct retarget::convert::rules_for<tinyengine>
    : retarget::convert::rule_set<tiny::layer_norm, tiny::gemm, tiny::gelu_tanh, tiny::gelu_erf,
                                  tiny::softmax_last_axis> {};

namespace tiny {

// 7. The quirks: each thing tinyengine refuses, how it is found on a node, and the rule that
// fixes it. `retarget check --backend tinyengine` lists every node where one is found, and the
// manager below refuses such a model, as the engine itself would.
struct no_layer_normalization : rc::quirk<"no_layer_normalization", rc::by_rule<layer_norm>> {
  static constexpr std::string_view summary = "LayerNormalization is refused";
  static constexpr std::string_view reason = "tinyengine has no LayerNormalization";
  static constexpr std::string_view remedy = "convert computes it with ReduceMean";
  static bool found(const rc::quirk_site& s) { return s.op() == "LayerNormalization"; }
};
struct no_gemm : rc::quirk<"no_gemm", rc::by_rule<gemm>> {
  static constexpr std::string_view summary = "Gemm is refused";
  static constexpr std::string_view reason = "tinyengine has no Gemm";
  static constexpr std::string_view remedy = "convert makes it a MatMul where A is not transposed";
  static bool found(const rc::quirk_site& s) { return s.op() == "Gemm"; }
};
struct no_erf : rc::quirk<"no_erf", rc::by_rule<gelu_erf>> {
  static constexpr std::string_view summary = "Erf is refused";
  static constexpr std::string_view reason = "tinyengine has no Erf";
  static constexpr std::string_view remedy =
      "convert computes a GELU's Erf with Exp, or with Tanh under --approximate gelu_as_tanh";
  static bool found(const rc::quirk_site& s) { return s.op() == "Erf"; }
};
struct softmax_off_last_axis : rc::quirk<"softmax_off_last_axis", rc::by_rule<softmax_last_axis>> {
  static constexpr std::string_view summary = "Softmax on an axis but the last is refused";
  static constexpr std::string_view remedy = "convert moves the axis last and back";
  static bool found(const rc::quirk_site& s) {
    if (s.op() != "Softmax") return false;
    const auto axis = s.node.attribute("axis");
    const auto rank = s.model.rank(s.input(0));
    return axis && axis->i() != -1 && (!rank || axis->i() != static_cast<std::int64_t>(*rank) - 1);
  }
  static std::string reason(const rc::quirk_site& s) {
    return "tinyengine runs Softmax on the last axis only, not on axis " +
           std::to_string(s.node.attribute("axis")->i());
  }
};

// 8. The manager. tinyengine takes ONNX files, so its param is ONNX Runtime's (a work dir, a
// file name); converting refuses a model with a node it lacks, naming the first, and copies
// the model into place; its wrapper is ONNX Runtime's.
struct manager {
  using backend = tinyengine;
  using param = retarget::backends::onnxruntime_param;
  using runtime = retarget::backends::onnxruntime_manager;

  static bool is_available() { return runtime::is_available(); }
  static std::string version() { return "tinyengine 1.0 on " + runtime::version(); }
  static std::string check_env() { return runtime::check_env(); }
  static retarget::backend::file_list model_files(const param& p) {
    return runtime::model_files(p);
  }
  static retarget::backend::file_list to_backend(const std::filesystem::path& onnx_file,
                                                 const param& p) {
    const auto refused = rc::refused_nodes<tinyengine>(rx::read_model_file(onnx_file));
    if (refused && !refused->empty()) {
      const auto& first = refused->front();
      throw retarget::error(
          "retarget: tinyengine cannot load " + onnx_file.string() + ": node " +
          std::to_string(first.index) + " " + first.node + ": " + first.why +
          (refused->size() > 1 ? " (and " + std::to_string(refused->size() - 1) + " more)" : ""));
    }
    return runtime::to_backend(onnx_file, p);
  }
  static auto build_wrapper(const retarget::backend::file_list& files, const param& p) {
    return runtime::build_wrapper(files, p);
  }
  static param param_from_config(const boost::json::value& j, const std::string& where) {
    return runtime::param_from_config(j, where);
  }
};

// A block with all four: LayerNormalization, Gemm with C and without, GELU both ways, and a
// Softmax over the batch axis. The weights are a fixed pseudo-random sequence.
inline rx::model make_block() {
  rx::graph g(17);
  auto weights = [&, k = 0](std::vector<std::int64_t> dims) mutable {
    std::vector<float> v(static_cast<std::size_t>(rx::element_count(dims)));
    for (auto& x : v) x = static_cast<float>((k++ * 37 % 29) - 14) / 20.0f;
    return g.initializer("w" + std::to_string(k), rx::tensor::of<float>(v, dims));
  };
  auto x = g.input("x", rx::dtype::f32, {4, 8});
  auto ln = g.op<"LayerNormalization">(x, weights({8}), weights({8}), "epsilon"_f = 1e-5f);
  auto h = g.op<"Gemm">(ln, weights({16, 8}), weights({16}), "transB"_i = 1);
  // GELU as torch writes it.
  auto erf = g.op<"Erf">(g.op<"Div">(h, tiny::scalar(g, 1.4142135f)));
  h = g.op<"Mul">(g.op<"Mul">(h, g.op<"Add">(erf, tiny::scalar(g, 1.0f))), tiny::scalar(g, 0.5f));
  h = g.op<"Gemm">(h, weights({16, 8}), "alpha"_f = 0.5f);  // no C
  // GELU the other way: (x * 0.5) * (1 + erf(x * (1 / sqrt 2))).
  auto half = g.op<"Mul">(h, tiny::scalar(g, 0.5f));
  erf = g.op<"Erf">(g.op<"Mul">(h, tiny::scalar(g, 0.70710677f)));
  h = g.op<"Mul">(half, g.op<"Add">(tiny::scalar(g, 1.0f), erf));
  g.output(g.op<"Softmax">(h, "axis"_i = 0), "y");
  return rx::make_model(std::move(g));
}

}  // namespace tiny

// tinyengine's quirks, in the order a node's refusals are listed.
template <>
struct retarget::convert::quirks_for<tinyengine>
    : retarget::convert::quirk_list<tiny::no_layer_normalization, tiny::no_gemm, tiny::no_erf,
                                    tiny::softmax_off_last_axis> {};

#endif  // RETARGET_EXAMPLES_TINYENGINE_HPP
