// Tutorial 11: pattern rules for an engine of your own.
//
// tinyengine is an imaginary engine: it has no LayerNormalization, no Gemm and no Erf (so no
// erf-GELU), and runs Softmax on the last axis only. A small transformer block at opset 17 has
// all four, and two GELUs written the two ways exporters write them. Five rules convert it:
// each is one rule per thing to rewrite, whatever shape the exporter gave it (alternatives,
// optional inputs and attribute tests in the pattern), and the tanh GELU is a named
// approximation that runs only when asked for and that the report counts. The program checks
// every conversion on ONNX Runtime against the original model.
#include <cmath>
#include <cstdio>
#include <retarget/backend/manager.hpp>
#include <retarget/convert.hpp>
#include <retarget/ir.hpp>
#include <string>
#include <vector>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace rc = retarget::convert;
namespace rx = retarget::ir;
using namespace retarget::literals;  // "axis"_i, "epsilon"_f: attributes
using namespace rc::literals;        // "x"_v, "w"_c, "n"_n: captures; "transA"_i == 0: tests

// 1. The engine's tag.
struct tinyengine : retarget::backend_tag<"tinyengine"> {};

namespace tiny {

// A float32 scalar constant.
rx::value scalar(rx::graph& g, float v) { return g.constant(rx::tensor::of<float>({v}, {})); }

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
constexpr auto erf_term = rc::commutative(rc::op<"Add">(
    rc::op<"Erf">(rc::either(rc::op<"Div">("x"_v, rc::near("k"_c, 1.41421356, 1e-6)),
                             rc::op<"Mul">("x"_v, rc::near("k"_c, 0.70710678, 1e-6)))),
    "one"_c == 1.0));
constexpr auto gelu_pattern =
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
struct rc::rules_for<tinyengine> : rc::rule_set<tiny::layer_norm, tiny::gemm, tiny::gelu_tanh,
                                                tiny::gelu_erf, tiny::softmax_last_axis> {};

namespace {

// A block with all four: LayerNormalization, Gemm with C and without, GELU both ways, and a
// Softmax over the batch axis. The weights are a fixed pseudo-random sequence.
rx::model make_block() {
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

// The model's output on ONNX Runtime for a fixed input.
rx::tensor run(rx::model m, const tutorial::work_dir& dir, const std::string& name) {
  const auto file = dir / (name + ".onnx");
  rx::save(m, file);
  std::vector<float> input;
  for (int i = 0; i < 32; ++i) input.push_back(static_cast<float>((i * 13 % 17) - 8) / 3.0f);
  auto p = tutorial::onnxruntime_param(dir.path() / name);
  return retarget::backend::run_on_engine<bk::onnxruntime_manager>(
             file, p, {{"x", rx::tensor::of<float>(input, {4, 8})}})
      .at("y");
}

// Whether the model still has something tinyengine lacks.
bool runs_on_tinyengine(const rx::model& m) {
  for (std::size_t i = 0; i < m.node_count(); ++i) {
    const auto n = m.node(i);
    if (n.op_type() == "LayerNormalization" || n.op_type() == "Gemm" || n.op_type() == "Erf")
      return false;
    const auto axis = n.attribute("axis");
    if (n.op_type() == "Softmax" && axis && axis->i() != -1) return false;
  }
  return true;
}

// Prints how far a conversion's output is from the original's, and whether that is within
// the tolerance.
bool close_enough(const char* what, const rx::tensor& out, const rx::tensor& expected,
                  double tolerance) {
  const double error = rx::max_abs_difference(out, expected);
  std::printf("%s: max abs error vs the original %.1e%s\n", what, error,
              error <= tolerance ? "" : "  <-- MISMATCH");
  return error <= tolerance;
}

}  // namespace

int main() {
  tutorial::work_dir dir("rules");
  if (!tutorial::onnxruntime_available(tutorial::onnxruntime_param(dir.path())))
    return tutorial::skipped;
  const rx::model block = make_block();
  std::printf("the block: %s\n\n", tutorial::op_types(block).c_str());
  const rx::tensor expected = run(block, dir, "block");
  bool ok = true;

  // 7. Exact: every rule but the approximation fires.
  auto [exact, report] = rc::convert<tinyengine>(block);
  std::printf("%s\n", rc::to_string(report, /*explain=*/true).c_str());
  ok &= runs_on_tinyengine(exact) && report.approximations.empty();
  ok &= close_enough("exact, on ONNX Runtime", run(exact, dir, "exact"), expected, 1e-6);

  // 8. With the approximation asked for by name: the tanh GELU, counted by the report.
  auto [approximated, counted] =
      rc::convert<tinyengine>(block, {.approximations = {"gelu_as_tanh"}});
  std::printf("\n%s\n", rc::summary(counted).c_str());
  ok &= runs_on_tinyengine(approximated) && counted.approximations.count("gelu_as_tanh") == 1;
  ok &= close_enough("tanh GELU, on ONNX Runtime", run(approximated, dir, "tanh"), expected, 2e-3);
  std::printf("%s\n", ok ? "all checks passed" : "A CHECK FAILED");
  return ok ? 0 : 1;
}
