// Tensor files and the atomic file writer under them.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <retarget/ir/atomic_file.hpp>
#include <retarget/ir/proto.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <string>
#include <vector>

#include "support/error_of.hpp"
#include "support/scratch_folder.hpp"

namespace {

namespace rx = retarget::ir;
namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

using support::error_of;

using OnnxFiles = support::scratch_folder_test;

TEST_F(OnnxFiles, AtomicFileAppearsOnlyWhenCommitted) {
  const auto path = dir_ / "out.txt";
  {
    std::ofstream(path) << "old";
    rx::atomic_file f(path);
    f.write("new", 3);
    EXPECT_EQ(read_all(path), "old");
    EXPECT_EQ(f.path(), path);
  }  // not committed: the old file stays, the temporary is gone
  EXPECT_EQ(read_all(path), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
  rx::atomic_file f(path);
  f.write("new", 3);
  f.commit();
  EXPECT_EQ(read_all(path), "new");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);
}

TEST_F(OnnxFiles, AtomicFileNamesTheTargetWhenItCannotWrite) {
  EXPECT_EQ(error_of([&] { rx::atomic_file f(dir_ / "missing" / "x"); }),
            "retarget: cannot write " + (dir_ / "missing" / "x").string() +
                ": No such file or directory");
}

TEST_F(OnnxFiles, TensorFileRoundTrips) {
  const auto t = rx::tensor::of<float>({1.5f, -2.0f, 3.25f, 0.0f, 7.0f, 8.0f}, {2, 3});
  rx::write_tensor_file(dir_ / "t.pb", t);
  const auto back = rx::read_tensor_file(dir_ / "t.pb");
  EXPECT_EQ(back.type(), rx::dtype::f32);
  EXPECT_EQ(back.dims(), (rx::dims_t{2, 3}));
  EXPECT_EQ(rx::values_as_double(back), (std::vector<double>{1.5, -2.0, 3.25, 0.0, 7.0, 8.0}));
  // What numpy_helper writes is read the same: the file is the proto's plain serialization.
  EXPECT_EQ(read_all(dir_ / "t.pb"), t.proto().SerializeAsString());
  rx::write_tensor_file(dir_ / "t.pb", rx::tensor::scalar<std::int64_t>(4));  // replaces it
  EXPECT_EQ(rx::read_tensor_file(dir_ / "t.pb").type(), rx::dtype::i64);
}

TEST_F(OnnxFiles, TensorFileErrorsNameTheFile) {
  const auto missing = dir_ / "missing.pb";
  EXPECT_EQ(error_of([&] { rx::read_tensor_file(missing); }),
            "retarget: cannot open " + missing.string() + ": No such file or directory");
  EXPECT_EQ(error_of([&] { rx::read_tensor_file(dir_); }),
            "retarget: " + dir_.string() + " is a folder, not an ONNX TensorProto file");
  std::ofstream(dir_ / "empty.pb").flush();
  EXPECT_EQ(error_of([&] { rx::read_tensor_file(dir_ / "empty.pb"); }),
            "retarget: " + (dir_ / "empty.pb").string() +
                " is an empty file, not an ONNX TensorProto file");
  std::ofstream(dir_ / "text.pb") << "not a tensor at all";
  EXPECT_EQ(error_of([&] { rx::read_tensor_file(dir_ / "text.pb"); }),
            "retarget: " + (dir_ / "text.pb").string() + " is not an ONNX TensorProto file");
  EXPECT_EQ(error_of([&] { rx::write_tensor_file(dir_, rx::tensor::scalar(1.0f)); }),
            "retarget: cannot write " + dir_.string() + ": Is a directory");
}

}  // namespace
