// ir's model layer (model, model_view, topology, graph_cut, stored_graph, dot, rebuilt_model,
// exposed_values) in a unit linked with retarget::compiled, read through its own API only: a
// model copies deeply and a moved-from one takes an assignment; views, checks, cuts and
// rebuilds give what header-only use gives. layers.compiled_once reads this unit's object: each
// function it names is called here, and the unit must leave it to the library.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <retarget/core/error.hpp>
#include <retarget/ir/dot.hpp>
#include <retarget/ir/exposed_values.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/graph_cut.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/rebuilt_model.hpp>
#include <retarget/ir/stored_graph.hpp>
#include <retarget/ir/topology.hpp>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace rx = retarget::ir;

// y = Relu(x · w), w a 4×4 weight of 64 bytes; an unread initializer `spare`.
rx::model small_model() {
  rx::graph g(17);
  const auto x = g.input("x", rx::dtype::f32, {1, 4});
  const auto w = g.initializer("w", rx::tensor::of(std::vector<float>(16, 0.5f), {4, 4}));
  (void)g.initializer("spare", rx::tensor::of(std::vector<float>(4, 1.0f), {4}));
  g.output(g.op("Relu", g.op("MatMul", x, w)), "y");
  return rx::make_model(std::move(g));
}

// What the tool, the engines' wrappers and the examples read of a model without its messages:
// the main graph's nodes as views, its outputs, and the files of its external data.
TEST(CompiledModel, NodesOutputsAndExternalFilesReadWithoutTheMessages) {
  auto m = small_model();
  ASSERT_EQ(m.node_count(), 2u);
  EXPECT_EQ(m.node(0).op_type(), "MatMul");
  EXPECT_EQ(m.node(1).op_type(), "Relu");
  std::string ops;
  for (const auto& n : m.nodes()) ops += n.op_type() + " ";
  EXPECT_EQ(ops, "MatMul Relu ");
  EXPECT_THROW((void)m.node(2), retarget::error);
  EXPECT_EQ(m.output_names(), std::vector<std::string>{"y"});
  EXPECT_TRUE(m.external_data_files().empty());

  const auto dir = std::filesystem::temp_directory_path() / "retarget-model-layer-external";
  std::filesystem::create_directories(dir);
  rx::save(m, dir / "m.onnx", {.external_data_threshold = 32, .external_data_file = "w.bin"});
  const auto stored = rx::read_model_file(dir / "m.onnx");
  EXPECT_EQ(stored.external_data_files(),
            std::vector<std::string>{"w.bin"});  // w only: spare is 16 bytes
  std::filesystem::remove_all(dir);
}

TEST(CompiledModel, CopiesAreDeepAndAMovedFromModelTakesAnAssignment) {
  auto m = small_model();
  auto copy = m;
  copy.set_metadata("k", "v");
  EXPECT_EQ(copy.metadata("k"), "v");
  EXPECT_FALSE(m.metadata("k"));
  auto moved = std::move(copy);
  EXPECT_EQ(moved.metadata("k"), "v");
  copy = m;
  EXPECT_FALSE(copy.metadata("k"));
  EXPECT_EQ(copy.opset(), 17);
  moved = std::move(copy);
  EXPECT_FALSE(moved.metadata("k"));
  EXPECT_NO_THROW(moved.check());
}

TEST(CompiledModel, SharedWeightsStayWhenUnreadInitializersGo) {
  auto m = small_model();
  m.share_weights(/*min_bytes=*/64);
  ASSERT_EQ(m.shared_initializers().size(), 1u);
  const auto removed = rx::remove_unread(m);
  EXPECT_EQ(removed.nodes, 0u);
  EXPECT_EQ(removed.initializers, 1u);  // spare
  ASSERT_EQ(m.shared_initializers().size(), 1u);
  EXPECT_EQ(m.shared_initializers()[0].index, 0);
  EXPECT_NO_THROW(m.check());
  m.materialize();
  EXPECT_TRUE(m.shared_initializers().empty());
  EXPECT_FALSE(m.has_external_data());
}

TEST(CompiledModel, ViewsChecksCutsAndRebuilds) {
  auto m = small_model();
  m.infer_shapes();
  const rx::model_view view(m);
  ASSERT_EQ(view.node_count(), 2);
  EXPECT_EQ(view.opset(), 17);
  const std::string product = view.at(0).output(0);
  EXPECT_EQ(view.producer(product), 0);
  EXPECT_EQ(view.producer("y"), 1);
  ASSERT_EQ(view.consumers(product).size(), 1u);
  EXPECT_TRUE(view.is_initializer("w"));
  EXPECT_TRUE(view.is_graph_input("x"));
  EXPECT_EQ(view.element_type("y"), static_cast<int>(rx::dtype::f32));
  EXPECT_EQ(view.static_shape("y"), std::vector<std::int64_t>({1, 4}));
  EXPECT_EQ(view.initializer_names(), std::vector<std::string>({"w", "spare"}));

  EXPECT_NO_THROW(rx::check_structure(m));
  EXPECT_EQ(rx::node_count(m), 2u);
  const rx::stored_graph source(m);
  EXPECT_EQ(source.topological_order(), std::vector<int>({0, 1}));
  EXPECT_EQ(source.inputs().size(), 1u);
  const auto place = source.place(1);  // "node 1 'name' (Relu)"
  EXPECT_EQ(place.rfind("node 1 ", 0), 0u) << place;
  EXPECT_NE(place.find("(Relu)"), std::string::npos) << place;
  EXPECT_NE(rx::to_dot(m).find("MatMul"), std::string::npos);

  const std::string names[] = {product};
  const auto exposed = rx::exposing(m, names);
  EXPECT_EQ(rx::stored_graph(exposed).outputs().size(), 2u);

  // The Relu cut out: the MatMul's product is an output of the rest, y an input of it.
  const auto cut = rx::without_nodes(m, view, {1}, [](int i) { return std::to_string(i); });
  EXPECT_EQ(cut.temporary_inputs, std::vector<std::string>({"y"}));
  EXPECT_EQ(rx::node_count(cut.rest), 1u);

  rx::graph g(17);
  rx::prepare_rebuild(g, m);
  std::vector<rx::value> inputs;
  for (const auto& in : source.inputs()) inputs.push_back(rx::declare_input(g, in, false));
  rx::declare_output(g, g.op("Relu", inputs[0]), "y", source.outputs()[0], false);
  const auto rebuilt = rx::rebuilt_model(std::move(g), m);
  EXPECT_EQ(rx::node_count(rebuilt), 1u);
  EXPECT_NO_THROW(rebuilt.check());
}

}  // namespace
