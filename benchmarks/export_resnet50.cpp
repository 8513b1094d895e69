// Exports ResNet-50 (benchmarks/resnet50.hpp) to an ONNX file, as the driver's peers do with
// torch.onnx.export, onnx.helper and a hand-written protobuf program, and prints the times.
//
//   benchmark_export_resnet50 OUT_DIR RUNS
// prints one JSON line: the time of every run (the first one apart: a cold start) and of its
// save alone, the node count and the file size. A run is export_onnx + save, from the model
// built with its weights to the file written.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "resnet50.hpp"

namespace bk = retarget::backends;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR RUNS\n", argv[0]);
    return 2;
  }
  const std::filesystem::path out = std::filesystem::path(argv[1]) / "resnet50_retarget.onnx";
  const int runs = std::atoi(argv[2]);
  const resnet::ResNet50 model;

  std::vector<double> times, save_times;
  int nodes = 0;
  for (int i = 0; i < runs + 1; ++i) {
    const auto start = std::chrono::steady_clock::now();
    auto result = retarget::export_onnx<bk::onnxruntime>(
        model, {{"input", retarget::ir::dtype::f32, {1, 3, 224, 224}}}, {},
        {.output_names = {"output"}});
    const auto exported = std::chrono::steady_clock::now();
    retarget::ir::save(result.model, out);
    const auto saved = std::chrono::steady_clock::now();
    times.push_back(std::chrono::duration<double>(saved - start).count());
    save_times.push_back(std::chrono::duration<double>(saved - exported).count());
    nodes = result.model.proto_without_shared_bytes().graph().node_size();
  }
  const auto list = [](const std::vector<double>& v) {
    for (std::size_t i = 1; i < v.size(); ++i) std::printf("%s%.6f", i > 1 ? ", " : "", v[i]);
  };
  std::printf("{\"peer\": \"retarget\", \"first\": %.6f, \"times\": [", times[0]);
  list(times);
  std::printf("], \"save_times\": [");
  list(save_times);
  std::printf("], \"nodes\": %d, \"parameters\": %zu, \"file_bytes\": %ju}\n", nodes,
              model.parameter_count(),
              static_cast<std::uintmax_t>(std::filesystem::file_size(out)));
}
