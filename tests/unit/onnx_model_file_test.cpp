// Model files: atomic saves, external data, loading back, byte-identical output.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <string>

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

// A fresh folder per test, removed afterwards.
class OnnxModelFile : public support::scratch_folder_test {
 protected:
  // A small convolution with `channels` output channels of 3x3x3 weights.
  static rx::model conv_model(int channels) {
    rx::graph g;
    auto x = g.input("x", rx::dtype::f32, {1, 3, 8, 8});
    std::vector<float> weights(static_cast<std::size_t>(channels) * 27);
    for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i) * 0.5f;
    auto w = g.initializer("w", rx::tensor::of(weights, {channels, 3, 3, 3}));
    auto b = g.initializer(
        "b",
        rx::tensor::of(std::vector<float>(static_cast<std::size_t>(channels), 1.0f), {channels}));
    g.output(g.op("Conv", x, w, b, "pads"_i = {1, 1, 1, 1}), "y");
    return rx::make_model(std::move(g), {.metadata = {{"backend", "onnxruntime"}}});
  }

  std::vector<std::string> files() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
};

TEST_F(OnnxModelFile, SavesAndLoadsBack) {
  auto m = conv_model(4);
  rx::save(m, dir_ / "conv.onnx");
  EXPECT_EQ(files(), std::vector<std::string>{"conv.onnx"});
  const auto loaded = rx::load(dir_ / "conv.onnx");
  EXPECT_EQ(loaded.proto().SerializeAsString(), m.proto().SerializeAsString());
  EXPECT_NO_THROW(loaded.check());
}

// Weights of 64 KiB and more are written from their own strings, not through protobuf's
// buffer; the file is still byte for byte what protobuf serializes.
TEST_F(OnnxModelFile, LargeWeightsKeptInTheFileAreWrittenAsProtobufWould) {
  auto m = conv_model(1024);  // w: 1024*27 floats = 110592 bytes
  rx::save(m, dir_ / "conv.onnx");
  EXPECT_EQ(read_all(dir_ / "conv.onnx"), m.proto().SerializeAsString());
  EXPECT_EQ(rx::load(dir_ / "conv.onnx").proto().SerializeAsString(),
            m.proto().SerializeAsString());
}

TEST_F(OnnxModelFile, LargeTensorsGoToExternalDataAndComeBack) {
  auto m = conv_model(64);  // w: 64*27 floats = 6912 bytes; b: 256 bytes
  const std::string before = m.proto().SerializeAsString();
  rx::save(m, dir_ / "conv.onnx", {.external_data_threshold = 1024});
  EXPECT_EQ(m.proto().SerializeAsString(), before);  // the model is given its weights back
  EXPECT_EQ(files(), (std::vector<std::string>{"conv.onnx", "conv.onnx.data"}));
  EXPECT_EQ(fs::file_size(dir_ / "conv.onnx.data"), 6912u);
  EXPECT_LT(fs::file_size(dir_ / "conv.onnx"), 1024u);

  const auto raw = rx::load(dir_ / "conv.onnx");
  EXPECT_EQ(raw.graph().initializer(0).raw_data().size(), 6912u);
  EXPECT_EQ(raw.proto().SerializeAsString(), before);
}

TEST_F(OnnxModelFile, OutputIsByteIdentical) {
  auto a = conv_model(8);
  auto b = conv_model(8);
  rx::save(a, dir_ / "a.onnx",
           {.external_data_threshold = 64, .external_data_file = "weights.bin"});
  const auto first = read_all(dir_ / "a.onnx");
  const auto first_data = read_all(dir_ / "weights.bin");
  rx::save(b, dir_ / "a.onnx",
           {.external_data_threshold = 64, .external_data_file = "weights.bin"});
  EXPECT_EQ(read_all(dir_ / "a.onnx"), first);
  EXPECT_EQ(read_all(dir_ / "weights.bin"), first_data);
}

TEST_F(OnnxModelFile, AFailedSaveLeavesNoFileAndThePreviousOneIntact) {
  auto m = conv_model(4);
  rx::save(m, dir_ / "conv.onnx");
  const auto previous = read_all(dir_ / "conv.onnx");

  // A bigger model that cannot be written: the file size limit is below its size.
  auto big = conv_model(512);
  std::string message;
  {
    retarget_test::file_size_limit limit(4096);
    ASSERT_TRUE(limit.ok());
    try {
      rx::save(big, dir_ / "conv.onnx");
    } catch (const retarget::error& e) {
      message = e.what();
    }
  }

  EXPECT_NE(message.find("cannot write"), std::string::npos) << message;
  EXPECT_EQ(read_all(dir_ / "conv.onnx"), previous);
  EXPECT_EQ(files(), std::vector<std::string>{"conv.onnx"});
}

TEST_F(OnnxModelFile, UnwritableFolderIsAnError) {
  auto m = conv_model(1);
  try {
    rx::save(m, dir_ / "missing" / "conv.onnx");
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write"), std::string::npos);
  }
  EXPECT_TRUE(files().empty());
}

TEST_F(OnnxModelFile, LoadErrorsNameTheFile) {
  std::ofstream(dir_ / "junk.onnx") << "this is not a model";
  EXPECT_THROW(rx::load(dir_ / "junk.onnx"), retarget::error);
  EXPECT_THROW(rx::load(dir_ / "nothing.onnx"), retarget::error);

  auto m = conv_model(64);
  rx::save(m, dir_ / "conv.onnx", {.external_data_threshold = 1024});
  fs::remove(dir_ / "conv.onnx.data");
  try {
    rx::load(dir_ / "conv.onnx");
    FAIL() << "no error";
  } catch (const retarget::error& e) {
    EXPECT_NE(std::string(e.what()).find("conv.onnx.data"), std::string::npos) << e.what();
  }
}

TEST_F(OnnxModelFile, ExternalDataOutsideTheFolderIsRefused) {
  auto m = conv_model(64);
  auto* w = m.proto().mutable_graph()->mutable_initializer(0);
  w->clear_raw_data();
  w->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* e = w->add_external_data();
  e->set_key("location");
  e->set_value("../../etc/passwd");
  rx::save(m, dir_ / "evil.onnx");
  try {
    rx::load(dir_ / "evil.onnx");
    FAIL() << "no error";
  } catch (const retarget::error& err) {
    EXPECT_NE(std::string(err.what()).find("outside the model's folder; refused"),
              std::string::npos);
  }
}

}  // namespace
