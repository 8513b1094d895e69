// Pattern rules and node rewrites on small graphs built with the emitter: what matches, in
// which order rules are tried, captures of every kind, commutative inputs, several outputs,
// the fixed point and its bound, the report's explanations, and folding's limits. Numbers are
// checked on ONNX Runtime against the unconverted model.
#include <gtest/gtest.h>

#include <retarget/convert.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <retarget/ir/tensor_file.hpp>

#include "support/ort.hpp"
#include "support/scratch_folder.hpp"

namespace rc = retarget::convert;
namespace rx = retarget::ir;
using namespace retarget::literals;
using namespace rc::literals;

namespace rule_test {

struct lab : retarget::backend_tag<"lab"> {};
struct lab2 : retarget::backend_tag<"lab2", lab> {};

// Relu(Relu(x)) is Relu(x).
struct relu_of_relu : rc::rule<"relu_of_relu"> {
  static constexpr auto pattern = rc::op<"Relu">(rc::op<"Relu">("x"_v));
  static rx::value replace(rx::graph& g, const auto& m) { return g.op("Relu", m["x"_v]); }
};
// x + 0 is x, with the zero on either side.
struct add_zero : rc::rule<"add_zero"> {
  static constexpr auto pattern = rc::commutative(rc::op<"Add">("x"_v, "zero"_c));
  static rc::verdict condition(const auto& m) {
    for (const double v : rx::values_as_double(rx::tensor(*m.graph().constant_data(m["zero"_c]))))
      if (v != 0) return rc::reject("the constant is not zero");
    if (m["x"_v].shape() != m["zero"_c].shape() && m["zero"_c].rank() != 0)
      return rc::reject("the zero broadcasts x");
    return true;
  }
  static rx::value replace(rx::graph&, const auto& m) { return m["x"_v]; }
};
// x * x is Pow(x, 2): a name used twice binds the same value.
struct square : rc::rule<"square"> {
  static constexpr auto pattern = rc::op<"Mul">("x"_v, "x"_v);
  static rx::value replace(rx::graph& g, const auto& m) {
    return g.op("Pow", m["x"_v], g.constant(rx::tensor::of<float>({2.0f}, {})));
  }
};
// Neg of TopK's values (output 0) keeps its indices (output 1): several outputs. The TopK
// is shared: its indices have a reader outside the match, and the replacement's TopK is a
// second one.
struct neg_of_topk_values : rc::rule<"neg_of_topk_values"> {
  static constexpr auto pattern =
      rc::op<"Neg">(rc::output<0>(rc::shared(rc::op<"TopK">("x"_v, "k"_c).as<"topk">())));
  static rx::value replace(rx::graph& g, const auto& m) {
    // The node's attributes are read by checked keys.
    const auto axis = m["topk"_n]["axis"_i].value_or(-1);
    auto [values, indices] =
        g.op<2>("TopK", g.op("Neg", m["x"_v]), m["k"_c], "axis"_i = axis, "largest"_i = 0);
    (void)indices;
    return g.op("Identity", values);
  }
};

// Each firing makes another match: only the bound stops it.
struct grow : rc::rule<"grow"> {
  static constexpr auto pattern = rc::op<"Relu">("x"_v);
  static rx::value replace(rx::graph& g, const auto& m) {
    return g.op("Relu", g.op("Relu", m["x"_v]));
  }
};
struct endless : retarget::backend_tag<"endless"> {};

// Sigmoid(x) * x (SiLU) as x * Sigmoid(x) through HardSigmoid: an approximation, run only when
// asked for by name, which the report counts.
struct silu_as_hard : rc::approximation<"silu_as_hard"> {};
struct hard_silu : rc::rule<"hard_silu"> {
  using approximation = silu_as_hard;
  static constexpr auto pattern = rc::commutative(rc::op<"Mul">("x"_v, rc::op<"Sigmoid">("x"_v)));
  static rx::value replace(rx::graph& g, const auto& m) {
    return g.op("Mul", m["x"_v], g.op("HardSigmoid", m["x"_v]));
  }
};
// A second rule of the same approximation: a rule set offers each approximation once.
struct hard_silu_again : rc::rule<"hard_silu_again"> {
  using approximation = silu_as_hard;
  static constexpr auto pattern = rc::op<"Mul">(rc::op<"Sigmoid">("x"_v), "x"_v);
  static rx::value replace(rx::graph& g, const auto& m) {
    return g.op("Mul", g.op("HardSigmoid", m["x"_v]), m["x"_v]);
  }
};
static_assert(rc::rule_set<hard_silu, hard_silu_again>::approximation_names.size() == 1);
static_assert(rc::rule_set<hard_silu, hard_silu_again>::approximation_names[0] == "silu_as_hard");
static_assert(rc::rule_set<grow>::approximation_names.empty());
// The same rewrite for an exact engine that reads the options itself: it says which
// approximation made its nodes through its mark, kept under the rule's own.
struct hard_silu_by_option : rc::rule<"hard_silu_by_option"> {
  static constexpr auto pattern = rc::commutative(rc::op<"Mul">("x"_v, rc::op<"Sigmoid">("x"_v)));
  static rc::verdict condition(const auto& m) {
    if (!m.cfg().allows(silu_as_hard::name)) return rc::reject("silu_as_hard is not allowed");
    return true;
  }
  static rx::value replace(rx::graph& g, const auto& m) {
    auto hard = g.op("HardSigmoid", m["x"_v]);
    g.set_doc_string(g.node_count() - 1, silu_as_hard::mark("by option"));
    return g.op("Mul", m["x"_v], hard);
  }
};
// Three rules of Neg: the first that matches a node takes it (their replacements make none).
struct neg_relu : rc::rule<"neg_relu"> {
  static constexpr auto pattern = rc::op<"Neg">(rc::op<"Relu">("x"_v));
  static rx::value replace(rx::graph& g, const auto& m) {
    auto zero = g.constant(rx::tensor::of<float>({0.0f}, {}));
    return g.op("Min", g.op("Sub", zero, m["x"_v]), zero);
  }
};
struct neg_of_anything : rc::rule<"neg_of_anything"> {
  static constexpr auto pattern = rc::op<"Neg">(rc::op<"Sigmoid">("x"_v));
  static rx::value replace(rx::graph& g, const auto& m) {
    return g.op("Sub", g.constant(rx::tensor::of<float>({0.0f}, {})), g.op("Sigmoid", m["x"_v]));
  }
};
struct neg_again : rc::rule<"neg_again"> {
  static constexpr auto pattern = rc::op<"Neg">("x"_v);
  static rx::value replace(rx::graph& g, const auto& m) {
    return g.op("Sub", g.constant(rx::tensor::of<float>({0.0f}, {})), m["x"_v]);
  }
};
struct approx : retarget::backend_tag<"approx"> {};
struct approx_by_option : retarget::backend_tag<"approx_by_option"> {};
struct taken : retarget::backend_tag<"taken"> {};

}  // namespace rule_test

template <>
struct rc::rules_for<rule_test::lab>
    : rc::rule_set<rule_test::relu_of_relu, rule_test::add_zero, rule_test::square> {};
template <>
struct rc::rules_for<rule_test::lab2>
    : rc::rule_set<rule_test::neg_of_topk_values, rc::rules_for<rule_test::lab>> {};
template <>
struct rc::rules_for<rule_test::endless> : rc::rule_set<rule_test::grow> {};
template <>
struct rc::rules_for<rule_test::approx> : rc::rule_set<rule_test::hard_silu> {};
template <>
struct rc::rules_for<rule_test::approx_by_option> : rc::rule_set<rule_test::hard_silu_by_option> {};
template <>
struct rc::rules_for<rule_test::taken>
    : rc::rule_set<rule_test::neg_relu, rule_test::neg_of_anything, rule_test::neg_again> {};

// LeakyRelu for lab as Max(x, alpha x), through a node rewrite that reads a checked attribute.
template <>
struct rc::node_rewrite<"LeakyRelu", rule_test::lab> {
  static rx::value call(const auto&, rx::graph& g, const rc::node_of<"LeakyRelu">& n) {
    const float alpha = n["alpha"_f].value_or(0.01f);
    auto x = n.input(0);
    auto scaled = g.op("Mul", x, g.constant(rx::tensor::of<float>({alpha}, {})));
    return g.op("Max", x, scaled);  // exact for 0 <= alpha <= 1
  }
};

namespace {

using namespace rule_test;

rx::model model_of(rx::graph& g) { return rx::make_model(std::move(g)); }

std::vector<std::string> ops_of(const rx::model& m) {
  std::vector<std::string> out;
  for (const auto& n : m.graph().node()) out.push_back(n.op_type());
  return out;
}

class Rules : public support::scratch_folder_test {
 protected:
  // Runs the original and the converted model on ONNX Runtime with the same seeded input.
  void expect_same_numbers(rx::model& original, rx::model& converted,
                           std::vector<std::int64_t> dims) {
    std::vector<float> values;
    std::int64_t n = 1;
    for (auto d : dims) n *= d;
    for (std::int64_t i = 0; i < n; ++i)
      values.push_back(static_cast<float>((i * 37 % 23) - 11) / 3.0f);
    const auto input = dir_ / "x.pb";
    rx::write_tensor_file(input, rx::tensor::of<float>(std::span<const float>(values), dims));
    const auto a = ort::run(original, dir_ / "a", {{"x", input}});
    const auto b = ort::run(converted, dir_ / "b", {{"x", input}});
    for (const auto& [name, t] : a) EXPECT_EQ(ort::max_abs_error(t, b.at(name)), 0) << name;
  }
};

TEST_F(Rules, PatternsCommutativeAndRepeatedNamesMatchAndKeepTheNumbers) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {2, 3});
  auto zero = g.constant(rx::tensor::of<float>({0.0f}, {}));
  auto a = g.op("Relu", g.op("Relu", x));
  auto b = g.op("Add", zero, a);  // the zero first: matched through commutative
  auto c = g.op("Mul", b, b);
  auto d = g.op("Mul", c, x);  // two different values: square does not match
  g.output(d, "y");
  auto original = model_of(g);
  auto [converted, report] = rc::convert<lab>(original);
  EXPECT_EQ(ops_of(converted), (std::vector<std::string>{"Relu", "Constant", "Pow", "Mul"}));
  ASSERT_EQ(report.rules.size(), 3u);
  EXPECT_EQ(report.rules[0].fired, 1u);  // relu_of_relu
  EXPECT_EQ(report.rules[1].fired, 1u);  // add_zero, the zero on the left
  EXPECT_EQ(report.rules[2].fired, 1u);  // square
  EXPECT_EQ(report.rules[2].closest_at, "");
  EXPECT_EQ(converted.metadata("retarget:backend"), "lab");
  EXPECT_EQ(converted.metadata("retarget:convert"),
            "rules: relu_of_relu x1, add_zero x1, square x1; node rewrites: none; folded: none; "
            "removed 2 dead nodes, 0 initializers; 2 passes");
  // Every node a rule made says which.
  for (const auto& n : converted.graph().node()) {
    if (n.op_type() == "Pow") {
      EXPECT_EQ(n.doc_string(), "retarget: made by rule square");
    }
  }
  expect_same_numbers(original, converted, {2, 3});
}

TEST_F(Rules, ExplainShowsTheClosestPartialMatchAndTheConditionThatSaidNo) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {2, 3});
  auto one = g.constant(rx::tensor::of<float>({1.0f}, {}));
  g.output(g.op("Add", g.op("Sigmoid", x), one), "y");
  auto [converted, report] = rc::convert<lab>(model_of(g));
  const auto text = rc::to_string(report, true);
  EXPECT_NE(text.find("rule relu_of_relu: never fired (no node of its root op)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("rule add_zero: never fired; at Add 'Add_2' the pattern matched, and the "
                      "condition said no: the constant is not zero"),
            std::string::npos)
      << text;
  EXPECT_EQ(converted.graph().node_size(), 3);
}

TEST_F(Rules, RuleSetsNestAndTheOrderIsTheDeclaredOne) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {2, 5});
  auto k = g.constant(rx::tensor::of<std::int64_t>({2}, {1}));
  auto [values, indices] = g.op<2>("TopK", x, k, "axis"_i = -1);
  g.output(g.op("Neg", values), "y");
  g.output(indices, "i");
  auto original = model_of(g);
  auto [converted, report] = rc::convert<lab2>(original);
  ASSERT_EQ(report.rules.size(), 4u);  // lab2's own rule first, then lab's
  EXPECT_EQ(report.rules[0].name, "neg_of_topk_values");
  EXPECT_EQ(report.rules[0].fired, 1u);
  EXPECT_EQ(report.rules[0].nodes_matched, 2u);
  EXPECT_EQ(report.rules[1].name, "relu_of_relu");
  // The original TopK stays: its indices are still read.
  const auto ops = ops_of(converted);
  EXPECT_EQ(std::count(ops.begin(), ops.end(), "TopK"), 2);
  expect_same_numbers(original, converted, {2, 5});
}

TEST_F(Rules, NodeRewritesAreSelectedThroughTheFallbackChain) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {2, 3});
  g.output(g.op("LeakyRelu", x, "alpha"_f = 0.25f), "y");
  auto original = model_of(g);
  auto [converted, report] = rc::convert<lab2>(original);  // lab2 has none: lab's runs
  ASSERT_EQ(report.node_rewrites.size(), 1u);
  EXPECT_EQ(report.node_rewrites[0].op, "LeakyRelu");
  EXPECT_EQ(report.node_rewrites[0].rewrite, "lab");
  EXPECT_EQ(ops_of(converted), (std::vector<std::string>{"Constant", "Mul", "Max"}));
  expect_same_numbers(original, converted, {2, 3});
  // The default backend has no rewrite: the model comes back as it was.
  auto [unchanged, none] = rc::convert<retarget::default_backend>(original);
  EXPECT_TRUE(none.node_rewrites.empty());
  EXPECT_EQ(ops_of(unchanged), (std::vector<std::string>{"LeakyRelu"}));
}

TEST_F(Rules, TheFixedPointHasABound) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {2});
  g.output(g.op("Relu", x), "y");
  auto [converted, report] = rc::convert<endless>(model_of(g), {.max_passes = 3});
  EXPECT_FALSE(report.fixed_point);
  EXPECT_EQ(report.passes, 3u);
  EXPECT_NE(rc::summary(report).find("3 passes (bound reached)"), std::string::npos);
}

TEST_F(Rules, FoldingHasASizeLimitAndKeepsTheNumbers) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {1, 8});
  auto shape = g.op("Shape", x);  // static: folds to [1, 8]
  auto big = g.op("ConstantOfShape", shape, "value"_t = rx::tensor::of<float>({2.0f}, {1}));
  g.output(g.op("Mul", x, big), "y");
  auto original = model_of(g);
  auto folded = rc::convert<retarget::default_backend>(original).model;
  EXPECT_EQ(ops_of(folded), (std::vector<std::string>{"Mul"}));
  expect_same_numbers(original, folded, {1, 8});
  // Under a limit of 4 elements, the 8-element ConstantOfShape stays computed.
  auto limited = rc::convert<retarget::default_backend>(original, {.fold_limit = 4}).model;
  EXPECT_EQ(ops_of(limited), (std::vector<std::string>{"ConstantOfShape", "Mul"}));
}

TEST_F(Rules, AnApproximationRuleRunsWhenAskedForAndTheReportCountsIt) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {2, 3});
  g.output(g.op("Mul", g.op("Sigmoid", x), x), "y");
  auto original = model_of(g);
  for (const bool by_option : {false, true}) {
    auto convert = [&](const rc::options& o) {
      return by_option ? rc::convert<approx_by_option>(original, o)
                       : rc::convert<approx>(original, o);
    };
    SCOPED_TRACE(by_option ? "the rule reads the options" : "the rule is an approximation");
    // Not asked for: the rule does not fire, and explain says why.
    auto [exact, said] = convert({});
    EXPECT_EQ(ops_of(exact), (std::vector<std::string>{"Sigmoid", "Mul"}));
    EXPECT_TRUE(said.approximations.empty());
    EXPECT_NE(rc::to_string(said, true)
                  .find(by_option ? "the condition said no: silu_as_hard is not allowed"
                                  : "the pattern matched, and approximation "
                                    "silu_as_hard is not asked for"),
              std::string::npos)
        << rc::to_string(said, true);
    auto [approximated, report] = convert({.approximations = {"silu_as_hard"}});
    EXPECT_EQ(ops_of(approximated), (std::vector<std::string>{"HardSigmoid", "Mul"}));
    EXPECT_EQ(report.approximations.at("silu_as_hard"), by_option ? 1u : 2u);
    EXPECT_NE(rc::summary(report).find("approximation silu_as_hard x"), std::string::npos);
    for (const auto& n : approximated.graph().node()) {
      if (n.op_type() != "HardSigmoid") continue;
      EXPECT_EQ(n.doc_string(), by_option ? "retarget: approximation silu_as_hard (by option); "
                                            "made by rule hard_silu_by_option"
                                          : "retarget: approximation silu_as_hard (made by rule "
                                            "hard_silu)");
    }
  }
}

TEST_F(Rules, ExplainSaysWhichRuleTookANodeAndEveryNodeARuleDidNotFireAt) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {2, 3});
  auto a = g.op("Neg", g.op("Relu", x));
  auto b = g.op("Neg", g.op("Sigmoid", x));
  auto c = g.op("Neg", g.op("Tanh", x));
  g.output(g.op("Sum", a, b, c), "y");
  auto original = model_of(g);
  auto [converted, report] = rc::convert<taken>(original);
  ASSERT_EQ(report.rules.size(), 3u);
  EXPECT_EQ(report.rules[0].fired, 1u);
  EXPECT_EQ(report.rules[1].fired, 1u);
  EXPECT_EQ(report.rules[2].fired, 1u);
  const auto text = rc::to_string(report, true);
  // neg_relu fired at the first Neg and not at the two others: both are said.
  EXPECT_NE(text.find("rule neg_relu: fired 1x"), std::string::npos) << text;
  EXPECT_NE(
      text.find("    at Neg 'Neg_3' (1 op matched): expected Relu, found Sigmoid 'Sigmoid_2'"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("    at Neg 'Neg_1': taken by rule neg_relu"), std::string::npos) << text;
  EXPECT_NE(text.find("    at Neg 'Neg_3': taken by rule neg_of_anything"), std::string::npos)
      << text;
  expect_same_numbers(original, converted, {2, 3});

  // A rule whose every node was taken by an earlier one says so, not "no node of its root op".
  rx::graph h(13);
  auto y = h.input("x", rx::dtype::f32, {2, 3});
  h.output(h.op("Neg", h.op("Relu", y)), "y");
  const auto only_taken = rc::to_string(rc::convert<taken>(model_of(h)).report, true);
  EXPECT_NE(only_taken.find("rule neg_again: never fired (each node of its root op was taken by an "
                            "earlier rule)"),
            std::string::npos)
      << only_taken;
}

TEST_F(Rules, AnInteriorNodeReadElsewhereIsNotDuplicated) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {2, 3});
  auto inner = g.op("Relu", x);
  g.output(g.op("Relu", inner), "y");
  g.output(g.op("Abs", inner), "z");  // a second reader of the inner Relu
  auto original = model_of(g);
  auto [converted, report] = rc::convert<lab>(original);
  EXPECT_EQ(report.rules[0].fired, 0u);  // relu_of_relu: the inner Relu stays needed
  EXPECT_NE(rc::to_string(report, true).find("has readers outside the pattern"), std::string::npos)
      << rc::to_string(report, true);
  EXPECT_EQ(ops_of(converted), (std::vector<std::string>{"Relu", "Relu", "Abs"}));
}

// A rule fires inside an If's branches as in the main graph; a branch's interior node read
// twice in that branch is not replaced.
TEST_F(Rules, RulesRunInsideSubgraphs) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {2, 3});
  auto flag = g.input("flag", rx::dtype::boolean, {});
  auto then_branch = g.subgraph("then");
  then_branch.output(then_branch.op("Relu", then_branch.op("Relu", x)));
  auto else_branch = g.subgraph("else");
  auto inner = else_branch.op("Relu", x);
  else_branch.output(else_branch.op("Add", else_branch.op("Relu", inner), inner));
  g.output(g.op("If", flag, "then_branch"_g = then_branch, "else_branch"_g = else_branch), "y");
  auto original = model_of(g);
  auto [converted, report] = rc::convert<lab>(original);
  EXPECT_EQ(report.rules[0].fired, 1u);  // relu_of_relu, in the then branch only
  const auto& branches = converted.graph().node(0).attribute();
  ASSERT_EQ(branches.size(), 2);
  for (const auto& branch : branches) {
    std::vector<std::string> ops;
    for (const auto& n : branch.g().node()) ops.push_back(n.op_type());
    if (branch.name() == "then_branch")
      EXPECT_EQ(ops, (std::vector<std::string>{"Relu"}));
    else
      EXPECT_EQ(ops, (std::vector<std::string>{"Relu", "Relu", "Add"}));
  }
  EXPECT_NE(rc::to_string(report, true).find("has readers outside the pattern"), std::string::npos)
      << rc::to_string(report, true);
}

TEST_F(Rules, NodesOutOfOrderAreSortedAndImportKeepsTheRest) {
  rx::graph g(13);
  auto x = g.input("x", rx::dtype::f32, {3});
  g.output(g.op("Neg", g.op("Abs", x)), "y");
  auto m = model_of(g);
  auto& nodes = *m.proto().mutable_graph()->mutable_node();
  nodes.SwapElements(0, 1);  // Neg before the Abs it reads
  auto sorted = rc::import(m);
  EXPECT_EQ(ops_of(sorted), (std::vector<std::string>{"Abs", "Neg"}));
  EXPECT_NO_THROW(sorted.check());
}

}  // namespace
