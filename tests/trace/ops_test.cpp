// Every op of the library, exported with retarget, run on ONNX Runtime and compared with
// what PyTorch computes for the same inputs (tests/data/ops, made by
// tools/make_op_references.py, which holds the PyTorch side of each case).
#include <gtest/gtest.h>

#include <functional>
#include <iostream>
#include <map>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <retarget/retarget.hpp>

#include "support/ort.hpp"

namespace {

namespace bk = retarget::backends;
namespace nn = retarget::nn;
namespace ops = retarget::ops;
namespace rx = retarget::ir;
namespace fs = std::filesystem;
using ops::ints;
using retarget::trace::tensor;
using T = tensor<bk::onnxruntime>;

const fs::path cases_dir = ort::source_dir() / "tests/data/ops";

// The retarget side of each case, with the same inputs in the same order as the PyTorch side.
using exporter = std::function<retarget::export_result(const std::vector<retarget::input_spec>&)>;

template <class F, std::size_t... I>
retarget::export_result export_with(const F& f, const std::vector<retarget::input_spec>& in,
                                    std::index_sequence<I...>) {
  const retarget::input_spec specs[] = {in.at(I)...};
  return retarget::export_onnx<bk::onnxruntime>(f, specs);
}
template <std::size_t N, class F>
exporter make(F f) {
  return [f](const std::vector<retarget::input_spec>& in) {
    return export_with(f, in, std::make_index_sequence<N>());
  };
}

const std::map<std::string, exporter>& cases() {
  static const std::map<std::string, exporter> table{
      {"add", make<2>([](const T& a, const T& b) { return a + b; })},
      {"add_scalar", make<1>([](const T& a) { return a + 2.5; })},
      {"sub", make<2>([](const T& a, const T& b) { return a - b; })},
      {"rsub_scalar", make<1>([](const T& a) { return 1.0 - a; })},
      {"mul", make<2>([](const T& a, const T& b) { return a * b; })},
      {"div", make<2>([](const T& a, const T& b) { return a / b; })},
      {"pow", make<2>([](const T& a, const T& b) { return ops::pow(a, b); })},
      {"neg", make<1>([](const T& a) { return -a; })},
      {"matmul", make<2>([](const T& a, const T& b) { return ops::matmul(a, b); })},
      {"linear", make<3>([](const T& x, const T& w, const T& b) { return ops::linear(x, w, b); })},
      {"linear_3d",
       make<3>([](const T& x, const T& w, const T& b) { return ops::linear(x, w, b); })},
      {"conv1d", make<3>([](const T& x, const T& w, const T& b) {
         return ops::conv1d(x, w, b, ops::conv_options{.stride = {2}, .padding = {1}});
       })},
      {"conv2d", make<3>([](const T& x, const T& w, const T& b) {
         return ops::conv2d(x, w, b, ops::conv_options{.stride = {2}, .padding = {1}});
       })},
      {"conv2d_groups", make<2>([](const T& x, const T& w) {
         return ops::conv2d(x, w, std::nullopt,
                            ops::conv_options{.padding = {2}, .dilation = {2}, .groups = 3});
       })},
      {"conv_transpose2d", make<3>([](const T& x, const T& w, const T& b) {
         return ops::conv_transpose2d(
             x, w, b, ops::conv_options{.stride = {2}, .padding = {1}, .output_padding = {1}});
       })},
      {"relu", make<1>([](const T& x) { return ops::relu(x); })},
      {"sigmoid", make<1>([](const T& x) { return ops::sigmoid(x); })},
      {"tanh", make<1>([](const T& x) { return ops::tanh(x); })},
      {"gelu", make<1>([](const T& x) { return ops::gelu(x); })},
      {"silu", make<1>([](const T& x) { return ops::silu(x); })},
      {"leaky_relu", make<1>([](const T& x) { return ops::leaky_relu(x, 0.2); })},
      {"hardswish", make<1>([](const T& x) { return ops::hardswish(x); })},
      {"softmax", make<1>([](const T& x) { return ops::softmax(x, std::int64_t{1}); })},
      {"log_softmax", make<1>([](const T& x) { return ops::log_softmax(x, std::int64_t{-1}); })},
      {"batch_norm", make<5>([](const T& x, const T& w, const T& b, const T& m, const T& v) {
         return ops::batch_norm(x, w, b, m, v, 1e-5);
       })},
      {"layer_norm", make<3>([](const T& x, const T& w, const T& b) {
         return ops::layer_norm(x, ints{4}, std::optional(w), std::optional(b), 1e-5);
       })},
      {"max_pool2d", make<1>([](const T& x) {
         return ops::max_pool2d(
             x, ops::pool_options{.kernel_size = {3}, .stride = {2}, .padding = {1}});
       })},
      {"avg_pool2d", make<1>([](const T& x) {
         return ops::avg_pool2d(x, ops::pool_options{.kernel_size = {2}, .stride = {2}});
       })},
      {"adaptive_avg_pool2d_1", make<1>([](const T& x) {
         return ops::adaptive_avg_pool2d(x, ints{1, 1});
       })},
      {"adaptive_avg_pool2d_2", make<1>([](const T& x) {
         return ops::adaptive_avg_pool2d(x, ints{2, 2});
       })},
      {"flatten", make<1>([](const T& x) { return ops::flatten(x, std::int64_t{1}); })},
      {"reshape", make<1>([](const T& x) {
         return ops::reshape(x, ints{2, -1});
       })},
      {"view", make<1>([](const T& x) {
         return ops::view(x, ints{6, 4});
       })},
      {"permute", make<1>([](const T& x) {
         return ops::permute(x, ints{2, 0, 1});
       })},
      {"transpose",
       make<1>([](const T& x) { return ops::transpose(x, std::int64_t{0}, std::int64_t{1}); })},
      {"squeeze", make<1>([](const T& x) { return ops::squeeze(x); })},
      {"squeeze_dim", make<1>([](const T& x) { return ops::squeeze(x, ints{2}); })},
      {"unsqueeze", make<1>([](const T& x) { return ops::unsqueeze(x, std::int64_t{1}); })},
      {"cat", make<2>([](const T& a, const T& b) {
         return ops::cat(std::vector{a, b}, std::int64_t{0});
       })},
      {"split", make<1>([](const T& x) {
         return ops::split(x, ints{1, 2}, std::int64_t{1});
       })},
      {"slice", make<1>([](const T& x) {
         return ops::slice(x, std::int64_t{1}, std::int64_t{1}, std::int64_t{3});
       })},
      {"gather",
       make<2>([](const T& x, const T& i) { return ops::gather(x, std::int64_t{1}, i); })},
      {"index_select",
       make<2>([](const T& x, const T& i) { return ops::index_select(x, std::int64_t{0}, i); })},
      {"expand", make<1>([](const T& x) {
         return ops::expand(x, ints{3, 4});
       })},
      {"repeat", make<1>([](const T& x) {
         return ops::repeat(x, ints{2, 1, 2});
       })},
      {"repeat_1d", make<1>([](const T& x) { return ops::repeat(x, ints{3}); })},
      {"pad", make<1>([](const T& x) {
         return ops::pad(x, ints{1, 2}, std::string("constant"), 0.5);
       })},
      {"pad_reflect", make<1>([](const T& x) {
         return ops::pad(x, ints{1, 1, 2, 0}, std::string("reflect"));
       })},
      {"interpolate_nearest", make<1>([](const T& x) {
         return ops::interpolate(x,
                                 ops::interpolate_options{.scale_factor = {2}, .mode = "nearest"});
       })},
      {"interpolate_bilinear", make<1>([](const T& x) {
         return ops::interpolate(x,
                                 ops::interpolate_options{.scale_factor = {2}, .mode = "bilinear"});
       })},
      {"interpolate_bicubic_size", make<1>([](const T& x) {
         return ops::interpolate(x, ops::interpolate_options{.size = {6, 7}, .mode = "bicubic"});
       })},
      {"interpolate_scales_input", make<2>([](const T& x, const T& s) {
         return ops::interpolate(x, s, std::string("bicubic"));
       })},
      {"sum", make<1>([](const T& x) {
         return ops::sum(x, ops::reduce_options{.dims = {1}, .keepdim = true});
       })},
      {"mean", make<1>([](const T& x) { return ops::mean(x, ops::reduce_options{.dims = {-1}}); })},
      {"amax", make<1>([](const T& x) { return ops::amax(x, ops::reduce_options{.dims = {0}}); })},
      {"where", make<3>([](const T& c, const T& a, const T& b) { return ops::where(c, a, b); })},
      {"clamp",
       make<1>([](const T& x) { return ops::clamp(x, std::optional(-0.5), std::optional(0.5)); })},
      {"cast", make<1>([](const T& x) { return ops::cast(x * 10.0, rx::dtype::i64); })},
      {"shape", make<1>([](const T& x) { return ops::shape(x); })},
  };
  return table;
}

class OpsOnOnnxRuntime : public ::testing::TestWithParam<std::string> {};

TEST_P(OpsOnOnnxRuntime, MatchesPytorch) {
  const auto name = GetParam();
  const auto folder = cases_dir / name;
  std::vector<retarget::input_spec> specs;
  std::map<std::string, fs::path> feeds;
  for (int i = 0; fs::exists(folder / ("in" + std::to_string(i) + ".pb")); ++i) {
    const auto file = folder / ("in" + std::to_string(i) + ".pb");
    const auto t = retarget::ir::read_tensor_file(file);
    const auto sizes = t.dims();
    const std::vector<rx::dim> dims(sizes.begin(), sizes.end());
    specs.push_back({"in" + std::to_string(i), t.type(), dims});
    feeds["in" + std::to_string(i)] = file;
  }
  auto result = cases().at(name)(specs);
  ASSERT_NO_THROW(result.model.check());
  const auto work =
      fs::temp_directory_path() / ("retarget-op-" + name + "-" + std::to_string(::getpid()));
  const auto outputs = ort::run(result.model, work, feeds);
  fs::remove_all(work);
  ASSERT_EQ(outputs.size(), static_cast<std::size_t>(result.model.graph().output_size()));
  // PyTorch's outputs are out0.pb, out1.pb, ...: an export that drops (or adds) an output must
  // fail here, not compare only the outputs it happened to produce.
  int references = 0;
  while (fs::exists(folder / ("out" + std::to_string(references) + ".pb"))) ++references;
  ASSERT_GT(references, 0) << name << " has no reference output";
  ASSERT_EQ(result.model.graph().output_size(), references)
      << name << ": the export has " << result.model.graph().output_size()
      << " outputs, PyTorch gave " << references;
  for (int i = 0; i < result.model.graph().output_size(); ++i) {
    const auto reference =
        retarget::ir::read_tensor_file(folder / ("out" + std::to_string(i) + ".pb"));
    const auto& actual = outputs.at(result.model.graph().output(i).name());
    const double error = ort::max_abs_error(actual, reference);
    std::cout << name << " output " << i << ": max abs error vs PyTorch " << error << "\n";
    EXPECT_LE(error, 1e-4) << name << " output " << i;
  }
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(cases_dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllOps, OpsOnOnnxRuntime, ::testing::ValuesIn(case_names()),
                         [](const auto& info) { return info.param; });

// Every case PyTorch has a reference for has a retarget side, and the other way round.
TEST(OpsOnOnnxRuntimeCases, CoverEachOther) {
  const auto names = case_names();
  EXPECT_EQ(names.size(), cases().size());
  for (const auto& n : names) EXPECT_TRUE(cases().count(n)) << n;
}

}  // namespace
