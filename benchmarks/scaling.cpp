// Export time per node for graphs of 1 k, 10 k and 100 k nodes: a model that applies a cycle
// of four ops (Relu, Add, Mul, Sigmoid, each one node) N / 4 times is exported (traced, every
// node checked and its shape inferred) and its file saved. The time per node should not grow
// with the graph. Prints the per-node times and the ratio of 100 k's to 1 k's.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <retarget/retarget.hpp>
#include <string>

namespace {

namespace bk = retarget::backends;
namespace ops = retarget::ops;
using retarget::trace::tensor;

struct chain : retarget::rewritable_module<chain, "Chain"> {
  std::int64_t nodes;
  explicit chain(std::int64_t n) : nodes(n) {}
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    auto y = x;
    for (std::int64_t i = 0; i < nodes / 4; ++i)
      y = ops::sigmoid(ops::mul(ops::add(ops::relu(y), x), x));
    return y;
  }
};

std::filesystem::path out_file() {
  const std::filesystem::path shm = "/dev/shm";
  const auto dir =
      std::filesystem::is_directory(shm) ? shm : std::filesystem::temp_directory_path();
  return dir / ("retarget_scaling_" + std::to_string(::getpid()) + ".onnx");
}

void export_chain(benchmark::State& state) {
  const chain model(state.range(0));
  const auto path = out_file();
  std::size_t nodes = 0;
  for (auto _ : state) {
    auto result =
        retarget::export_onnx<bk::onnxruntime>(model, {{"x", retarget::ir::dtype::f32, {1, 64}}});
    retarget::ir::save(result.model, path);
    nodes = static_cast<std::size_t>(result.model.graph().node_size());
  }
  std::filesystem::remove(path);
  state.counters["nodes"] = static_cast<double>(nodes);
}
BENCHMARK(export_chain)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(100000)
    ->Unit(benchmark::kMillisecond)
    ->MinTime(2.0);

// Prints microseconds per node for each size and the ratio of the largest to the smallest.
class per_node_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      if (r.run_type == Run::RT_Aggregate && r.aggregate_name != "median") continue;
      const auto it = r.counters.find("nodes");
      if (it != r.counters.end() && it->second.value > 0)
        per_node_[static_cast<long>(it->second.value)] =
            r.GetAdjustedRealTime() * 1000 / it->second.value;
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    if (per_node_.size() < 2) return;
    std::printf("\n");
    for (const auto& [n, us] : per_node_) std::printf("%7ld nodes: %.2f us per node\n", n, us);
    std::printf("per-node time, largest / smallest graph: %.2f\n",
                per_node_.rbegin()->second / per_node_.begin()->second);
  }

 private:
  std::map<long, double> per_node_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  per_node_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
}
