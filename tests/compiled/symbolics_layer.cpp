// The op library's symbolics in a unit linked with retarget::compiled, called as a user calls
// them (nn modules, ops, a traced tensor's operators): the exported nodes and the symbolics'
// own errors are those of header-only use. layers.compiled_once_symbolics reads this unit's
// object: each symbolic it names is called here, and none of the symbolics' bodies may be
// compiled in it.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <retarget/core/error.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/trace.hpp>
#include <string>
#include <vector>

namespace {

namespace nn = retarget::nn;
namespace ops = retarget::ops;
namespace rx = retarget::ir;
using T = retarget::trace::tensor<retarget::default_backend>;

std::string op_types(const rx::model& m) {
  std::string out;
  for (const auto& n : m.nodes()) out += (out.empty() ? "" : " ") + n.op_type();
  return out;
}

struct small_net : retarget::rewritable_module<small_net, "SmallNet"> {
  nn::Conv2d conv{"conv", 3, 4, {3, 3}, {.padding = {1}}};
  nn::Upsample up{{.scale_factor = {2}, .mode = "bilinear"}};

  template <class B>
  retarget::trace::tensor<B> forward(const retarget::trace::tensor<B>& x) const {
    const auto y = up(ops::relu(conv(x)));            // 1x4x8x8 → 1x4x16x16
    const auto p = ops::softmax(y, std::int64_t{1});  // over the channels
    const auto c = ops::clamp(ops::cat(std::vector{p, y}, std::int64_t{1}), std::optional(0.0),
                              std::optional(1.0));
    return ops::sum(ops::pad(c, ops::ints{1, 1}) * 2.0,
                    ops::reduce_options{.dims = {1}, .keepdim = true});
  }
};

TEST(CompiledSymbolics, ExportTheNodesOfHeaderOnlyUse) {
  const small_net net;
  const auto at = [&](int opset) {
    return retarget::export_onnx<retarget::default_backend>(
        net, {{"x", rx::dtype::f32, {1, 3, 4, 4}}}, retarget::no_config{}, {.opset = opset});
  };
  auto m17 = at(17).model;
  EXPECT_NO_THROW(m17.check());
  EXPECT_EQ(op_types(m17),
            "Conv Relu Constant Resize Softmax Concat Constant Constant Clip Constant "
            "Constant Pad Constant Mul Constant ReduceSum");
  // Softmax over a dim other than the last before opset 13: moved last and back.
  auto m11 = at(11).model;
  EXPECT_NO_THROW(m11.check());
  EXPECT_EQ(op_types(m11),
            "Conv Relu Constant Constant Resize Transpose Softmax Transpose Concat "
            "Constant Constant Clip Constant Constant Pad Constant Mul ReduceSum");
}

TEST(CompiledSymbolics, RefuseAWeightThatDoesNotFitTheInput) {
  const nn::Conv2d conv{"conv", 3, 4, {3, 3}};
  try {
    (void)retarget::export_onnx<retarget::default_backend>(conv,
                                                           {{"x", rx::dtype::f32, {1, 5, 4, 4}}});
    FAIL() << "a 5-channel input took a 3-channel weight";
  } catch (const retarget::error& e) {
    EXPECT_NE(std::string(e.what()).find("conv: the input 'x' [1, 5, 4, 4] has 5 channels"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)retarget::export_onnx<retarget::default_backend>(
                   [](const T& x) {
                     return ops::interpolate(x, ops::interpolate_options{.scale_factor = {2}});
                   },
                   {{"x", rx::dtype::f32, {1, 3, 4, 4}}}, retarget::no_config{}, {.opset = 10}),
               retarget::error);
}

}  // namespace
