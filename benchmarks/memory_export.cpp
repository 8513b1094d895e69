// Peak memory of exporting a model with 1 GiB of weights to external data: 64 linear layers of
// 2048 x 2048 floats (16 MiB each), exported and saved with the weights in a .data file.
// The weights should go from the parameters to the file without a copy of them in the
// protobuf, so the process's peak resident set should stay near the weights' size.
// "deploy" takes the path of `retarget deploy`: a deploy config's export options (named
// dynamic axes of the input and the output), the model's check, then the save.
//
//   benchmark_memory_export OUT_DIR [export|deploy]
// prints one JSON line: the path taken, the weights' bytes, the resident set before the
// weights were made, the peak resident set of the whole process (VmHWM), and the export,
// check (deploy only) and save times.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <retarget/config.hpp>
#include <retarget/retarget.hpp>
#include <span>
#include <string>
#include <vector>

namespace {

namespace nn = retarget::nn;
using retarget::trace::tensor;

constexpr std::int64_t width = 2048;
constexpr int layers = 64;

// A field of /proc/self/status in bytes (VmRSS, VmHWM).
std::uint64_t status_bytes(const std::string& field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field + ":", 0) == 0) return std::stoull(line.substr(field.size() + 1)) * 1024;
  return 0;
}

struct stack : retarget::rewritable_module<stack, "Stack"> {
  std::vector<nn::Linear> linears;
  stack() {
    linears.reserve(layers);
    std::vector<float> values(static_cast<std::size_t>(width * width));
    std::uint32_t state = 12345;
    for (int i = 0; i < layers; ++i) {
      linears.emplace_back("layers." + std::to_string(i), width, width, false);
      for (auto& v : values) {  // xorshift: cheap values that are not all alike
        state ^= state << 13, state ^= state >> 17, state ^= state << 5;
        v = static_cast<float>(state) * 1e-12f;
      }
      linears.back().weight.assign(std::span<const float>(values));
    }
  }
  template <class B>
  tensor<B> forward(tensor<B> x) const {
    for (const auto& l : linears) x = l(x);
    return x;
  }
};

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[2] : "export";
  if ((argc != 2 && argc != 3) || (mode != "export" && mode != "deploy")) {
    std::fprintf(stderr, "usage: %s OUT_DIR [export|deploy]\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  auto path = dir / "memory_retarget.onnx";
  const auto baseline = status_bytes("VmRSS");
  const stack model;
  const auto weight_bytes = static_cast<std::uint64_t>(layers) * width * width * sizeof(float);

  using clock = std::chrono::steady_clock;
  clock::time_point start, exported, checked, saved;
  if (mode == "export") {
    start = clock::now();
    auto result = retarget::export_onnx<retarget::backends::onnxruntime>(
        model, {{"input", retarget::ir::dtype::f32, {1, width}}});
    exported = checked = clock::now();
    retarget::ir::save(result.model, path, {.external_data_threshold = 1024});
    saved = clock::now();
  } else {
    namespace config = retarget::config;
    std::ofstream(dir / "memory_deploy.json")
        << R"({"onnx_config": {"input_names": ["input"], "output_names": ["output"],
  "dynamic_axes": {"input": {"0": "batch"}, "output": {"0": "batch"}},
  "save_file": "memory_deploy.onnx"}, "backend_config": {"type": "onnxruntime"}})";
    const auto cfg = config::load_deploy_config(dir / "memory_deploy.json");
    path = dir / *cfg.onnx.save_file;
    start = clock::now();
    const retarget::input_spec specs[] = {
        config::input_spec_for(cfg, 0, 1, retarget::ir::dtype::f32, {1, width})};
    auto result = retarget::export_onnx<retarget::backends::onnxruntime>(
        model, specs, cfg, config::export_options_for(cfg));
    exported = clock::now();
    result.model.check();
    checked = clock::now();
    retarget::ir::save(result.model, path);  // as retarget deploy saves
    saved = clock::now();
  }

  // Saved as deploy saves, 1 GiB fits one file: the weights are inline, with no .data file.
  const auto data_file = path.string() + ".data";
  const auto data_bytes =
      std::filesystem::exists(data_file) ? std::filesystem::file_size(data_file) : 0;
  std::printf(
      "{\"peer\": \"retarget\", \"path\": \"%s\", \"weight_bytes\": %ju, \"baseline_rss\": %ju, "
      "\"peak_rss\": %ju, \"export_seconds\": %.6f, \"check_seconds\": %.6f, "
      "\"save_seconds\": %.6f, \"model_file_bytes\": %ju, \"data_file_bytes\": %ju}\n",
      mode.c_str(), static_cast<std::uintmax_t>(weight_bytes),
      static_cast<std::uintmax_t>(baseline), static_cast<std::uintmax_t>(status_bytes("VmHWM")),
      std::chrono::duration<double>(exported - start).count(),
      std::chrono::duration<double>(checked - exported).count(),
      std::chrono::duration<double>(saved - checked).count(),
      static_cast<std::uintmax_t>(std::filesystem::file_size(path)),
      static_cast<std::uintmax_t>(data_bytes));
}
