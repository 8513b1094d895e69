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

  attempt_at(rx::graph& g, const Pattern& pattern, const rx::value& root,
             const rc::detail::reader_count* readers = nullptr) {
    found.readers = readers;
    const auto node = g.producer(root);
    EXPECT_TRUE(node.has_value());
    std::vector<rx::value> inputs;
    for (const auto& name : node->inputs())
      inputs.push_back(name.empty() ? rx::value{} : g.find(name));
    found.slots.resize(rc::detail::capture_count<Pattern>);
    const auto flat = rc::detail::flattened(pattern);
    matched =
        rc::detail::match_pattern({flat.elements, flat.tests}, g, *node, inputs, found, progress);
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
  static constexpr auto flat = rc::detail::flattened(p);
  constexpr auto& e = flat.elements;
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

// where(): the node's attribute, or its schema's default where the node sets none.
TEST_F(PatternMatch, WhereTestsAttributesAndTheSchemasDefaults) {
  auto b = g.input("b", rx::dtype::f32, {4, 3});
  auto transposed = g.op("Gemm", a, b, "transB"_i = 1);
  auto plain = g.op("Gemm", a, g.input("c", rx::dtype::f32, {3, 4}));
  constexpr auto trans_b = rc::op<"Gemm">("a"_v, "b"_v).where("transA"_i == 0, "transB"_i == 1);
  EXPECT_TRUE(attempt_at(g, trans_b, transposed).matched);
  const attempt_at no(g, trans_b, plain);
  EXPECT_FALSE(no.matched);
  EXPECT_EQ(no.progress.depth, 0u);
  EXPECT_TRUE(no.progress.why.ends_with(" has transB = 0, the pattern wants 1")) << no.progress.why;
  // transB absent reads as its default, 0.
  EXPECT_TRUE(attempt_at(g, rc::op<"Gemm">("a"_v, "b"_v).where("transB"_i == 0), plain).matched);

  auto leaky = g.op("LeakyRelu", a);  // alpha: 0.01 by default
  EXPECT_TRUE(attempt_at(g, rc::op<"LeakyRelu">("x"_v).where("alpha"_f == 0.01f), leaky).matched);
  const attempt_at alpha(g, rc::op<"LeakyRelu">("x"_v).where("alpha"_f == 0.2), leaky);
  EXPECT_TRUE(alpha.progress.why.ends_with(" has alpha = " + rx::format_number(0.01f) +
                                           ", the pattern wants 0.2"))
      << alpha.progress.why;

  auto scales = g.constant(rx::tensor::of<float>({1, 1, 2, 2}, {4}));
  auto image = g.input("image", rx::dtype::f32, {1, 1, 2, 2});
  auto resize = g.op("Resize", image, rx::no_input, scales, "mode"_s = "cubic");
  constexpr auto smooth =
      rc::op<"Resize">("x"_v, rc::any, "s"_c).where(rc::one_of("mode"_s, {"linear", "cubic"}));
  EXPECT_TRUE(attempt_at(g, smooth, resize).matched);
  const attempt_at nearest(g, smooth, g.op("Resize", image, rx::no_input, scales));
  EXPECT_TRUE(nearest.progress.why.ends_with(
      " has mode = 'nearest', the pattern wants one of {'linear', 'cubic'}"))
      << nearest.progress.why;

  // An attribute the node does not set and the schema gives no default for.
  const attempt_at end(g, rc::op<"Shape">("x"_v).where("end"_i == 2), g.op("Shape", a));
  EXPECT_FALSE(end.matched);
  EXPECT_TRUE(end.progress.why.ends_with(
      " does not set end and its schema gives no default, the pattern wants 2"))
      << end.progress.why;
}

TEST_F(PatternMatch, AnOptionalInputMatchesPresentOrAbsent) {
  auto b = g.input("b", rx::dtype::f32, {3, 4});
  auto c = g.input("c", rx::dtype::f32, {4});
  constexpr auto gemm = rc::op<"Gemm">("a"_v, "b"_v, rc::optional("c"_v));
  const attempt_at with(g, gemm, g.op("Gemm", a, b, c));
  ASSERT_TRUE(with.matched) << with.progress.why;
  EXPECT_TRUE(with.captures().has("c"_v));
  EXPECT_EQ(with.captures()["c"_v], c);
  const attempt_at without(g, gemm, g.op("Gemm", a, b));
  ASSERT_TRUE(without.matched) << without.progress.why;
  EXPECT_FALSE(without.captures().has("c"_v));
  // A present input must still match the optional piece.
  const attempt_at computed(g, rc::op<"Gemm">("a"_v, "b"_v, rc::optional(rc::op<"Neg">("c"_v))),
                            g.op("Gemm", a, b, c));
  EXPECT_FALSE(computed.matched);
  EXPECT_TRUE(
      computed.progress.why.ends_with("('c') is not a node's output, the pattern expects Neg"))
      << computed.progress.why;
}

TEST_F(PatternMatch, EitherTriesTheSecondAlternativeFromACleanSlate) {
  auto half = g.constant(rx::tensor::of<float>({0.5f}, {}));
  auto two = g.constant(rx::tensor::of<float>({2.0f}, {}));
  constexpr auto scaled = rc::op<"Relu">(
      rc::either(rc::op<"Div">("x"_v, "two"_c == 2.0), rc::op<"Mul">("x"_v, "half"_c == 0.5)));
  const attempt_at by_div(g, scaled, g.op("Relu", g.op("Div", a, two)));
  ASSERT_TRUE(by_div.matched) << by_div.progress.why;
  EXPECT_TRUE(by_div.captures().has("two"_c));
  EXPECT_FALSE(by_div.captures().has("half"_c));
  const attempt_at by_mul(g, scaled, g.op("Relu", g.op("Mul", a, half)));
  ASSERT_TRUE(by_mul.matched) << by_mul.progress.why;
  EXPECT_FALSE(by_mul.captures().has("two"_c));  // bound by the first try, then let go
  EXPECT_EQ(by_mul.captures()["half"_c], half);
  ASSERT_EQ(by_mul.captures().nodes().size(), 2u);
  EXPECT_EQ(by_mul.captures().nodes()[1].op_type(), "Mul");
  const attempt_at neither(g, scaled, g.op("Relu", g.op("Mul", a, two)));
  EXPECT_FALSE(neither.matched);
  EXPECT_EQ(neither.progress.why.rfind("neither alternative matched: the first because expected "
                                       "Div, found Mul '",
                                       0),
            0u)
      << neither.progress.why;
  EXPECT_NE(neither.progress.why.find("; the second because input 1 of Mul '"), std::string::npos)
      << neither.progress.why;
  EXPECT_TRUE(neither.progress.why.ends_with("holds 2, the pattern wants 0.5"))
      << neither.progress.why;
}

TEST_F(PatternMatch, ConstantTestsReadEveryElementInItsStoredPrecision) {
  auto splat = g.constant(rx::tensor::of<float>({0.1f, 0.1f}, {2}));
  auto mixed = g.constant(rx::tensor::of<float>({0.1f, 0.2f}, {2}));
  auto v = g.input("v", rx::dtype::f32, {2});
  auto on_splat = g.op("Add", v, splat), on_mixed = g.op("Add", v, mixed);
  // 0.1 is not a float: it is compared as the float it rounds to.
  EXPECT_TRUE(attempt_at(g, rc::op<"Add">("x"_v, "c"_c == 0.1), on_splat).matched);
  const attempt_at no(g, rc::op<"Add">("x"_v, "c"_c == 0.1), on_mixed);
  EXPECT_FALSE(no.matched);
  EXPECT_TRUE(no.progress.why.ends_with(" holds " + rx::format_number(0.2f) +
                                        ", the pattern wants 0.1 in every element"))
      << no.progress.why;
  EXPECT_TRUE(attempt_at(g, rc::op<"Add">("x"_v, rc::one_of("c"_c, {0.1, 0.2})), on_mixed).matched);
  EXPECT_TRUE(attempt_at(g, rc::op<"Add">("x"_v, rc::near("c"_c, 0.15, 0.5)), on_mixed).matched);
  EXPECT_FALSE(attempt_at(g, rc::op<"Add">("x"_v, rc::near("c"_c, 0.15, 0.1)), on_mixed).matched);
  // The typed read of a constant capture.
  const attempt_at read(g, rc::op<"Add">("x"_v, "c"_c), on_mixed);
  ASSERT_TRUE(read.matched);
  EXPECT_EQ(read.captures().constant<float>("c"_c), (std::vector<float>{0.1f, 0.2f}));
  EXPECT_EQ(read.captures().constant<int>("c"_c), (std::vector<int>{0, 0}));
  EXPECT_THROW((void)read.captures().constant<float>("x"_v), retarget::error);
}

// Captures named once, as constants, and read by those names.
struct clip_bounds {
  static constexpr auto x = "x"_v;
  static constexpr auto lo = "lo"_c;
  static constexpr auto pattern = rc::op<"Clip">(x, lo, rc::optional("hi"_c));
};

TEST_F(PatternMatch, CapturesNamedOnceAreReadByTheirNames) {
  auto lo = g.constant(rx::tensor::of<float>({0.0f}, {}));
  const attempt_at at(g, clip_bounds::pattern, g.op("Clip", a, lo));
  ASSERT_TRUE(at.matched) << at.progress.why;
  EXPECT_EQ(at.captures()[clip_bounds::x], a);
  EXPECT_EQ(at.captures()[clip_bounds::lo], lo);
  EXPECT_EQ(at.captures().constant<float>(clip_bounds::lo), (std::vector<float>{0.0f}));
}

// Readers as the engine counts them, here all in the graph already.
struct readers_in_graph final : rc::detail::reader_count {
  const rx::graph* g;
  explicit readers_in_graph(const rx::graph& graph) : g(&graph) {}
  std::size_t readers(const rx::value& v) const override { return g->readers(v); }
};

TEST_F(PatternMatch, AnInteriorNodeWithOtherReadersIsNotReplacedUnlessShared) {
  auto neg = g.op("Neg", a);
  auto root = g.op("Relu", neg);
  constexpr auto p = rc::op<"Relu">(rc::op<"Neg">("x"_v));
  const readers_in_graph readers(g);
  auto with_readers = [&](const auto& pattern) {
    attempt_at<std::remove_cvref_t<decltype(pattern)>> at(g, pattern, root, &readers);
    return at;
  };
  EXPECT_TRUE(with_readers(p).matched);  // the Relu is Neg's one reader
  g.op("Abs", neg);                      // a second one
  const auto shared_out = with_readers(p);
  EXPECT_FALSE(shared_out.matched);
  EXPECT_TRUE(shared_out.progress.why.ends_with(" has readers outside the pattern ('" + neg.name() +
                                                "' is read 2 times); rc::shared(...) lets an "
                                                "interior node have them"))
      << shared_out.progress.why;
  EXPECT_TRUE(with_readers(rc::op<"Relu">(rc::shared(rc::op<"Neg">("x"_v)))).matched);
}

}  // namespace pattern_match_test
