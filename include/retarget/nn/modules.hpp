// Modules with parameters, as torch.nn has them. Each is a rewritable module, so a
// module_rewrite replaces every instance of its type when exporting for a backend.
// Parameters become initializers once per export; weights load from raw buffers or from
// ONNX TensorProto files.
//
//   nn::Conv2d conv1("conv1", 3, 64, {9, 9}, {.padding = {4, 4}});
//   conv1.weight.load("conv1.weight.pb");
#ifndef RETARGET_NN_MODULES_HPP
#define RETARGET_NN_MODULES_HPP

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <retarget/core/module.hpp>
#include <retarget/nn/parameter.hpp>
#include <retarget/nn/upsample.hpp>
#include <retarget/ops/functions.hpp>
#include <retarget/trace/tensor.hpp>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace retarget::nn {

using retarget::rewritable_module;

using trace::ints;
using trace::tensor;

namespace detail {
inline std::string join(const std::string& prefix, const char* leaf) {
  return prefix.empty() ? leaf : prefix + "." + leaf;
}
}  // namespace detail

struct Conv2d : rewritable_module<Conv2d, "Conv2d"> {
  ops::conv_options options;
  parameter weight;
  std::optional<parameter> bias;

  Conv2d(const std::string& name, std::int64_t in, std::int64_t out, ints kernel,
         ops::conv_options o = {}, bool with_bias = true)
      : options(std::move(o)),
        weight(detail::join(name, "weight"),
               {out, in / options.groups, kernel.at(0), kernel.at(1)}) {
    if (with_bias) bias.emplace(detail::join(name, "bias"), ir::dims_t{out});
  }
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::conv2d(x, weight.in(x), bias ? std::optional(bias->in(x)) : std::nullopt, options);
  }
};

struct ConvTranspose2d : rewritable_module<ConvTranspose2d, "ConvTranspose2d"> {
  ops::conv_options options;
  parameter weight;
  std::optional<parameter> bias;

  ConvTranspose2d(const std::string& name, std::int64_t in, std::int64_t out, ints kernel,
                  ops::conv_options o = {}, bool with_bias = true)
      : options(std::move(o)),
        weight(detail::join(name, "weight"),
               {in, out / options.groups, kernel.at(0), kernel.at(1)}) {
    if (with_bias) bias.emplace(detail::join(name, "bias"), ir::dims_t{out});
  }
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::conv_transpose2d(x, weight.in(x), bias ? std::optional(bias->in(x)) : std::nullopt,
                                 options);
  }
};

struct Linear : rewritable_module<Linear, "Linear"> {
  parameter weight;
  std::optional<parameter> bias;
  Linear(const std::string& name, std::int64_t in, std::int64_t out, bool with_bias = true)
      : weight(detail::join(name, "weight"), {out, in}) {
    if (with_bias) bias.emplace(detail::join(name, "bias"), ir::dims_t{out});
  }
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::linear(x, weight.in(x), bias ? std::optional(bias->in(x)) : std::nullopt);
  }
};

struct BatchNorm2d : rewritable_module<BatchNorm2d, "BatchNorm2d"> {
  parameter weight, bias, running_mean, running_var;
  double eps, momentum;
  BatchNorm2d(const std::string& name, std::int64_t features, double eps_ = 1e-5,
              double momentum_ = 0.1)
      : weight(detail::join(name, "weight"), {features}),
        bias(detail::join(name, "bias"), {features}),
        running_mean(detail::join(name, "running_mean"), {features}),
        running_var(detail::join(name, "running_var"), {features}),
        eps(eps_),
        momentum(momentum_) {
    const std::vector<float> ones(static_cast<std::size_t>(features), 1.0f);
    weight.assign(std::span<const float>(ones));
    running_var.assign(std::span<const float>(ones));
  }
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::batch_norm(x, weight.in(x), bias.in(x), running_mean.in(x), running_var.in(x), eps,
                           momentum);
  }
};

struct LayerNorm : rewritable_module<LayerNorm, "LayerNorm"> {
  ints normalized_shape;
  parameter weight, bias;
  double eps;
  LayerNorm(const std::string& name, ints shape, double eps_ = 1e-5)
      : normalized_shape(shape),
        weight(detail::join(name, "weight"), shape),
        bias(detail::join(name, "bias"), shape),
        eps(eps_) {
    const std::vector<float> ones(static_cast<std::size_t>(ir::element_count(shape)), 1.0f);
    weight.assign(std::span<const float>(ones));
  }
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::layer_norm(x, normalized_shape, std::optional(weight.in(x)),
                           std::optional(bias.in(x)), eps);
  }
};

// Activations: a module per function.
#define RETARGET_ACTIVATION(Name, fn)             \
  struct Name : rewritable_module<Name, #Name> {  \
    template <class B>                            \
    tensor<B> forward(const tensor<B>& x) const { \
      return ops::fn(x);                          \
    }                                             \
  };
RETARGET_ACTIVATION(ReLU, relu)
RETARGET_ACTIVATION(Sigmoid, sigmoid)
RETARGET_ACTIVATION(Tanh, tanh)
RETARGET_ACTIVATION(GELU, gelu)
RETARGET_ACTIVATION(SiLU, silu)
RETARGET_ACTIVATION(Hardswish, hardswish)
#undef RETARGET_ACTIVATION

struct LeakyReLU : rewritable_module<LeakyReLU, "LeakyReLU"> {
  double negative_slope;
  explicit LeakyReLU(double slope = 0.01) : negative_slope(slope) {}
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::leaky_relu(x, negative_slope);
  }
};

struct MaxPool2d : rewritable_module<MaxPool2d, "MaxPool2d"> {
  ops::pool_options options;
  explicit MaxPool2d(ops::pool_options o) : options(std::move(o)) {}
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::max_pool2d(x, options);
  }
};

struct AvgPool2d : rewritable_module<AvgPool2d, "AvgPool2d"> {
  ops::pool_options options;
  explicit AvgPool2d(ops::pool_options o) : options(std::move(o)) {}
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return ops::avg_pool2d(x, options);
  }
};

// Upsample: nn/upsample.hpp.

// Identity in export, as in eval mode.
struct Dropout : rewritable_module<Dropout, "Dropout"> {
  double p;
  explicit Dropout(double p_ = 0.5) : p(p_) {}
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return x;
  }
};

// Runs its modules in order; each is called as a module, so its rewrites apply.
template <class... Modules>
struct Sequential : rewritable_module<Sequential<Modules...>, "Sequential"> {
  std::tuple<Modules...> modules;
  explicit Sequential(Modules... ms) : modules(std::move(ms)...) {}
  template <class B>
  tensor<B> forward(tensor<B> x) const {
    std::apply([&](const auto&... m) { ((x = m(x)), ...); }, modules);
    return x;
  }
};

}  // namespace retarget::nn

#endif  // RETARGET_NN_MODULES_HPP
