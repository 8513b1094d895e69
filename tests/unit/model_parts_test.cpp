// ir/model_parts.hpp: a model cut in two at values, what each part reads, gives and keeps.
#include <gtest/gtest.h>

#include <retarget/ir.hpp>
#include <retarget/ir/model_parts.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the parts' graphs
#include <string>
#include <vector>

namespace {

namespace rx = retarget::ir;

// x [2, 3] -> Relu -> a -> Mul(w) -> b -> TopK(k) -> top, and b -> Abs -> magnitude; the
// constant k is a Constant node, w a weight.
rx::model detector_like() {
  rx::graph g(13);
  const auto x = g.input("x", rx::dtype::f32, {2, 3});
  const auto a = g.op("Relu", x);
  const auto b = g.op("Mul", a, g.initializer("w", rx::tensor::of<float>({2.f, 3.f, 4.f}, {3})));
  auto [top, indices] = g.op<2>("TopK", b, rx::ints_constant(g, {2}));
  g.output(top, "top");
  g.output(g.op("Abs", b), "magnitude");
  return rx::make_model(std::move(g));
}

std::vector<std::string> names(const auto& values) {
  std::vector<std::string> out;
  for (const auto& v : values) out.push_back(v.name());
  return out;
}

std::vector<std::string> ops(const rx::model& m) {
  std::vector<std::string> out;
  for (const auto& n : m.graph().node()) out.push_back(n.op_type());
  return out;
}

TEST(ModelParts, NodesComputingAValueGoBackToTheInputs) {
  const auto m = detector_like();
  const rx::model_view view(m);
  const std::string b[] = {m.graph().node(1).output(0)};
  EXPECT_EQ(rx::nodes_computing(view, b), (std::vector<int>{0, 1}));
  const std::string unknown[] = {"scores"};
  try {
    (void)rx::nodes_computing(view, unknown);
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_EQ(std::string(e.what()), "retarget: no node makes 'scores'");
  }
  const std::string input[] = {"x"};
  EXPECT_THROW((void)rx::nodes_computing(view, input), retarget::error);
}

TEST(ModelParts, NodesAheadOfARefusedOneExcludeAllItLeadsTo) {
  const auto m = detector_like();
  const rx::model_view view(m);
  // The TopK (node 3) leads to nothing else; the Mul (1) leads to the TopK and the Abs.
  const int topk[] = {3}, mul[] = {1};
  EXPECT_EQ(rx::nodes_ahead_of(view, topk), (std::vector<int>{0, 1, 2, 4}));
  EXPECT_EQ(rx::nodes_ahead_of(view, mul), (std::vector<int>{0, 2}));
}

TEST(ModelParts, TheHeadGivesTheBoundaryAndItsOutputsTheTailReadsItAndGivesTheRest) {
  const auto m = detector_like();
  const rx::model_view view(m);
  const auto b = m.graph().node(1).output(0);
  const std::string at[] = {b};
  auto parts = rx::split(m, view, rx::nodes_computing(view, at));
  EXPECT_EQ(parts.boundary, std::vector<std::string>{b});
  EXPECT_EQ(ops(parts.head), (std::vector<std::string>{"Relu", "Mul"}));
  EXPECT_EQ(names(parts.head.graph().input()), std::vector<std::string>{"x"});
  EXPECT_EQ(names(parts.head.graph().output()), std::vector<std::string>{b});
  // The Constant k reads no input: the tail has its own copy; the weight stays with the head.
  EXPECT_EQ(ops(parts.tail), (std::vector<std::string>{"Constant", "TopK", "Abs"}));
  EXPECT_EQ(names(parts.tail.graph().input()), std::vector<std::string>{b});
  EXPECT_EQ(names(parts.tail.graph().output()), (std::vector<std::string>{"top", "magnitude"}));
  EXPECT_EQ(names(parts.head.graph().initializer()), std::vector<std::string>{"w"});
  EXPECT_EQ(parts.tail.graph().initializer_size(), 0);
  // The boundary is typed as the view knows it: [2, 3] float.
  const auto& type = parts.tail.graph().input(0).type().tensor_type();
  EXPECT_EQ(type.elem_type(), onnx::TensorProto_DataType_FLOAT);
  EXPECT_EQ(type.shape().dim_size(), 2);
  EXPECT_NO_THROW(parts.head.check());
  EXPECT_NO_THROW(parts.tail.check());
}

TEST(ModelParts, AGraphOutputTheHeadMakesStaysTheHeads) {
  const auto m = detector_like();
  const rx::model_view view(m);
  // Everything but the TopK: the head gives the Abs's output, and b to the tail.
  const int topk[] = {3};
  auto parts = rx::split(m, view, rx::nodes_ahead_of(view, topk));
  EXPECT_EQ(names(parts.head.graph().output()),
            (std::vector<std::string>{m.graph().node(1).output(0), "magnitude"}));
  EXPECT_EQ(names(parts.tail.graph().output()), std::vector<std::string>{"top"});
}

TEST(ModelParts, AHeadThatReadsFromTheTailIsRefusedNamingBoth) {
  const auto m = detector_like();
  const rx::model_view view(m);
  const int relu_and_topk[] = {0, 3};  // the TopK reads the Mul's output, left in the tail
  try {
    (void)rx::split(m, view, relu_and_topk);
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("retarget: split: node 3"), std::string::npos) << what;
    EXPECT_NE(what.find("of the head reads"), std::string::npos) << what;
    EXPECT_NE(what.find("which node 1"), std::string::npos) << what;
  }
}

}  // namespace
