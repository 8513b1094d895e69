// What a rewritten call costs: the same work called directly, through retarget's static
// dispatch (a rewrite that forwards to its origin), and through a runtime registry of the
// kind dynamic rewriters use (a string-keyed map of std::function). Prints the ratios.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <functional>
#include <map>
#include <retarget/core.hpp>
#include <string>

namespace bk = retarget::backends;

namespace {

// Small enough that any dispatch overhead would show.
[[gnu::noinline]] double axpy(double a, double x, double y) { return a * x + y; }

inline constexpr struct axpy_fn : retarget::rewritable<axpy_fn, "axpy"> {
  double origin(double a, double x, double y) const { return axpy(a, x, y); }
} axpy_rewritable;

}  // namespace

template <>
struct retarget::function_rewrite<axpy_fn, bk::tensorrt> {
  static double call(const auto& ctx, double a, double x, double y) { return ctx.next(a, x, y); }
};
template <>
struct retarget::function_rewrite<axpy_fn> {
  static double call(const auto& ctx, double a, double x, double y) { return ctx.origin(a, x, y); }
};

namespace {

void direct(benchmark::State& state) {
  double y = 0;
  for (auto _ : state) {
    y = axpy(1.0000001, 0.5, y);
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(direct);

// tensorrt10 → tensorrt's rewrite → next → the default rewrite → origin: the longest path.
void rewritten(benchmark::State& state) {
  double y = 0;
  for (auto _ : state) {
    y = retarget::call<bk::tensorrt10>(axpy_rewritable, 1.0000001, 0.5, y);
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(rewritten);

void runtime_registry(benchmark::State& state) {
  std::map<std::string, std::function<double(double, double, double)>> registry{
      {"tensorrt/axpy", [](double a, double x, double y) { return axpy(a, x, y); }},
      {"onnxruntime/axpy", [](double a, double x, double y) { return axpy(a, x, y); }},
      {"opencv_dnn/axpy", [](double a, double x, double y) { return axpy(a, x, y); }},
      {"default/axpy", [](double a, double x, double y) { return axpy(a, x, y); }}};
  std::string backend = "tensorrt";
  benchmark::DoNotOptimize(backend);
  double y = 0;
  for (auto _ : state) {
    y = registry.at(backend + "/axpy")(1.0000001, 0.5, y);
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(runtime_registry);

// Reports the ratios of each run's mean time to the direct call's.
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) times_[r.benchmark_name()] = r.GetAdjustedRealTime();
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    const double d = times_["direct"];
    if (d <= 0) return;
    std::printf("\nrewritten / direct:        %.3f\n", times_["rewritten"] / d);
    std::printf("runtime registry / rewritten: %.1f\n",
                times_["runtime_registry"] / times_["rewritten"]);
  }

 private:
  std::map<std::string, double> times_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  ratio_reporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
}
