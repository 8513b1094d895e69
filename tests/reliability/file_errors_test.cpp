// Model files under bad input and faults: corrupt and truncated files, missing or escaping
// external data, unwritable paths, and saves that run out of space: the previous file, if any,
// stays as it was and no partial file is left.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <retarget/ir.hpp>
#include <string>
#include <vector>

#include "reliability/common.hpp"
#include "support/file_size_limit.hpp"

namespace {

using namespace retarget::literals;
namespace rx = retarget::ir;
namespace fs = std::filesystem;
using reliability::error_of;
using reliability::read_all;

// A convolution with `channels` output channels of 3x3x3 weights, and metadata of `padding`
// bytes (to make the model file itself large when a test needs it).
rx::model conv_model(int channels, std::size_t padding = 0) {
  rx::graph g;
  auto x = g.input("x", rx::dtype::f32, {1, 3, 8, 8});
  std::vector<float> weights(static_cast<std::size_t>(channels) * 27);
  for (std::size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(i) * 0.25f;
  auto w = g.initializer("w", rx::tensor::of(weights, {channels, 3, 3, 3}));
  g.output(g.op("Conv", x, w, "pads"_i = {1, 1, 1, 1}), "y");
  return rx::make_model(std::move(g), {.metadata = {{"padding", std::string(padding, 'p')}}});
}

class FileErrors : public reliability::scratch_folder {
 protected:
  // Saves, then replaces one external_data entry of the initializer w.
  fs::path with_external_entry(const std::string& key, const std::string& value,
                               const fs::path& folder = {}) {
    const auto path = (folder.empty() ? dir_ : folder) / "m.onnx";
    auto m = conv_model(8);
    rx::save(m, path, {.external_data_threshold = 64});
    auto back = rx::model([&] {
      onnx::ModelProto p;
      std::ifstream in(path, std::ios::binary);
      p.ParseFromIstream(&in);
      return p;
    }());
    for (auto& e : *back.proto().mutable_graph()->mutable_initializer(0)->mutable_external_data())
      if (e.key() == key) e.set_value(value);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    back.proto().SerializeToOstream(&out);
    return path;
  }
};

TEST_F(FileErrors, CorruptModel) {
  std::ofstream(dir_ / "junk.onnx") << "this is not a model";
  EXPECT_EQ(error_of([&] { rx::load(dir_ / "junk.onnx"); }),
            "retarget: " + (dir_ / "junk.onnx").string() +
                " is not a valid ONNX model (corrupt or truncated)");
  std::ofstream(dir_ / "empty.onnx").close();
  EXPECT_EQ(error_of([&] { rx::load(dir_ / "empty.onnx"); }),
            "retarget: " + (dir_ / "empty.onnx").string() + " is an empty file, not an ONNX model");
  EXPECT_EQ(
      error_of([&] { rx::load(dir_ / "nothing.onnx"); }),
      "retarget: cannot open " + (dir_ / "nothing.onnx").string() + ": No such file or directory");
  EXPECT_EQ(error_of([&] { rx::load(dir_); }),
            "retarget: " + dir_.string() + " is a folder, not an ONNX model");
}

TEST_F(FileErrors, TruncatedModel) {
  auto m = conv_model(4);
  rx::save(m, dir_ / "m.onnx");
  const std::string bytes = read_all(dir_ / "m.onnx");
  // Cut inside the graph: the parser sees the message end early.
  std::ofstream(dir_ / "cut.onnx", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_EQ(error_of([&] { rx::load(dir_ / "cut.onnx"); }),
            "retarget: " + (dir_ / "cut.onnx").string() +
                " is not a valid ONNX model (corrupt or truncated)");
  // Every prefix either fails to load or fails the checker, or is one the format cannot tell
  // from a whole model (cut between top-level fields); none crashes or passes as the whole model.
  int refused = 0, unchecked = 0, boundaries = 0;
  for (std::size_t n = 1; n < bytes.size(); ++n) {
    std::ofstream(dir_ / "cut.onnx", std::ios::binary | std::ios::trunc) << bytes.substr(0, n);
    try {
      const auto cut = rx::load(dir_ / "cut.onnx");
      EXPECT_NE(cut.proto().SerializeAsString(), m.proto().SerializeAsString()) << n;
      try {
        cut.check();
        ++boundaries;
      } catch (const retarget::error&) {
        ++unchecked;
      }
    } catch (const retarget::error&) {
      ++refused;
    }
  }
  std::cout << bytes.size() - 1 << " prefixes: " << refused << " refused by load, " << unchecked
            << " refused by check, " << boundaries << " cut between top-level fields\n";
  EXPECT_GT(refused, static_cast<int>(bytes.size()) / 2);
}

TEST_F(FileErrors, MissingOrShortExternalData) {
  auto m = conv_model(8);
  rx::save(m, dir_ / "m.onnx", {.external_data_threshold = 64});
  ASSERT_TRUE(fs::exists(dir_ / "m.onnx.data"));
  fs::resize_file(dir_ / "m.onnx.data", 100);
  EXPECT_EQ(error_of([&] { rx::load(dir_ / "m.onnx"); }),
            "retarget: " + (dir_ / "m.onnx").string() + ": external data file " +
                (dir_ / "m.onnx.data").string() + " is too short for tensor 'w'");
  fs::remove(dir_ / "m.onnx.data");
  EXPECT_EQ(error_of([&] { rx::load(dir_ / "m.onnx"); }),
            "retarget: " + (dir_ / "m.onnx").string() + ": external data file " +
                (dir_ / "m.onnx.data").string() + " of tensor 'w' cannot be opened");
}

TEST_F(FileErrors, MalformedExternalDataEntries) {
  const auto model = (dir_ / "m.onnx").string();
  EXPECT_EQ(error_of([&] { rx::load(with_external_entry("offset", "abc")); }),
            "retarget: " + model + ": tensor 'w' has external data offset 'abc', not a byte count");
  EXPECT_EQ(error_of([&] { rx::load(with_external_entry("length", "-5")); }),
            "retarget: " + model + ": tensor 'w' has external data length '-5', not a byte count");
  // A huge length is refused before anything is allocated.
  EXPECT_EQ(error_of([&] { rx::load(with_external_entry("length", "1000000000000000")); }),
            "retarget: " + model + ": external data file " + (dir_ / "m.onnx.data").string() +
                " is too short for tensor 'w'");
  EXPECT_EQ(error_of([&] { rx::load(with_external_entry("offset", "18446744073709551615")); }),
            "retarget: " + model + ": external data file " + (dir_ / "m.onnx.data").string() +
                " is too short for tensor 'w'");
}

TEST_F(FileErrors, ExternalDataThatEscapesTheFolderIsRefused) {
  const auto model = (dir_ / "m.onnx").string();
  for (const std::string location :
       {"../m.onnx.data", "/etc/passwd", "sub/../../m.onnx.data", ""}) {
    EXPECT_EQ(error_of([&] { rx::load(with_external_entry("location", location)); }),
              "retarget: " + model + ": tensor 'w' has external data at '" + location +
                  "', outside the model's folder; refused")
        << location;
  }
  // A symbolic link inside the model's folder that leads out of it.
  fs::create_directories(dir_ / "model");
  const auto through_link = with_external_entry("location", "link/m.onnx.data", dir_ / "model");
  fs::create_directories(dir_ / "elsewhere");
  fs::rename(dir_ / "model" / "m.onnx.data", dir_ / "elsewhere" / "m.onnx.data");
  fs::create_directory_symlink(dir_ / "elsewhere", dir_ / "model" / "link");
  EXPECT_EQ(error_of([&] { rx::load(through_link); }),
            "retarget: " + through_link.string() +
                ": tensor 'w' has external data at 'link/m.onnx.data', outside the model's folder; "
                "refused");
  // A link that stays inside is followed.
  fs::create_directories(dir_ / "model" / "weights");
  fs::rename(dir_ / "elsewhere" / "m.onnx.data", dir_ / "model" / "weights" / "m.onnx.data");
  fs::remove(dir_ / "model" / "link");
  fs::create_directory_symlink("weights", dir_ / "model" / "link");
  EXPECT_NO_THROW(rx::load(through_link).check());
}

TEST_F(FileErrors, UnwritableOutputPath) {
  auto m = conv_model(1);
  EXPECT_EQ(error_of([&] { rx::save(m, dir_ / "missing" / "m.onnx"); }),
            "retarget: cannot write " + (dir_ / "missing" / "m.onnx").string() +
                ": No such file or directory");
  std::ofstream(dir_ / "file") << "a file, not a folder";
  EXPECT_EQ(error_of([&] { rx::save(m, dir_ / "file" / "m.onnx"); }),
            "retarget: cannot write " + (dir_ / "file" / "m.onnx").string() + ": Not a directory");
  // The target is a folder: nothing is replaced, and the external data is not left behind.
  fs::create_directories(dir_ / "m.onnx");
  EXPECT_EQ(error_of([&] { rx::save(m, dir_ / "m.onnx", {.external_data_threshold = 16}); }),
            "retarget: cannot write " + (dir_ / "m.onnx").string() + ": Is a directory");
  EXPECT_EQ(files(), (std::vector<std::string>{"file", "m.onnx"}));
  EXPECT_EQ(error_of([&] { rx::save(m, dir_ / "x.onnx", {.external_data_file = "../x.data"}); }),
            "retarget: external data file '../x.data' must be a plain file name");
}

TEST_F(FileErrors, NoSpaceWhileWritingTheModel) {
  auto m = conv_model(4);
  rx::save(m, dir_ / "m.onnx");
  const auto previous = read_all(dir_ / "m.onnx");
  auto big = conv_model(512);
  std::string message;
  {
    retarget_test::file_size_limit limit(8192);
    ASSERT_TRUE(limit.ok());
    message = error_of([&] { rx::save(big, dir_ / "m.onnx"); });
  }
  EXPECT_EQ(message, "retarget: cannot write " + (dir_ / "m.onnx").string() +
                         " (write failed: File too large)");
  EXPECT_EQ(read_all(dir_ / "m.onnx"), previous);
  EXPECT_EQ(files(), std::vector<std::string>{"m.onnx"});
}

TEST_F(FileErrors, NoSpaceWhileWritingTheExternalData) {
  auto m = conv_model(8);
  rx::save(m, dir_ / "m.onnx", {.external_data_threshold = 64});
  const auto previous = read_all(dir_ / "m.onnx");
  const auto previous_data = read_all(dir_ / "m.onnx.data");
  auto big = conv_model(512);
  std::string message;
  {
    retarget_test::file_size_limit limit(8192);
    ASSERT_TRUE(limit.ok());
    message = error_of([&] { rx::save(big, dir_ / "m.onnx", {.external_data_threshold = 64}); });
  }
  EXPECT_EQ(message, "retarget: cannot write " + (dir_ / "m.onnx.data").string() +
                         " (write failed: File too large)");
  EXPECT_EQ(read_all(dir_ / "m.onnx"), previous);
  EXPECT_EQ(read_all(dir_ / "m.onnx.data"), previous_data);
  EXPECT_EQ(files(), (std::vector<std::string>{"m.onnx", "m.onnx.data"}));
  EXPECT_NO_THROW(rx::load(dir_ / "m.onnx").check());
}

// The external data fits, the model file does not, and the failure only shows when the model
// file is flushed: the previous model must not be left pointing at new data.
TEST_F(FileErrors, NoSpaceWhenTheModelIsFlushedAfterItsData) {
  auto m = conv_model(8);
  rx::save(m, dir_ / "m.onnx", {.external_data_threshold = 64});
  const auto previous = read_all(dir_ / "m.onnx");
  const auto previous_data = read_all(dir_ / "m.onnx.data");
  auto next = conv_model(9, 2000);  // ~1 KiB of data, ~2 KiB of model: both fit stdio's buffer
  std::string message;
  {
    retarget_test::file_size_limit limit(1500);
    ASSERT_TRUE(limit.ok());
    message = error_of([&] { rx::save(next, dir_ / "m.onnx", {.external_data_threshold = 64}); });
  }
  EXPECT_EQ(message.rfind("retarget: cannot write " + (dir_ / "m.onnx").string(), 0), 0u)
      << message;
  EXPECT_NE(message.find("File too large"), std::string::npos) << message;
  EXPECT_EQ(read_all(dir_ / "m.onnx"), previous);
  EXPECT_EQ(read_all(dir_ / "m.onnx.data"), previous_data);
  EXPECT_EQ(files(), (std::vector<std::string>{"m.onnx", "m.onnx.data"}));
  EXPECT_NO_THROW(rx::load(dir_ / "m.onnx").check());
}

// Found by fuzz_load_model: ONNX's shape inference crashed on a model its checker refuses.
TEST(ModelErrors, ShapeInferenceOfAModelTheCheckerRefusesIsAnError) {
  auto m = conv_model(2);
  m.proto().mutable_graph()->mutable_node(0)->set_input(0, "nowhere");
  const auto message = error_of([&] { m.infer_shapes(); });
  EXPECT_EQ(message.rfind(
                "retarget: shape inference refused: model check failed: Nodes in a graph must be "
                "topologically sorted, however input 'nowhere' of node",
                0),
            0u)
      << message;
}

// Found by fuzz_load_model: ONNX's inference for convolutions and pooling divides by each
// stride and stopped the process (SIGFPE) on a stride of 0, which its checker lets through.
// Refused before inference runs, wherever the node is: the main graph, an If's branch, a
// model-local function.
void set_strides(onnx::NodeProto& node, std::vector<std::int64_t> strides) {
  auto* a = node.add_attribute();
  a->set_name("strides");
  a->set_type(onnx::AttributeProto::INTS);
  for (auto s : strides) a->add_ints(s);
}

constexpr const char* zero_stride_error =
    "retarget: Conv (opset 17): attribute 'strides'[1] is 0: a stride is at least 1";

TEST(ModelErrors, AStrideOfZeroIsRefusedBeforeInference) {
  auto m = conv_model(2);
  set_strides(*m.proto().mutable_graph()->mutable_node(0), {1, 0});
  EXPECT_EQ(error_of([&] { m.check(); }), zero_stride_error);
  EXPECT_EQ(error_of([&] { m.infer_shapes(); }), zero_stride_error);
  auto& strides = *m.proto().mutable_graph()->mutable_node(0)->mutable_attribute()->rbegin();
  strides.set_ints(0, -2);
  EXPECT_EQ(error_of([&] { m.infer_shapes(); }),
            "retarget: Conv (opset 17): attribute 'strides'[0] is -2: a stride is at least 1");
  strides.set_ints(0, 1);
  strides.set_ints(1, 1);
  EXPECT_NO_THROW(m.infer_shapes());
}

TEST(ModelErrors, AStrideOfZeroInABranchIsRefused) {
  auto m = conv_model(2);
  auto& graph = *m.proto().mutable_graph();
  // y = If(c) { Conv(x, w) with a stride of 0 } else { Conv(x, w) }, with c a new input.
  onnx::GraphProto branch;
  branch.set_name("branch");
  *branch.add_node() = graph.node(0);
  branch.mutable_node(0)->set_output(0, "branch_y");
  *branch.add_output() = graph.output(0);
  branch.mutable_output(0)->set_name("branch_y");
  onnx::GraphProto bad = branch;
  set_strides(*bad.mutable_node(0), {1, 0});
  auto* c = graph.add_input();
  c->set_name("c");
  c->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::BOOL);
  c->mutable_type()->mutable_tensor_type()->mutable_shape();
  onnx::NodeProto choice;
  choice.set_op_type("If");
  choice.add_input("c");
  choice.add_output("y");
  auto* then_branch = choice.add_attribute();
  then_branch->set_name("then_branch");
  then_branch->set_type(onnx::AttributeProto::GRAPH);
  *then_branch->mutable_g() = bad;
  auto* else_branch = choice.add_attribute();
  else_branch->set_name("else_branch");
  else_branch->set_type(onnx::AttributeProto::GRAPH);
  *else_branch->mutable_g() = branch;
  graph.clear_node();
  *graph.add_node() = choice;
  EXPECT_EQ(error_of([&] { m.infer_shapes(); }), zero_stride_error);
}

TEST(ModelErrors, AStrideOfZeroInAModelLocalFunctionIsRefused) {
  auto m = conv_model(2);
  auto& proto = m.proto();
  auto& graph = *proto.mutable_graph();
  // y = local::Strided(x, w), whose body is the Conv with a stride of 0.
  auto* f = proto.add_functions();
  f->set_name("Strided");
  f->set_domain("local");
  f->add_input("x");
  f->add_input("w");
  f->add_output("y");
  *f->add_node() = graph.node(0);
  set_strides(*f->mutable_node(0), {1, 0});
  *f->add_opset_import() = proto.opset_import(0);
  auto* local = proto.add_opset_import();
  local->set_domain("local");
  local->set_version(1);
  auto& call = *graph.mutable_node(0);
  call.clear_attribute();
  call.set_op_type("Strided");
  call.set_domain("local");
  EXPECT_EQ(error_of([&] { m.infer_shapes(); }), zero_stride_error);
}

}  // namespace
