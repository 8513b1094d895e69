// Symbolic selection with a recording stand-in for the graph: an op's own symbolic, a
// default symbolic rewrite, and backend-specific ones along the fallback chain.
#include <gtest/gtest.h>

#include <retarget/core.hpp>

#include "support/engine_tags.hpp"
#include "support/toy.hpp"

namespace bk = engines;

namespace {

// Seed 000's squeeze symbolic: with no axes, squeeze every dim of static size 1.
struct squeeze_op : retarget::symbolic_op<squeeze_op, "squeeze"> {
  template <class B>
  static std::string symbolic(toy::recording_graph& g, const toy::tensor<B>& x) {
    return g.op("Squeeze", {x.value});
  }
};

// Seed 004's 2a + b as one custom op, emitted as Mul and Add.
struct axpb_op : retarget::symbolic_op<axpb_op, "my::axpb"> {
  template <class B>
  static std::string symbolic(toy::recording_graph& g, const toy::tensor<B>& a,
                              const toy::tensor<B>& b) {
    return g.op("Add", {g.op("Mul", {"two", a.value}), b.value});
  }
};

}  // namespace

template <>
struct retarget::symbolic_rewrite<squeeze_op> {
  template <class B>
  static std::string call(const auto&, toy::recording_graph& g, const toy::tensor<B>& x) {
    std::string axes;
    for (std::size_t i = 0; i < x.shape.size(); ++i)
      if (x.shape[i] == 1) axes += (axes.empty() ? "" : ",") + std::to_string(i);
    return g.op("Squeeze", {x.value, "axes=[" + axes + "]"});
  }
};

template <>
struct retarget::symbolic_rewrite<squeeze_op, bk::tensorrt> {
  template <class B>
  static std::string call(const auto& ctx, toy::recording_graph& g, const toy::tensor<B>& x) {
    return g.op("Identity", {ctx.next(g, x)});  // the default's nodes, then one more
  }
};

template <>
struct retarget::symbolic_rewrite<axpb_op, bk::opencv_dnn> {
  template <class B>
  static std::string call(const auto&, toy::recording_graph& g, const toy::tensor<B>& a,
                          const toy::tensor<B>& b) {
    return g.op("my::AXPB", {a.value, b.value});  // a custom layer handles it in one node
  }
};

namespace {

template <class B>
toy::tensor<B> value(toy::session& s, std::string name, std::vector<std::int64_t> shape) {
  return {std::move(shape), &s, std::move(name)};
}

TEST(Symbolic, DefaultSymbolicRewriteReplacesTheOpsOwn) {
  toy::session s;
  squeeze_op{}(s.graph, value<bk::onnxruntime>(s, "x", {1, 3, 1, 4}));
  EXPECT_EQ(s.graph.nodes, std::vector<std::string>{"Squeeze(x,axes=[0,2])->v0"});
  ASSERT_EQ(s.log.records().size(), 1u);
  EXPECT_EQ(s.log.records()[0].kind, retarget::rewrite_kind::symbolic);
}

TEST(Symbolic, BackendSymbolicRewriteCanBuildOnTheNextOne) {
  toy::session s;
  squeeze_op{}(s.graph, value<bk::tensorrt10>(s, "x", {1, 2}));
  EXPECT_EQ(s.graph.nodes,
            (std::vector<std::string>{"Squeeze(x,axes=[0])->v0", "Identity(v0)->v1"}));
}

TEST(Symbolic, OpsOwnSymbolicIsTheOrigin) {
  toy::session s;
  axpb_op{}(s.graph, value<bk::onnxruntime>(s, "a", {2}), value<bk::onnxruntime>(s, "b", {2}));
  EXPECT_EQ(s.graph.nodes, (std::vector<std::string>{"Mul(two,a)->v0", "Add(v0,b)->v1"}));
  EXPECT_TRUE(s.log.empty());
}

TEST(Symbolic, BackendSpecificSymbolicIsSelectedForItsBackendOnly) {
  toy::session s;
  retarget::call<bk::opencv_dnn>(axpb_op{}, s.graph, value<bk::opencv_dnn>(s, "a", {2}),
                                 value<bk::opencv_dnn>(s, "b", {2}));
  EXPECT_EQ(s.graph.nodes, std::vector<std::string>{"my::AXPB(a,b)->v0"});
}

}  // namespace
