// torchvision's ResNet-50 (v1.5: the stride in the 3x3 convolution), written with retarget's
// modules: the same layers, shapes and 25,557,032 parameters, filled with random values
// (batch-norm statistics too, so no two folded biases are alike).
//
// torch.onnx.export folds each batch norm into the convolution before it when exporting for
// inference. Here that fold is a module rewrite of the (convolution, batch norm) pair: every
// pair in the model exports as one Conv whose weights are computed at export time, so the
// exported graph is the one torch writes: 53 Conv, 49 Relu, 16 Add, a MaxPool, a
// GlobalAveragePool, a Flatten and a Gemm.
#ifndef RETARGET_BENCHMARKS_RESNET50_HPP
#define RETARGET_BENCHMARKS_RESNET50_HPP

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <retarget/retarget.hpp>
#include <span>
#include <string>
#include <vector>

namespace resnet {

namespace nn = retarget::nn;
namespace ops = retarget::ops;
namespace rx = retarget::ir;
using retarget::trace::tensor;

// Deterministic values in [lo, hi), for a parameter of any shape.
inline void randomize(nn::parameter& p, std::mt19937& rng, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> values(static_cast<std::size_t>(rx::element_count(p.dims())));
  for (auto& v : values) v = dist(rng);
  p.assign(std::span<const float>(values));
}

// A convolution without bias followed by its batch norm, as torchvision's blocks pair them.
struct ConvBn : retarget::rewritable_module<ConvBn, "ConvBn"> {
  nn::Conv2d conv;
  nn::BatchNorm2d bn;
  ConvBn(const std::string& conv_name, const std::string& bn_name, std::int64_t in,
         std::int64_t out, std::int64_t kernel, std::int64_t stride, std::int64_t padding,
         std::mt19937& rng)
      : conv(conv_name, in, out, {kernel, kernel}, {.stride = {stride}, .padding = {padding}},
             false),
        bn(bn_name, out) {
    const float bound = 1.0f / std::sqrt(static_cast<float>(in * kernel * kernel));
    randomize(conv.weight, rng, -bound, bound);
    randomize(bn.weight, rng, 0.5f, 1.5f);
    randomize(bn.bias, rng, -0.1f, 0.1f);
    randomize(bn.running_mean, rng, -0.1f, 0.1f);
    randomize(bn.running_var, rng, 0.5f, 1.5f);
  }
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return bn(conv(x));
  }
};

// The fold, as torch does it for inference: w' = w * g / sqrt(var + eps), b' = beta - mean * g /
// sqrt(var + eps). The folded tensors are new buffers the exported model shares.
struct folded_conv_bn {
  const ConvBn& m;
  folded_conv_bn(const ConvBn& module, const retarget::trace::config_ref&) : m(module) {}

  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    const auto& dims = m.conv.weight.dims();
    const auto out = static_cast<std::size_t>(dims[0]);
    const auto per_channel = static_cast<std::size_t>(rx::element_count(dims)) / out;
    const float* w = floats(m.conv.weight);
    const float *gamma = floats(m.bn.weight), *beta = floats(m.bn.bias);
    const float *mean = floats(m.bn.running_mean), *var = floats(m.bn.running_var);

    onnx::TensorProto weight, bias;
    float* fw = start(weight, dims, out * per_channel);
    float* fb = start(bias, {dims[0]}, out);
    for (std::size_t c = 0; c < out; ++c) {
      const float scale = gamma[c] / std::sqrt(var[c] + static_cast<float>(m.bn.eps));
      for (std::size_t i = c * per_channel; i < (c + 1) * per_channel; ++i) fw[i] = w[i] * scale;
      fb[c] = beta[c] - mean[c] * scale;
    }
    const auto folded_weight = share(x, m.conv.weight.name(), std::move(weight));
    const auto folded_bias = share(x, m.bn.bias.name(), std::move(bias));
    return ops::conv2d(x, folded_weight, std::optional(folded_bias), m.conv.options);
  }

 private:
  static const float* floats(const nn::parameter& p) {
    return reinterpret_cast<const float*>(p.data().proto().raw_data().data());
  }
  // A float tensor of these dims whose bytes are written in place.
  static float* start(onnx::TensorProto& t, const rx::dims_t& dims, std::size_t count) {
    t.set_data_type(static_cast<int>(rx::dtype::f32));
    for (auto d : dims) t.add_dims(d);
    t.mutable_raw_data()->resize(count * sizeof(float));
    return reinterpret_cast<float*>(t.mutable_raw_data()->data());
  }
  template <class B>
  static tensor<B> share(const tensor<B>& x, const std::string& name, onnx::TensorProto t) {
    auto data = std::make_shared<const rx::tensor>(std::move(t));
    auto& s = x.owner();
    const void* key = data.get();  // alive as long as the graph shares it
    return {s, s.parameter(key, name, std::move(data))};
  }
};

struct Bottleneck : retarget::rewritable_module<Bottleneck, "Bottleneck"> {
  ConvBn a, b, c;
  std::optional<ConvBn> downsample;
  nn::ReLU relu;

  Bottleneck(const std::string& name, std::int64_t in, std::int64_t width, std::int64_t stride,
             std::mt19937& rng)
      : a(name + ".conv1", name + ".bn1", in, width, 1, 1, 0, rng),
        b(name + ".conv2", name + ".bn2", width, width, 3, stride, 1, rng),
        c(name + ".conv3", name + ".bn3", width, width * 4, 1, 1, 0, rng) {
    if (stride != 1 || in != width * 4)
      downsample.emplace(name + ".downsample.0", name + ".downsample.1", in, width * 4, 1, stride,
                         0, rng);
  }
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    const auto y = c(relu(b(relu(a(x)))));
    return relu(y + (downsample ? (*downsample)(x) : x));
  }
};

struct ResNet50 : retarget::rewritable_module<ResNet50, "ResNet50"> {
  std::mt19937 rng{2024};
  ConvBn stem{"conv1", "bn1", 3, 64, 7, 2, 3, rng};
  nn::ReLU relu;
  nn::MaxPool2d maxpool{{.kernel_size = {3, 3}, .stride = {2, 2}, .padding = {1, 1}}};
  std::vector<Bottleneck> blocks;
  nn::Linear fc{"fc", 2048, 1000};

  ResNet50() {
    std::int64_t in = 64;
    const std::int64_t widths[] = {64, 128, 256, 512}, counts[] = {3, 4, 6, 3};
    for (int layer = 0; layer < 4; ++layer)
      for (std::int64_t i = 0; i < counts[layer]; ++i) {
        const std::string name = "layer" + std::to_string(layer + 1) + "." + std::to_string(i);
        blocks.emplace_back(name, in, widths[layer], i == 0 && layer > 0 ? 2 : 1, rng);
        in = widths[layer] * 4;
      }
    randomize(fc.weight, rng, -0.02f, 0.02f);
    randomize(*fc.bias, rng, -0.02f, 0.02f);
  }
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    auto y = maxpool(relu(stem(x)));
    for (const auto& block : blocks) y = block(y);
    return fc(ops::flatten(ops::adaptive_avg_pool2d(y, {1, 1}), 1));
  }

  std::size_t parameter_count() const {
    std::size_t n = 0;
    const auto add = [&](const nn::parameter& p) {
      n += static_cast<std::size_t>(rx::element_count(p.dims()));
    };
    const auto add_pair = [&](const ConvBn& p) {
      add(p.conv.weight), add(p.bn.weight), add(p.bn.bias);  // torch counts no running stats
    };
    add_pair(stem);
    for (const auto& b : blocks) {
      add_pair(b.a), add_pair(b.b), add_pair(b.c);
      if (b.downsample) add_pair(*b.downsample);
    }
    add(fc.weight), add(*fc.bias);
    return n;
  }
};

}  // namespace resnet

template <>
struct retarget::module_rewrite<resnet::ConvBn> : retarget::wrap_with<resnet::folded_conv_bn> {};

#endif  // RETARGET_BENCHMARKS_RESNET50_HPP
