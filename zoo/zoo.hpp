// The model zoo: the tutorial models, with PyTorch's weights, a test input and PyTorch's
// outputs (zoo/NAME/, from tools/make_srcnn_reference.py). `retarget deploy --model NAME`
// draws from it, and the tests that run the tutorial model on real engines use it too.
#ifndef RETARGET_ZOO_ZOO_HPP
#define RETARGET_ZOO_ZOO_HPP

#include <cstdlib>
#include <filesystem>
#include <map>
#include <retarget/retarget.hpp>
#include <string>
#include <string_view>

namespace zoo {

namespace fs = std::filesystem;

// Where the weights and references are: $RETARGET_ZOO_DIR, else this folder (RETARGET_ZOO_DIR
// names it at build time).
inline fs::path data_dir() {
  if (const char* dir = std::getenv("RETARGET_ZOO_DIR"); dir && *dir) return dir;
  return RETARGET_ZOO_DIR;
}

// SRCNN as in the seeds: an upsampler, then conv 9x9 64, relu, conv 1x1 32, relu, conv 5x5 3.
struct srcnn : retarget::rewritable_module<srcnn, "SRCNN"> {
  retarget::nn::Upsample img_upsampler{{.scale_factor = {3}, .mode = "bicubic"}};
  retarget::nn::Conv2d conv1{"conv1", 3, 64, {9, 9}, {.padding = {4}}};
  retarget::nn::Conv2d conv2{"conv2", 64, 32, {1, 1}};
  retarget::nn::Conv2d conv3{"conv3", 32, 3, {5, 5}, {.padding = {2}}};
  retarget::nn::ReLU relu;

  explicit srcnn(const fs::path& weights = data_dir() / "srcnn") {
    for (auto* c : {&conv1, &conv2, &conv3}) {
      c->weight.load(weights / (c->weight.name() + ".pb"));
      c->bias->load(weights / (c->bias->name() + ".pb"));
    }
  }
  // The features before the last convolution are marked: a deploy config's partition_config
  // can end the backend's part there (configs/super-resolution/*_partition.json).
  template <class B>
  retarget::trace::tensor<B> forward(const retarget::trace::tensor<B>& x) const {
    const auto features = relu(conv2(relu(conv1(img_upsampler(x)))));
    return conv3(retarget::trace::mark(features, "features"));
  }
};

// A zoo entry: the model, its task, its test inputs (name → file) and the reference output
// PyTorch gave for the model as exported (a rewrite may change the model: opencv_dnn's
// turns the bicubic upsampler into a bilinear one, and PyTorch's bilinear model is the
// reference then).
struct srcnn_entry {
  static constexpr std::string_view name = "srcnn";
  static constexpr std::string_view task = "SuperResolution";
  static constexpr std::string_view description =
      "SRCNN, x3 bicubic upsampler (the tutorial model of seed 004)";
  using model = srcnn;
  static constexpr std::size_t input_count = 1;

  static std::map<std::string, fs::path> test_inputs() {
    return {{"input", data_dir() / "srcnn/input.pb"}};
  }
  static fs::path reference(const retarget::rewrite_log& report) {
    for (const auto& r : report.records())
      if (r.kind == retarget::rewrite_kind::module && r.target == "Upsample" &&
          r.rewrite != "default")
        return data_dir() / "srcnn/output_bilinear.pb";
    return data_dir() / "srcnn/output_bicubic.pb";
  }
};

using entries = boost::mp11::mp_list<srcnn_entry>;

}  // namespace zoo

#endif  // RETARGET_ZOO_ZOO_HPP
