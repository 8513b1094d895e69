// Initializers that share their bytes with a tensor held elsewhere (a module's parameter):
// the model refers to them until materialize() copies them in, check() does without them,
// and save() writes them straight from the tensor, with the same bytes as a model holding
// copies.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <retarget/ir/proto.hpp>
#include <retarget/retarget.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/file_size_limit.hpp"
#include "support/scratch_folder.hpp"

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;
namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::shared_ptr<const rx::tensor> shared_floats(std::size_t n, float start, rx::dims_t dims) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + static_cast<float>(i);
  return std::make_shared<const rx::tensor>(rx::tensor::of(v, std::move(dims)));
}

class OnnxSharedWeights : public support::scratch_folder_test {
 protected:
  // A convolution whose weight (6912 bytes) and bias (256 bytes) are shared, with a doc string
  // on the model so fields after the graph are written too.
  rx::model conv_model() {
    rx::graph g;
    auto x = g.input("x", rx::dtype::f32, {1, 3, 8, 8});
    auto w = g.initializer("w", weight_);
    auto b = g.initializer("b", bias_);
    g.output(g.op("Conv", x, w, b, "pads"_i = {1, 1, 1, 1}), "y");
    return rx::make_model(std::move(g), {.doc_string = "shared", .metadata = {{"k", "v"}}});
  }

  std::shared_ptr<const rx::tensor> weight_ = shared_floats(64 * 27, 0.5f, {64, 3, 3, 3});
  std::shared_ptr<const rx::tensor> bias_ = shared_floats(64, -1.0f, {64});
};

TEST_F(OnnxSharedWeights, TheModelRefersToTheBytesUntilMaterialized) {
  auto m = conv_model();
  ASSERT_EQ(m.shared_initializers().size(), 2u);
  EXPECT_TRUE(m.proto_without_shared_bytes().graph().initializer(0).raw_data().empty());
  EXPECT_TRUE(m.graph().initializer(0).raw_data().empty());  // the graph is read as it is
  EXPECT_EQ(m.graph().initializer(0).dims_size(), 4);
  EXPECT_EQ(weight_.use_count(), 2);
  // Reading the proto copies nothing: the shared entries have no bytes.
  const auto& read = std::as_const(m).proto();
  EXPECT_EQ(&read, &m.proto_without_shared_bytes());
  EXPECT_TRUE(read.graph().initializer(0).raw_data().empty());
  EXPECT_EQ(m.shared_initializers().size(), 2u);

  m.materialize();
  EXPECT_EQ(m.graph().initializer(0).raw_data(), weight_->proto().raw_data());
  EXPECT_EQ(m.graph().initializer(0).name(), "w");
  EXPECT_EQ(m.graph().initializer(1).raw_data(), bias_->proto().raw_data());
  EXPECT_TRUE(m.shared_initializers().empty());
  EXPECT_EQ(weight_.use_count(), 1);
  EXPECT_NO_THROW(m.check());
}

TEST_F(OnnxSharedWeights, CheckLeavesTheWeightsShared) {
  auto m = conv_model();
  EXPECT_NO_THROW(m.check());
  EXPECT_EQ(m.shared_initializers().size(), 2u);
  EXPECT_TRUE(m.proto_without_shared_bytes().graph().initializer(0).raw_data().empty());
  EXPECT_EQ(weight_.use_count(), 2);
  m.infer_shapes();  // which records the types it infers, and copies no weight either
  EXPECT_EQ(m.shared_initializers().size(), 2u);
  EXPECT_TRUE(m.graph().initializer(0).raw_data().empty());
  EXPECT_EQ(m.graph().initializer_size(), 2);
  EXPECT_EQ(m.graph().input_size(), 1);

  // What the checker and strict inference refuse, they still refuse: the shared bias added
  // to the input, which it does not broadcast to, and a node reading a value that is nowhere.
  auto bad = conv_model();
  auto& add = *bad.proto_without_shared_bytes().mutable_graph()->add_node();
  add.set_op_type("Add");
  for (const char* in : {"x", "b"}) add.add_input(in);
  add.add_output("z");
  try {
    bad.check();
    ADD_FAILURE() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_NE(std::string(e.what()).find("Incompatible dimensions"), std::string::npos) << e.what();
  }
  bad.proto_without_shared_bytes().mutable_graph()->mutable_node(1)->set_input(0, "nowhere");
  try {
    bad.check();
    ADD_FAILURE() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_NE(std::string(e.what()).find("retarget: model check failed: "), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("nowhere"), std::string::npos) << e.what();
  }
  EXPECT_EQ(bad.shared_initializers().size(), 2u);
}

TEST_F(OnnxSharedWeights, SavedInlineAsACopyWouldBe) {
  auto shared = conv_model();
  auto source = conv_model();
  rx::model whole(source.materialize().proto());  // materialized: holds its bytes
  ASSERT_TRUE(whole.shared_initializers().empty());

  rx::save(shared, dir_ / "shared.onnx");
  rx::save(whole, dir_ / "whole.onnx");
  EXPECT_EQ(read_all(dir_ / "shared.onnx"), read_all(dir_ / "whole.onnx"));
  // Saving copied nothing into the model.
  EXPECT_EQ(shared.shared_initializers().size(), 2u);
  EXPECT_TRUE(shared.proto_without_shared_bytes().graph().initializer(0).raw_data().empty());
  EXPECT_EQ(rx::load(dir_ / "shared.onnx").proto().SerializeAsString(),
            whole.proto().SerializeAsString());
}

TEST_F(OnnxSharedWeights, SavedToExternalDataAsACopyWouldBe) {
  auto shared = conv_model();
  auto whole_source = conv_model();
  rx::model whole(whole_source.materialize().proto());
  const rx::save_options external{.external_data_threshold = 1024,
                                  .external_data_file = "weights.bin"};
  rx::save(shared, dir_ / "a.onnx", external);
  const auto model_bytes = read_all(dir_ / "a.onnx"), data_bytes = read_all(dir_ / "weights.bin");
  rx::save(whole, dir_ / "a.onnx", external);
  EXPECT_EQ(read_all(dir_ / "a.onnx"), model_bytes);
  EXPECT_EQ(read_all(dir_ / "weights.bin"), data_bytes);
  EXPECT_EQ(data_bytes.size(), 6912u);  // the weight; the bias stays inline, spliced
  // The model is as it was: no external-data entries left behind.
  EXPECT_EQ(shared.proto_without_shared_bytes().graph().initializer(0).external_data_size(), 0);
  EXPECT_EQ(shared.materialize().proto().SerializeAsString(), whole.proto().SerializeAsString());
}

TEST_F(OnnxSharedWeights, AFailedSaveLeavesNoFileAndTheModelAsItWas) {
  auto m = conv_model();
  // The weight's 6912 bytes cannot be written under a 4 KiB file size limit.
  std::string message;
  {
    retarget_test::file_size_limit limit(4096);
    ASSERT_TRUE(limit.ok());
    try {
      rx::save(m, dir_ / "conv.onnx");
    } catch (const retarget::error& e) {
      message = e.what();
    }
  }

  EXPECT_NE(message.find("cannot write"), std::string::npos) << message;
  EXPECT_TRUE(fs::is_empty(dir_));
  EXPECT_EQ(m.shared_initializers().size(), 2u);
  auto source = conv_model();
  EXPECT_EQ(m.materialize().proto().SerializeAsString(),
            source.materialize().proto().SerializeAsString());
}

TEST_F(OnnxSharedWeights, ShapeInferenceSeesSharedValues) {
  rx::graph g;
  auto x = g.input("x", rx::dtype::f32, {2, 3, 4});
  auto shape = g.initializer(
      "shape", std::make_shared<const rx::tensor>(rx::tensor::vector<std::int64_t>({6, 4})));
  const auto y = g.op("Reshape", x, shape);
  ASSERT_TRUE(y.static_shape());
  EXPECT_EQ(*y.static_shape(), (rx::dims_t{6, 4}));
}

TEST_F(OnnxSharedWeights, TypedDataAndSubgraphsAreCopied) {
  rx::graph g;
  onnx::TensorProto typed;
  typed.set_data_type(static_cast<int>(rx::dtype::f32));
  typed.add_dims(2);
  typed.add_float_data(1), typed.add_float_data(2);
  g.initializer("typed", std::make_shared<const rx::tensor>(typed));
  auto branch = g.subgraph("branch");
  branch.initializer("inner", shared_floats(4, 0, {4}));
  EXPECT_EQ(branch.proto().initializer(0).raw_data().size(), 16u);
  auto m = rx::make_model(std::move(g));
  EXPECT_TRUE(m.shared_initializers().empty());
  EXPECT_EQ(m.graph().initializer(0).float_data_size(), 2);
}

TEST_F(OnnxSharedWeights, AnExportedModelKeepsTheWeightsItWasGiven) {
  namespace nn = retarget::nn;
  nn::Linear fc("fc", 4, 2, false);
  const std::vector<float> first(8, 1.0f), second(8, 2.0f);
  fc.weight.assign(std::span<const float>(first));
  auto result =
      retarget::export_onnx<retarget::backends::onnxruntime>(fc, {{"x", rx::dtype::f32, {1, 4}}});
  fc.weight.assign(std::span<const float>(second));
  ASSERT_EQ(result.model.shared_initializers().size(), 1u);
  const auto& raw = result.model.materialize().graph().initializer(0).raw_data();
  ASSERT_EQ(raw.size(), 32u);
  float v = 0;
  std::memcpy(&v, raw.data(), sizeof v);
  EXPECT_EQ(v, 1.0f);
}

// An export's proto reads as it is, without a copy of its weights; the proto to change is
// the whole one, with the weights copied in.
TEST_F(OnnxSharedWeights, TheProtoOfAnExportIsThereToRead) {
  namespace nn = retarget::nn;
  nn::Linear fc("fc", 4, 2, true);
  const auto result =
      retarget::export_onnx<retarget::backends::onnxruntime>(fc, {{"x", rx::dtype::f32, {1, 4}}});
  ASSERT_EQ(result.model.shared_initializers().size(), 2u);
  const onnx::ModelProto& p = result.model.proto();
  ASSERT_EQ(p.graph().node_size(), 1);
  EXPECT_EQ(p.graph().node(0).op_type(), "Gemm");
  ASSERT_EQ(p.graph().initializer_size(), 2);  // the weight [2, 4] and the bias [2]
  for (const auto& t : p.graph().initializer()) {
    EXPECT_TRUE(t.raw_data().empty()) << t.name();
    EXPECT_EQ(t.data_type(), onnx::TensorProto::FLOAT) << t.name();
  }
  EXPECT_EQ(result.model.opset(), p.opset_import(0).version());

  auto copy = result.model;
  onnx::ModelProto& whole = copy.proto();
  EXPECT_TRUE(copy.shared_initializers().empty());
  for (const auto& t : whole.graph().initializer())
    EXPECT_EQ(t.raw_data().size(), sizeof(float) * (t.dims_size() == 2 ? 8u : 2u)) << t.name();
  EXPECT_EQ(result.model.shared_initializers().size(), 2u);  // the export still shares them
  EXPECT_NO_THROW(copy.check());
}

}  // namespace

// On a 3-D input a Linear is a MatMul: its stored weight goes transposed into the model, as
// torch stores it, instead of a Transpose node at run time; the untransposed one is not kept.
TEST_F(OnnxSharedWeights, ALinearOn3DInputStoresItsWeightTransposed) {
  namespace nn = retarget::nn;
  nn::Linear fc("fc", 4, 2, false);
  std::vector<float> w(8);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i);  // [[0..3], [4..7]]
  fc.weight.assign(std::span<const float>(w));
  auto result = retarget::export_onnx<retarget::backends::onnxruntime>(
      fc, {{"x", rx::dtype::f32, {1, 3, 4}}});
  const auto& g = result.model.materialize().graph();
  ASSERT_EQ(g.node_size(), 1);
  EXPECT_EQ(g.node(0).op_type(), "MatMul");
  ASSERT_EQ(g.initializer_size(), 1);
  EXPECT_EQ(g.initializer(0).name(), "fc.weight_transposed");
  EXPECT_EQ(rx::tensor(g.initializer(0)).dims(), (rx::dims_t{4, 2}));
  std::vector<float> stored(8);
  std::memcpy(stored.data(), g.initializer(0).raw_data().data(), 32);
  EXPECT_EQ(stored, (std::vector<float>{0, 4, 1, 5, 2, 6, 3, 7}));
  EXPECT_NO_THROW(result.model.check());
}
