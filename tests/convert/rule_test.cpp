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
// Neg of TopK's values (output 0) keeps its indices (output 1): several outputs.
struct neg_of_topk_values : rc::rule<"neg_of_topk_values"> {
  static constexpr auto pattern =
      rc::op<"Neg">(rc::output<0>(rc::op<"TopK">("x"_v, "k"_c).as<"topk">()));
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

}  // namespace rule_test

template <>
struct rc::rules_for<rule_test::lab>
    : rc::rule_set<rule_test::relu_of_relu, rule_test::add_zero, rule_test::square> {};
template <>
struct rc::rules_for<rule_test::lab2>
    : rc::rule_set<rule_test::neg_of_topk_values, rc::rules_for<rule_test::lab>> {};
template <>
struct rc::rules_for<rule_test::endless> : rc::rule_set<rule_test::grow> {};

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
