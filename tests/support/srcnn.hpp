// The tutorial model with PyTorch's weights (tests/data/srcnn, from
// tools/make_srcnn_reference.py), shared by the tests that run it on real backends.
#ifndef RETARGET_TESTS_SUPPORT_SRCNN_HPP
#define RETARGET_TESTS_SUPPORT_SRCNN_HPP

#include <retarget/retarget.hpp>

#include "support/ort.hpp"

namespace tutorial {

inline const std::filesystem::path data = ort::source_dir() / "tests/data/srcnn";

// SRCNN as in the seeds: an upsampler, then conv 9x9 64, relu, conv 1x1 32, relu, conv 5x5 3.
struct srcnn : retarget::rewritable_module<srcnn, "SRCNN"> {
  retarget::nn::Upsample img_upsampler{{.scale_factor = {3}, .mode = "bicubic"}};
  retarget::nn::Conv2d conv1{"conv1", 3, 64, {9, 9}, {.padding = {4}}};
  retarget::nn::Conv2d conv2{"conv2", 64, 32, {1, 1}};
  retarget::nn::Conv2d conv3{"conv3", 32, 3, {5, 5}, {.padding = {2}}};
  retarget::nn::ReLU relu;

  srcnn() {
    for (auto* c : {&conv1, &conv2, &conv3}) {
      c->weight.load(data / (c->weight.name() + ".pb"));
      c->bias->load(data / (c->bias->name() + ".pb"));
    }
  }
  template <class B>
  retarget::trace::tensor<B> forward(const retarget::trace::tensor<B>& x) const {
    return conv3(relu(conv2(relu(conv1(img_upsampler(x))))));
  }
};

}  // namespace tutorial

#endif  // RETARGET_TESTS_SUPPORT_SRCNN_HPP
