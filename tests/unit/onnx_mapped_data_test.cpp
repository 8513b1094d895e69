// External data mapped, not read: a loaded model's large external tensors are shared tensors
// whose bytes are the data file's, read through a mapping. Every reader sees the file's
// bytes; loading costs no memory for them until they are read; saving works, over the very
// file the mapping comes from too; a short data file gives the error it always gave.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <retarget/ir.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <string>
#include <vector>

#include "support/error_of.hpp"
#include "support/scratch_folder.hpp"

namespace {

using support::error_of;
namespace rx = retarget::ir;
namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// The value of element i of a weight: distinct, exactly representable, never all zero pages.
float weight_at(std::size_t i) { return static_cast<float>(i % 65521) * 0.25f - 7.0f; }

// y = x + w + b over `count` floats, with w (count floats) and b (`count` floats too) in the
// external data file `data`, written here element by element; the model file by hand, as
// another exporter would write it. Nothing of the weights is held in memory meanwhile.
void write_model(const fs::path& folder, std::size_t count, const std::string& data = "m.data") {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(17);
  auto& g = *m.mutable_graph();
  g.set_name("main");
  const auto declare = [&](onnx::ValueInfoProto& v, const std::string& name) {
    v.set_name(name);
    auto& t = *v.mutable_type()->mutable_tensor_type();
    t.set_elem_type(onnx::TensorProto::FLOAT);
    t.mutable_shape()->add_dim()->set_dim_value(static_cast<std::int64_t>(count));
  };
  declare(*g.add_input(), "x");
  declare(*g.add_output(), "y");
  std::ofstream out(folder / data, std::ios::binary);
  std::size_t offset = 0;
  for (const std::string name : {"w", "b"}) {
    auto& t = *g.add_initializer();
    t.set_name(name);
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_dims(static_cast<std::int64_t>(count));
    t.set_data_location(onnx::TensorProto::EXTERNAL);
    const std::size_t length = count * sizeof(float);
    for (const auto& [k, v] : {std::pair<std::string, std::string>{"location", data},
                               {"offset", std::to_string(offset)},
                               {"length", std::to_string(length)}}) {
      auto* e = t.add_external_data();
      e->set_key(k);
      e->set_value(v);
    }
    std::vector<float> chunk;
    for (std::size_t i = 0; i < count; ++i) {
      chunk.push_back(name == "w" ? weight_at(i) : -weight_at(i));
      if (chunk.size() == 65536 || i + 1 == count) {
        out.write(reinterpret_cast<const char*>(chunk.data()),
                  static_cast<std::streamsize>(chunk.size() * sizeof(float)));
        chunk.clear();
      }
    }
    offset += length;
  }
  auto& add = *g.add_node();
  add.set_op_type("Add");
  add.add_input("x");
  add.add_input("w");
  add.add_output("xw");
  auto& add_b = *g.add_node();
  add_b.set_op_type("Add");
  add_b.add_input("xw");
  add_b.add_input("b");
  add_b.add_output("y");
  std::ofstream model(folder / "m.onnx", std::ios::binary);
  m.SerializeToOstream(&model);
}

// The bytes of `count` floats of w, then of b, as write_model writes them.
std::string expected_bytes(std::size_t count) {
  std::vector<float> all;
  for (std::size_t i = 0; i < count; ++i) all.push_back(weight_at(i));
  for (std::size_t i = 0; i < count; ++i) all.push_back(-weight_at(i));
  return {reinterpret_cast<const char*>(all.data()), all.size() * sizeof(float)};
}

// Resident memory of this process, in bytes.
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t total = 0, resident = 0;
  statm >> total >> resident;
  return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

// The shared tensor of the initializer named `name`, or nullptr.
const rx::tensor* shared_tensor(const rx::model& m, const std::string& name) {
  for (const auto& s : m.shared_initializers())
    if (m.graph().initializer(s.index).name() == name) return s.data.get();
  return nullptr;
}

// The initializers' bytes of a model holding them all, in order.
std::string initializer_bytes(rx::model m) {
  std::string out;
  for (const auto& t : m.materialize().graph().initializer()) out += t.raw_data();
  return out;
}

class OnnxMappedData : public support::scratch_folder_test {};

TEST_F(OnnxMappedData, EveryReaderSeesTheFilesBytes) {
  constexpr std::size_t count = 16384;  // 64 KiB each
  write_model(dir_, count);
  const auto m = rx::load(dir_ / "m.onnx");
  // Both weights are shared tensors, with no bytes in the model's own proto.
  ASSERT_EQ(m.shared_initializers().size(), 2u);
  for (const auto& t : m.graph().initializer()) {
    EXPECT_FALSE(t.has_raw_data()) << t.name();
    EXPECT_NE(t.data_location(), onnx::TensorProto::EXTERNAL) << t.name();
  }
  const auto* w = shared_tensor(m, "w");
  ASSERT_NE(w, nullptr);

  // The decoder of tensor data, through the tensor and through the view.
  const auto values = rx::values_of<float>(w->proto());
  ASSERT_EQ(values.size(), count);
  for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(values[i], weight_at(i)) << i;
  const rx::model_view view(m);
  ASSERT_NE(view.constant("b"), nullptr);
  const auto b = rx::values_of<float>(*view.constant("b"));
  ASSERT_EQ(b.size(), count);
  EXPECT_EQ(b[5], -weight_at(5));
  EXPECT_EQ(rx::stored_count<float>(*view.constant("w")), count);
  // The statistics of checks, and a copy into the proto.
  const auto stats = rx::statistics(*w);
  EXPECT_EQ(stats.count, count);
  EXPECT_EQ(stats.min, -7.0);
  EXPECT_EQ(initializer_bytes(m), read_all(dir_ / "m.data"));
  EXPECT_EQ(read_all(dir_ / "m.data"), expected_bytes(count));
  EXPECT_NO_THROW(m.check());
  // A tensor file of a mapped tensor holds its bytes.
  rx::write_tensor_file(dir_ / "w.pb", *w);
  const auto back = rx::read_tensor_file(dir_ / "w.pb");
  EXPECT_NE(back.proto().data_location(), onnx::TensorProto::EXTERNAL);
  EXPECT_EQ(back.proto().raw_data(), expected_bytes(count).substr(0, count * sizeof(float)));
}

TEST_F(OnnxMappedData, ACopyOfAMappedTensorFindsItsBytesWhileTheModelLives) {
  constexpr std::size_t count = 16384;
  write_model(dir_, count);
  onnx::TensorProto copy;
  {
    const auto m = rx::load(dir_ / "m.onnx");
    const auto* w = shared_tensor(m, "w");
    const auto* b = shared_tensor(m, "b");
    ASSERT_TRUE(w && b);
    EXPECT_TRUE(w->is_mapped());
    // One mapping of the file for both: b's bytes follow w's.
    EXPECT_EQ(b->raw_bytes().data(), w->raw_bytes().data() + count * sizeof(float));
    copy = w->proto();  // as a rule copies a constant to reshape it
    const auto bytes = rx::raw_bytes(copy);
    ASSERT_TRUE(bytes);
    EXPECT_EQ(bytes->data(), w->raw_bytes().data());
    // Made a tensor of its own (a new constant), it holds its bytes.
    const rx::tensor own(copy);
    EXPECT_FALSE(own.is_mapped());
    EXPECT_NE(own.proto().data_location(), onnx::TensorProto::EXTERNAL);
    EXPECT_EQ(own.proto().raw_data(), expected_bytes(count).substr(0, count * sizeof(float)));
  }
  // The model gone, its mapping is too: the copy has no bytes, and says so.
  EXPECT_FALSE(rx::raw_bytes(copy));
  EXPECT_EQ(error_of([&] { rx::values_of<float>(copy); }),
            "retarget: tensor 'w' has its data in an external file, not in memory");
}

TEST_F(OnnxMappedData, LoadingAndSavingCostNoMemoryForTheBytesUntilTheyAreRead) {
  constexpr std::size_t count = std::size_t{8} << 20;  // 32 MiB each, 64 MiB in all
  write_model(dir_, count);
  const std::size_t before = resident_bytes();
  auto m = rx::load(dir_ / "m.onnx");
  const std::size_t grown = resident_bytes() - before;
  EXPECT_LT(grown, (std::size_t{64} << 20) / 2) << grown << " bytes";
  // A save reads every byte once, and does not keep them.
  fs::create_directories(dir_ / "saved");
  rx::save(m, dir_ / "saved" / "m.onnx", {.external_data_threshold = 1024});
  const std::size_t after_save = resident_bytes() - before;
  EXPECT_LT(after_save, (std::size_t{64} << 20) / 2) << after_save << " bytes";
  EXPECT_EQ(fs::file_size(dir_ / "saved" / "m.onnx.data"), std::size_t{64} << 20);
  // Read once through: the values are the file's.
  const auto* w = shared_tensor(m, "w");
  ASSERT_NE(w, nullptr);
  double sum = 0, expected = 0;
  std::size_t n = 0;
  rx::for_each_value<float>(w->proto(), [&](float v) { sum += v, ++n; });
  for (std::size_t i = 0; i < count; ++i) expected += weight_at(i);
  EXPECT_EQ(n, count);
  EXPECT_EQ(sum, expected);
}

TEST_F(OnnxMappedData, SavesOverTheFileItsBytesAreMappedFrom) {
  constexpr std::size_t count = 16384;
  write_model(dir_, count);
  auto m = rx::load(dir_ / "m.onnx");
  ASSERT_EQ(m.shared_initializers().size(), 2u);
  // The new data file replaces the one mapped (renamed over it), here with other names and
  // offsets: the model's bytes stay those it loaded.
  rx::save(m, dir_ / "m.onnx", {.external_data_threshold = 1024, .external_data_file = "m.data"});
  EXPECT_EQ(initializer_bytes(m), expected_bytes(count));
  EXPECT_EQ(read_all(dir_ / "m.data"), expected_bytes(count));
  const auto again = rx::load(dir_ / "m.onnx");
  EXPECT_EQ(initializer_bytes(again), expected_bytes(count));
  // Twice, the model saved from a model whose bytes come from the file it replaces.
  auto third = rx::load(dir_ / "m.onnx");
  rx::save(third, dir_ / "m.onnx",
           {.external_data_threshold = 1024, .external_data_file = "m.data"});
  EXPECT_EQ(initializer_bytes(rx::load(dir_ / "m.onnx")), expected_bytes(count));
  EXPECT_EQ(initializer_bytes(third), expected_bytes(count));
}

TEST_F(OnnxMappedData, SavedElsewhereAndLoadedBackEqual) {
  constexpr std::size_t count = 16384;
  fs::create_directories(dir_ / "a");
  fs::create_directories(dir_ / "b");
  write_model(dir_ / "a", count);
  auto m = rx::load(dir_ / "a" / "m.onnx");
  ASSERT_EQ(m.shared_initializers().size(), 2u);
  const std::string whole =
      rx::load(dir_ / "a" / "m.onnx").materialize().proto().SerializeAsString();
  // External again, in another folder, and inline.
  rx::save(m, dir_ / "b" / "m.onnx", {.external_data_threshold = 1024});
  rx::save(m, dir_ / "b" / "inline.onnx");
  EXPECT_EQ(read_all(dir_ / "b" / "m.onnx.data"), expected_bytes(count));
  EXPECT_EQ(rx::load(dir_ / "b" / "m.onnx").materialize().proto().SerializeAsString(), whole);
  EXPECT_EQ(rx::load(dir_ / "b" / "inline.onnx").proto().SerializeAsString(), whole);
  // The source model is as it was.
  EXPECT_EQ(m.shared_initializers().size(), 2u);
  EXPECT_EQ(initializer_bytes(m), expected_bytes(count));
}

TEST_F(OnnxMappedData, AShortDataFileIsRefusedAsBefore) {
  constexpr std::size_t count = 16384;
  write_model(dir_, count);
  ASSERT_EQ(rx::load(dir_ / "m.onnx").shared_initializers().size(), 2u);  // mapped when whole
  fs::resize_file(dir_ / "m.data", count * sizeof(float) + 100);          // w whole, b cut
  EXPECT_EQ(error_of([&] { rx::load(dir_ / "m.onnx"); }),
            "retarget: " + (dir_ / "m.onnx").string() + ": external data file " +
                (dir_ / "m.data").string() + " is too short for tensor 'b'");
  fs::remove(dir_ / "m.data");
  fs::create_directory(dir_ / "m.data");  // not a file: cannot be read
  EXPECT_NE(error_of([&] { rx::load(dir_ / "m.onnx"); }).find("external data file"),
            std::string::npos);
}

}  // namespace
