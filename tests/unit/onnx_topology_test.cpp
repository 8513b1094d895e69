// check_structure on models as other tools write them: what it refuses names the node; what an
// engine may still run (the default domain spelled "ai.onnx", ops of opsets newer than the
// linked ONNX, custom domains) it leaves alone.
#include <gtest/gtest.h>

#include <retarget/ir.hpp>
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
