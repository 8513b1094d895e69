// The one matcher every pattern rule runs (convert/detail/pattern_match.hpp), driven directly
// on small graphs: each way a match can fail, with the reason explain shows and how far it got,
// and the captures a match leaves, across a commutative op's second try.
#include <gtest/gtest.h>

#include <retarget/convert/rule.hpp>
#include <retarget/ir.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace rc = retarget::convert;
namespace rx = retarget::ir;
using namespace retarget::literals;
using namespace rc::literals;

namespace pattern_match_test {

// A match of `pattern` rooted at the node that makes `root`.
template <class Pattern>
struct attempt_at {
  rc::detail::match_data found;
  rc::attempt progress;
  bool matched = false;

  attempt_at(rx::graph& g, const Pattern&, const rx::value& root) {
    const auto node = g.producer(root);
    EXPECT_TRUE(node.has_value());
    std::vector<rx::value> inputs;
    for (const auto& name : node->inputs())
      inputs.push_back(name.empty() ? rx::value{} : g.find(name));
    found.slots.resize(rc::detail::capture_count<Pattern>);
    matched = rc::detail::match_pattern(rc::detail::pattern_elements<Pattern>, g, *node, inputs,
                                        found, progress);
  }
  rc::match<Pattern> captures() const { return rc::match<Pattern>(found); }
};

class PatternMatch : public testing::Test {
 protected:
  rx::graph g{17};
  rx::value a = g.input("a", rx::dtype::f32, {2, 3});
};

TEST(PatternMatchData, FlattensAPatternDepthFirstWithOneSlotPerName) {
  constexpr auto p = rc::op<"Add">(rc::op<"Neg">("x"_v).as<"n">(), "x"_v);
  using P = std::remove_cvref_t<decltype(p)>;
  constexpr auto& e = rc::detail::pattern_elements<P>;
  static_assert(e.size() == 4 && rc::detail::capture_count<P> == 2);
  EXPECT_EQ(e[0].op, "Add");
  EXPECT_EQ(e[0].extent, 4u);
  EXPECT_EQ(e[0].inputs, 2u);
  EXPECT_EQ(e[1].op, "Neg");
  EXPECT_EQ(e[1].capture, "n");
  EXPECT_EQ(e[1].extent, 2u);
  EXPECT_EQ(e[2].capture, "x");
  EXPECT_EQ(e[3].capture, "x");
  EXPECT_EQ(e[2].slot, e[3].slot);  // one name, one slot
  EXPECT_NE(e[1].slot, e[2].slot);
}

TEST_F(PatternMatch, CapturesValuesAndNodes) {
  auto n = g.op("Neg", a);
  auto root = g.op("Add", n, a);
  constexpr auto p = rc::op<"Add">(rc::op<"Neg">("x"_v).as<"n">(), "x"_v);
  const attempt_at at(g, p, root);
  ASSERT_TRUE(at.matched) << at.progress.why;
  const auto m = at.captures();
  EXPECT_EQ(m["x"_v], a);
  EXPECT_EQ(m["n"_n].node->output(0), n.name());
  ASSERT_EQ(m.nodes().size(), 2u);
  EXPECT_EQ(m.nodes()[0].op_type(), "Add");
  EXPECT_EQ(&m.graph(), &g);
}

TEST_F(PatternMatch, AnotherOpAtTheRootOrInside) {
  auto root = g.op("Relu", g.op("Sigmoid", a));
  const attempt_at at(g, rc::op<"Relu">(rc::op<"Relu">("x"_v)), root);
  EXPECT_FALSE(at.matched);
  EXPECT_EQ(at.progress.depth, 1u);
  EXPECT_EQ(at.progress.why.rfind("expected Relu, found Sigmoid '", 0), 0u) << at.progress.why;
}

TEST_F(PatternMatch, MoreInputsThanThePattern) {
  auto root = g.op("Clip", a, g.constant(rx::tensor::scalar(0.0f)));
  const attempt_at at(g, rc::op<"Clip">("x"_v), root);
  EXPECT_FALSE(at.matched);
  EXPECT_EQ(at.progress.depth, 0u);
  EXPECT_NE(at.progress.why.find(" has 2 inputs, the pattern 1"), std::string::npos)
      << at.progress.why;
}

TEST_F(PatternMatch, AnAbsentInput) {
  auto root = g.op("Clip", a);
  const attempt_at value(g, rc::op<"Clip">("x"_v, "lo"_v), root);
  EXPECT_FALSE(value.matched);
  EXPECT_NE(value.progress.why.find("input 1 of Clip '"), std::string::npos);
  EXPECT_TRUE(value.progress.why.ends_with("' is absent")) << value.progress.why;
  const attempt_at op(g, rc::op<"Clip">("x"_v, rc::op<"Neg">(rc::any)), root);
  EXPECT_FALSE(op.matched);
  EXPECT_TRUE(op.progress.why.ends_with("' is absent, the pattern expects Neg")) << op.progress.why;
  // rc::any takes an absent input.
  EXPECT_TRUE(attempt_at(g, rc::op<"Clip">("x"_v, rc::any), root).matched);
}

TEST_F(PatternMatch, AConstantCaptureOfAComputedValue) {
  auto b = g.op("Neg", a);
  auto root = g.op("Add", a, b);
  const attempt_at at(g, rc::op<"Add">("x"_v, "c"_c), root);
  EXPECT_FALSE(at.matched);
  EXPECT_NE(at.progress.why.find("('" + b.name() + "') is not a constant, as \"c\"_c requires"),
            std::string::npos)
      << at.progress.why;
}

TEST_F(PatternMatch, ANameBoundToTwoValues) {
  auto b = g.op("Neg", a);
  const attempt_at at(g, rc::op<"Mul">("x"_v, "x"_v), g.op("Mul", a, b));
  EXPECT_FALSE(at.matched);
  EXPECT_EQ(at.progress.why, "\"x\" is bound to 'a' and to '" + b.name() + "'");
  EXPECT_TRUE(attempt_at(g, rc::op<"Mul">("x"_v, "x"_v), g.op("Mul", b, b)).matched);
}

TEST_F(PatternMatch, AGraphInputWhereAnOpIsExpected) {
  const attempt_at at(g, rc::op<"Relu">(rc::op<"Neg">(rc::any)), g.op("Relu", a));
  EXPECT_FALSE(at.matched);
  EXPECT_TRUE(at.progress.why.ends_with("('a') is not a node's output, the pattern expects Neg"))
      << at.progress.why;
}

TEST_F(PatternMatch, AnotherOutputOfTheNode) {
  auto [values, indices] = g.op<2>("TopK", a, g.constant(rx::tensor::of<std::int64_t>({2}, {1})));
  (void)indices;
  auto root = g.op("Neg", values);
  const attempt_at one(g, rc::op<"Neg">(rc::output<1>(rc::op<"TopK">("x"_v, "k"_c))), root);
  EXPECT_FALSE(one.matched);
  EXPECT_EQ(one.progress.why.rfind("'" + values.name() + "' is not output 1 of TopK '", 0), 0u)
      << one.progress.why;
  EXPECT_TRUE(
      attempt_at(g, rc::op<"Neg">(rc::output<0>(rc::op<"TopK">("x"_v, "k"_c))), root).matched);
}

// The first order gets two ops deep and binds "y" before it fails; the second must start from
// nothing, or "y" would be bound twice and the first order's Neg listed.
TEST_F(PatternMatch, ACommutativeOpTriesItsInputsSwappedFromACleanSlate) {
  auto k = g.constant(rx::tensor::of<float>({1, 2, 3, 4, 5, 6}, {2, 3}));
  auto neg_k = g.op("Neg", k);
  auto neg_a = g.op("Neg", a);
  auto root = g.op("Add", neg_k, neg_a);
  constexpr auto in_order = rc::op<"Add">(rc::op<"Neg">("y"_v), rc::op<"Neg">("w"_c));
  const attempt_at once(g, in_order, root);
  EXPECT_FALSE(once.matched);
  EXPECT_EQ(once.progress.depth, 3u);
  const attempt_at either(g, rc::commutative(in_order), root);
  ASSERT_TRUE(either.matched) << either.progress.why;
  const auto m = either.captures();
  EXPECT_EQ(m["y"_v], a);
  EXPECT_EQ(m["w"_c], k);
  ASSERT_EQ(m.nodes().size(), 3u);
  EXPECT_EQ(m.nodes()[1].output(0), neg_a.name());
  EXPECT_EQ(m.nodes()[2].output(0), neg_k.name());
  EXPECT_EQ(either.progress.depth, 3u);
}

}  // namespace pattern_match_test
