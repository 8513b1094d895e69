// Every step v -> v ± 1 of opsets 1..17 where an op of the default domain changes more than the
// types it allows (ONNX 1.12's schemas: an attribute, an input or an output added, removed or
// changed) is, for to_opset, one of three things: taken by an adapter (retarget's or ONNX's),
// declared in same_meaning_steps with its reason, or refused by the planner with a reason. A
// step that is none of them is a node re-emitted as it is across a change of meaning.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/mp11/list.hpp>
#include <iostream>
#include <retarget/convert/opset.hpp>
#include <retarget/convert/opset_schema.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <string>
#include <vector>

namespace {

namespace rc = retarget::convert;
namespace rd = retarget::convert::detail;
// The declared adapters alone: none listed besides them.
using declared_only = boost::mp11::mp_list<>;

struct step {
  std::string op;
  int from, to;
  std::vector<std::string> changes;
};

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : "; ") + s;
  return out;
}

// The steps of ops of the default domain whose schemas change more than types, from the
// registry's full history: both ways across each change, and down across an op's first schema.
std::vector<step> schema_steps() {
  std::vector<step> out;
  for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    if (!retarget::ir::is_default_domain(s.domain())) continue;
    const int since = s.SinceVersion();
    if (since < 2 || since > 17) continue;
    const auto* older = rc::schema_at(s.Name(), since - 1);
    if (!older) {
      out.push_back({s.Name(), since, since - 1, {"no schema at " + std::to_string(since - 1)}});
      continue;
    }
    auto changes = rc::schema_changes(*older, s);
    if (changes.empty()) continue;
    out.push_back({s.Name(), since - 1, since, changes});
    out.push_back({s.Name(), since, since - 1, std::move(changes)});
  }
  return out;
}

// A node of op that sets nothing: what a model of that op at least holds.
onnx::NodeProto bare(const std::string& op) {
  onnx::NodeProto n;
  n.set_op_type(op);
  n.set_name("n");
  return n;
}

TEST(OpsetSchemaSteps, EveryStepThatChangesMoreThanTypesIsAdaptedDeclaredOrRefused) {
  const auto steps = schema_steps();
  std::size_t by_retarget = 0, by_onnx = 0, declared = 0, refused = 0;
  std::vector<std::string> unclassified, both;
  for (const auto& s : steps) {
    const auto where = s.op + " " + std::to_string(s.from) + " -> " + std::to_string(s.to);
    const bool retarget = rd::find_adapter<declared_only>(s.op, s.from, s.to) != nullptr;
    const bool onnx = retarget::ir::onnx_converter_has(s.op, s.from, s.to);
    const bool same = rc::find_same_meaning(s.op, s.from, s.to) != nullptr;
    if ((retarget || onnx) && same) both.push_back(where);
    if (retarget) {
      ++by_retarget;
      continue;
    }
    if (onnx) {
      ++by_onnx;
      continue;
    }
    if (same) {
      ++declared;
      continue;
    }
    std::string why;
    const auto how = rd::how_to_step<declared_only>(bare(s.op), s.from, s.to, {}, &why);
    if (how == rc::step_by::missing && !why.empty()) {
      ++refused;
      continue;
    }
    unclassified.push_back(where + " (" + joined(s.changes) + ")");
  }
  std::cout << steps.size() << " steps change more than types: " << by_retarget
            << " by retarget's adapters, " << by_onnx << " by ONNX's, " << declared
            << " declared same meaning, " << refused << " refused\n";
  EXPECT_TRUE(unclassified.empty())
      << unclassified.size()
      << " steps change more than types but are neither adapted, declared same meaning, nor "
         "refused:\n  "
      << [&] {
           std::string out;
           for (const auto& u : unclassified) out += u + "\n  ";
           return out;
         }();
  EXPECT_TRUE(both.empty()) << "declared same meaning but taken by an adapter (the entry is "
                               "never read): "
                            << joined(both);
  EXPECT_GT(steps.size(), 100u);  // the walk sees the registry
}

// Each entry of the table is a step that changes more than types, with a reason.
TEST(OpsetSchemaSteps, EachSameMeaningEntryIsAStepThatChangesMoreThanTypes) {
  const auto steps = schema_steps();
  for (const auto& e : rc::same_meaning_steps) {
    const std::string op(e.op);
    const auto found = std::find_if(steps.begin(), steps.end(), [&](const step& s) {
      return s.op == op && s.from == e.from && s.to == e.to;
    });
    EXPECT_NE(found, steps.end()) << op << " " << e.from << " -> " << e.to
                                  << ": not a step that changes more than types";
    EXPECT_GT(e.why.size(), 20u) << op << " " << e.from << " -> " << e.to;
  }
}

// What the table changes in the plan: a declared step carries a node over, an undeclared one
// is refused naming what changed, and a node setting what the other opset lacks is refused
// unless it sets the default.
TEST(OpsetSchemaSteps, ThePlannerReadsTheTable) {
  std::string why;
  EXPECT_EQ(rd::how_to_step<declared_only>(bare("TopK"), 11, 10, {}, &why), rc::step_by::same_node)
      << why;

  why.clear();
  EXPECT_EQ(rd::how_to_step<declared_only>(bare("And"), 7, 6, {}, &why), rc::step_by::missing);
  EXPECT_NE(why.find("And-7 differs from And-1 in more than types (attribute 'axis' removed; "
                     "attribute 'broadcast' removed)"),
            std::string::npos)
      << why;

  auto shape = bare("Shape");
  auto* start = shape.add_attribute();
  start->set_name("start");
  start->set_type(onnx::AttributeProto::INT);
  start->set_i(0);
  why.clear();
  EXPECT_EQ(rd::how_to_step<declared_only>(shape, 15, 14, {}, &why), rc::step_by::same_node) << why;
  start->set_i(1);
  EXPECT_EQ(rd::how_to_step<declared_only>(shape, 15, 14, {}, &why), rc::step_by::missing);
  EXPECT_EQ(why, "attribute 'start' is not in Shape-13 (opset 14)");
}

}  // namespace
