// check_structure on models as other tools write them: what it refuses names the node; what an
// engine may still run (the default domain spelled "ai.onnx", ops of opsets newer than the
// linked ONNX, custom domains) it leaves alone.
#include <gtest/gtest.h>

#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>
#include <string>
#include <vector>

#include "reliability/common.hpp"

namespace {

namespace rx = retarget::ir;
using reliability::error_of;

// x -> OP (in DOMAIN) -> y, at `opset` of the default domain.
rx::model one_node(const std::string& op, const std::string& domain, int opset,
                   std::vector<std::string> inputs = {"x"}) {
  onnx::ModelProto p;
  p.set_ir_version(8);
  auto* import = p.add_opset_import();
  import->set_domain(domain == "ai.onnx" ? "" : domain);
  import->set_version(opset);
  if (!domain.empty() && domain != "ai.onnx") p.add_opset_import()->set_version(17);
  auto* g = p.mutable_graph();
  g->add_input()->set_name("x");
  g->add_output()->set_name("y");
  auto* n = g->add_node();
  n->set_name("n");
  n->set_op_type(op);
  n->set_domain(domain);
  for (const auto& i : inputs) n->add_input(i);
  n->add_output("y");
  return rx::model(std::move(p));
}

TEST(Topology, TheDefaultDomainHasTwoSpellings) {
  EXPECT_EQ(error_of([] { rx::check_structure(one_node("Relu", "ai.onnx", 17)); }), "no error");
  EXPECT_EQ(error_of([] { rx::check_structure(one_node("Relu", "", 17)); }), "no error");
}

TEST(Topology, UnknownOpsAreRefusedWhereTheLinkedOnnxKnowsTheOpset) {
  EXPECT_EQ(error_of([] {
              rx::check_structure(one_node("Frobnicate", "", 17));
            }).rfind("retarget: node 0 'n' (Frobnicate): Frobnicate (opset 17): unknown op", 0),
            0u);
  EXPECT_EQ(error_of([] { rx::check_structure(one_node("LayerNormalization", "", 13)); }),
            "retarget: node 0 'n' (LayerNormalization): LayerNormalization (opset 13): the op "
            "first appears in opset 17");
  // Opset 18 is newer than ONNX 1.12: its ops are the engine's to know.
  EXPECT_EQ(error_of([] { rx::check_structure(one_node("Col2Im", "", 18)); }), "no error");
  // A custom domain is the engine's too.
  EXPECT_EQ(error_of([] { rx::check_structure(one_node("Plugin", "com.example", 1)); }),
            "no error");
}

TEST(Topology, DanglingReadsAndCyclesNameTheNode) {
  EXPECT_EQ(error_of([] {
              rx::check_structure(one_node("Add", "", 17, {"x", "nowhere"}));
            }),
            "retarget: node 0 'n' (Add) reads 'nowhere', which no node, graph input or "
            "initializer gives");
  EXPECT_EQ(error_of([] {
              rx::check_structure(one_node("Add", "", 17, {"x", "y"}));
            }),
            "retarget: node 0 'n' (Add) reads its own output 'y': the graph has a cycle");
}

}  // namespace

// x -> Relu -> y (the output); x -> Neg -> a -> Abs -> b, which nothing reads; a node without
// outputs; a node reading y.
TEST(Topology, RemoveDeadNodesKeepsWhatTheOutputsNeed) {
  onnx::GraphProto g;
  g.add_input()->set_name("x");
  g.add_output()->set_name("y");
  const auto add = [&](const std::string& op, std::vector<std::string> in,
                       std::vector<std::string> out) {
    auto* n = g.add_node();
    n->set_op_type(op);
    for (const auto& i : in) n->add_input(i);
    for (const auto& o : out) n->add_output(o);
  };
  add("Neg", {"x"}, {"a"});
  add("Relu", {"x"}, {"y"});
  add("Abs", {"a"}, {"b"});
  add("Print", {"x"}, {});
  add("Sqrt", {"y"}, {"c"});
  EXPECT_EQ(rx::remove_dead_nodes(g), 3u);  // Abs, then Neg through it, and Sqrt
  std::vector<std::string> ops;
  for (const auto& n : g.node()) ops.push_back(n.op_type());
  EXPECT_EQ(ops, (std::vector<std::string>{"Relu", "Print"}));
  EXPECT_EQ(rx::remove_dead_nodes(g), 0u);
}
