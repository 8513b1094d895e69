// Opset adapters are found by their declaration alone: a test-local opset_adapter for a step no
// shipped adapter takes (CastLike, which opset 14 lacks, 15 -> 14) is listed nowhere, and the
// planner reports the node by retarget's adapter and to_opset uses it; every shipped adapter is
// found the same way.
#include <gtest/gtest.h>

#include <boost/mp11/list.hpp>
#include <cstdint>
#include <retarget/convert/opset.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <string>
#include <vector>

namespace rc = retarget::convert;

// CastLike(x, like) as opset 14 says it: a Cast to the type of `like`, which must be known.
template <>
struct retarget::convert::opset_adapter<"CastLike", 15, 14> {
  static constexpr bool keeps_op = false;
  static std::optional<std::string> refuses(const node_of<"CastLike">&, const input_facts& in) {
    if (!in.rank(1)) return "the type of input 1 is unknown";
    return std::nullopt;
  }
  static ir::value call(ir::graph& g, const node_of<"CastLike">& n) {
    return g.op("Cast", n.input(0), "to"_i = static_cast<std::int64_t>(n.input(1).dtype()));
  }
};

namespace {

namespace rd = retarget::convert::detail;
namespace rx = retarget::ir;

void add_value(google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>* to,
               const std::string& name, int elem_type) {
  auto* v = to->Add();
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(elem_type);
  t->mutable_shape()->add_dim()->set_dim_value(3);
}

// y = CastLike(x: float[3], like: int64[3]) at opset 15.
rx::model cast_like_model() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* o = m.add_opset_import();
  o->set_domain("");
  o->set_version(15);
  auto* g = m.mutable_graph();
  g->set_name("cast_like");
  add_value(g->mutable_input(), "x", onnx::TensorProto::FLOAT);
  add_value(g->mutable_input(), "like", onnx::TensorProto::INT64);
  add_value(g->mutable_output(), "y", onnx::TensorProto::INT64);
  auto* n = g->add_node();
  n->set_op_type("CastLike");
  n->set_name("cast_like");
  n->add_input("x");
  n->add_input("like");
  n->add_output("y");
  return rx::model(m);
}

TEST(OpsetRegistration, ATestLocalAdapterIsFoundWithoutBeingListed) {
  const auto model = cast_like_model();
  const auto plan = rc::plan_opset(model, 14);
  ASSERT_TRUE(plan.ok()) << rc::to_string(plan);
  EXPECT_EQ(plan.by_retarget, 1u);
  const auto converted = rc::to_opset(model, 14);
  EXPECT_EQ(converted.opset(), 14);
  ASSERT_EQ(converted.graph().node_size(), 1);
  EXPECT_EQ(converted.graph().node(0).op_type(), "Cast");
  EXPECT_EQ(converted.graph().output(0).name(), "y");
}

// The steps retarget ships adapters for (convert/opset_adapters.hpp), each found by probing.
TEST(OpsetRegistration, EveryShippedAdapterIsFound) {
  struct step {
    const char* op;
    int from, to;
  };
  const std::vector<step> shipped = {{"LayerNormalization", 17, 16},
                                     {"Softmax", 13, 12},
                                     {"LogSoftmax", 13, 12},
                                     {"Squeeze", 13, 12},
                                     {"Unsqueeze", 13, 12},
                                     {"Split", 13, 12},
                                     {"Resize", 13, 12},
                                     {"Resize", 12, 13},
                                     {"Resize", 10, 11},
                                     {"Resize", 11, 10},
                                     {"Reshape", 14, 13},
                                     {"RoiAlign", 16, 15}};
  for (const auto& s : shipped)
    EXPECT_NE(rd::find_adapter<boost::mp11::mp_list<>>(s.op, s.from, s.to), nullptr)
        << s.op << " " << s.from << " -> " << s.to;
  // and nothing else but the test's own
  EXPECT_EQ(rd::adapter_table<boost::mp11::mp_list<>>::entries.size(), shipped.size() + 1);
}

}  // namespace
