// What a rewritten call costs: the same work called directly, through retarget's static
// dispatch (a rewrite that forwards down the backend's chain to its origin), and through
// runtime registries of the kind dynamic rewriters use: rewrites looked up per call by function
// and backend names along a fallback chain, the same registry with the path resolved once and
// cached, and the least a registry can do: a function looked up by name once, then one
// indirect call per invocation. Prints the ratios (of medians, with --benchmark_repetitions).
//
// Every peer does the same work a call: its inputs are opaque to the compiler (read through
// volatile before the loop, so no value is folded into the callee), its result is kept
// (DoNotOptimize in the loop) and feeds the next call, the names a registry looks up are opaque
// (DoNotOptimize on the strings), and the function at the end of every path is the same
// out-of-line axpy, whose body the compiler cannot see through (noipa on GCC).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <functional>
#include <map>
#include <retarget/core.hpp>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

// Core knows no engine: the benchmark names its own, as a versioned engine and its base.
namespace bk {
struct tensorrt : retarget::backend_tag<"tensorrt"> {};
struct tensorrt10 : retarget::backend_tag<"tensorrt10", tensorrt> {};
}  // namespace bk

namespace {

// Small enough that any dispatch overhead would show. noipa: no caller learns anything of its
// body (clang has no noipa; the inputs are opaque anyway, so only inlining needs barring).
#if defined(__clang__)
#define OUT_OF_REACH gnu::noinline
#else
#define OUT_OF_REACH gnu::noipa
#endif
[[OUT_OF_REACH]] double axpy(double a, double x, double y) { return a * x + y; }

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

// The inputs of every call, read through volatile so the compiler cannot fold them into the
// callee. (benchmark::DoNotOptimize on a double that holds a constant lets GCC 12 drop the
// constant: its "+m,r" asm reads an uninitialised slot.)
struct inputs {
  double a, x;
  inputs() {
    const volatile double va = 1.0000001, vx = 0.5;
    a = va;
    x = vx;
  }
};

void direct(benchmark::State& state) {
  const inputs in;
  double y = 0;
  for (auto _ : state) {
    y = axpy(in.a, in.x, y);
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(direct);

// tensorrt10 → tensorrt's rewrite → next → the default rewrite → origin: the longest path.
void rewritten(benchmark::State& state) {
  const inputs in;
  double y = 0;
  for (auto _ : state) {
    y = retarget::call<bk::tensorrt10>(axpy_rewritable, in.a, in.x, y);
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(rewritten);

// A dynamic rewriter's registry, built at run time: rewrites keyed by (function name, backend
// name), each backend with its fallback chain, the origins keyed by function name. A call looks
// its rewrite up along the chain of the backend named at run time; a rewrite's `next` resumes
// the search down the chain. Filled with 64 functions for four backends, as a registry of a
// real converter holds many, and called on the same path as `rewritten`: tensorrt10 (no
// rewrite) -> tensorrt's rewrite -> next -> the default rewrite -> origin.
//
// `resolve` does those lookups once and caches their results: the path of (function, backend)
// as the rewrites it runs, in order, and the origin. A call through it looks nothing up; each
// step is one indirect call (std::function), as a registry that caches its dispatch makes.
class dynamic_registry {
 public:
  using args = std::tuple<double, double, double>;
  using origin_function = std::function<double(double, double, double)>;
  class resolved;
  struct call_state {
    const dynamic_registry* registry;
    const std::string* function;
    const std::vector<std::string>* chain;
    std::size_t position;
    const resolved* path = nullptr;  // set when the call runs a resolved path
    double next(double a, double x, double y) const {
      if (path) return path->step(position, a, x, y);
      return registry->call_from(*function, *chain, position, {a, x, y});
    }
    double origin(double a, double x, double y) const {
      if (path) return (*path->origin_)(a, x, y);
      return registry->origins_.at(*function)(a, x, y);
    }
  };
  using rewrite = std::function<double(const call_state&, double, double, double)>;

  class resolved {
   public:
    double operator()(double a, double x, double y) const { return step(0, a, x, y); }

   private:
    friend class dynamic_registry;
    double step(std::size_t i, double a, double x, double y) const {
      if (i == steps_.size()) return (*origin_)(a, x, y);
      return (*steps_[i])(call_state{nullptr, nullptr, nullptr, i + 1, this}, a, x, y);
    }
    std::vector<const rewrite*> steps_;
    const origin_function* origin_ = nullptr;
  };

  void add_backend(const std::string& name, std::vector<std::string> chain) {
    chains_[name] = std::move(chain);
  }
  void add_origin(const std::string& function, origin_function f) {
    origins_[function] = std::move(f);
  }
  void add_rewrite(const std::string& function, const std::string& backend, rewrite r) {
    rewrites_[{function, backend}] = std::move(r);
  }
  double call(const std::string& function, const std::string& backend, double a, double x,
              double y) const {
    return call_from(function, chains_.at(backend), 0, {a, x, y});
  }
  // Valid while the registry lives and gains no entry.
  resolved resolve(const std::string& function, const std::string& backend) const {
    resolved r;
    for (const auto& b : chains_.at(backend))
      if (const auto it = rewrites_.find({function, b}); it != rewrites_.end())
        r.steps_.push_back(&it->second);
    r.origin_ = &origins_.at(function);
    return r;
  }

 private:
  struct key_hash {
    std::size_t operator()(const std::pair<std::string, std::string>& k) const noexcept {
      return std::hash<std::string>()(k.first) * 31 + std::hash<std::string>()(k.second);
    }
  };
  double call_from(const std::string& function, const std::vector<std::string>& chain,
                   std::size_t from, args a) const {
    for (std::size_t i = from; i < chain.size(); ++i)
      if (const auto it = rewrites_.find({function, chain[i]}); it != rewrites_.end())
        return it->second(call_state{this, &function, &chain, i + 1}, std::get<0>(a),
                          std::get<1>(a), std::get<2>(a));
    return origins_.at(function)(std::get<0>(a), std::get<1>(a), std::get<2>(a));
  }

  std::unordered_map<std::string, std::vector<std::string>> chains_;
  std::unordered_map<std::pair<std::string, std::string>, rewrite, key_hash> rewrites_;
  std::unordered_map<std::string, origin_function> origins_;
};

dynamic_registry make_registry() {
  dynamic_registry r;
  r.add_backend("tensorrt10", {"tensorrt10", "tensorrt", "default"});
  r.add_backend("tensorrt", {"tensorrt", "default"});
  r.add_backend("onnxruntime", {"onnxruntime", "default"});
  r.add_backend("opencv_dnn", {"opencv_dnn", "default"});
  for (int i = 0; i < 64; ++i) {
    const std::string f = i == 0 ? "axpy" : "function_" + std::to_string(i);
    r.add_origin(f, [](double a, double x, double y) { return axpy(a, x, y); });
    r.add_rewrite(f, "tensorrt",
                  [](const auto& c, double a, double x, double y) { return c.next(a, x, y); });
    r.add_rewrite(f, "opencv_dnn",
                  [](const auto& c, double a, double x, double y) { return c.next(a, x, y); });
    r.add_rewrite(f, "default",
                  [](const auto& c, double a, double x, double y) { return c.origin(a, x, y); });
  }
  return r;
}

// Every call looks its path up by names.
void runtime_registry(benchmark::State& state) {
  const auto registry = make_registry();
  std::string function = "axpy", backend = "tensorrt10";  // names known at run time only
  benchmark::DoNotOptimize(function);
  benchmark::DoNotOptimize(backend);
  const inputs in;
  double y = 0;
  for (auto _ : state) {
    y = registry.call(function, backend, in.a, in.x, y);
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(runtime_registry);

// The same registry and path, looked up once before the loop: each call runs the cached steps,
// three indirect calls (tensorrt's rewrite, the default rewrite, the origin).
void cached_registry(benchmark::State& state) {
  const auto registry = make_registry();
  std::string function = "axpy", backend = "tensorrt10";
  benchmark::DoNotOptimize(function);
  benchmark::DoNotOptimize(backend);
  const auto path = registry.resolve(function, backend);
  const inputs in;
  double y = 0;
  for (auto _ : state) {
    y = path(in.a, in.x, y);
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(cached_registry);

// A string-keyed map of std::function, as the two peers below share it.
std::map<std::string, std::function<double(double, double, double)>> flat_registry() {
  return {{"tensorrt/axpy", [](double a, double x, double y) { return axpy(a, x, y); }},
          {"onnxruntime/axpy", [](double a, double x, double y) { return axpy(a, x, y); }},
          {"opencv_dnn/axpy", [](double a, double x, double y) { return axpy(a, x, y); }},
          {"default/axpy", [](double a, double x, double y) { return axpy(a, x, y); }}};
}

// The least a string-keyed registry can do per call: one map lookup of a key built per call
// and one std::function call, no fallback chain.
void single_lookup(benchmark::State& state) {
  const auto registry = flat_registry();
  std::string backend = "tensorrt";
  benchmark::DoNotOptimize(backend);
  const inputs in;
  double y = 0;
  for (auto _ : state) {
    y = registry.at(backend + "/axpy")(in.a, in.x, y);
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(single_lookup);

// The least any runtime registry can do: the function looked up once, before the loop, then
// one indirect call (std::function) per invocation.
void cached_lookup(benchmark::State& state) {
  const auto registry = flat_registry();
  std::string backend = "tensorrt";
  benchmark::DoNotOptimize(backend);
  const auto& function = registry.at(backend + "/axpy");
  const inputs in;
  double y = 0;
  for (auto _ : state) {
    y = function(in.a, in.x, y);
    benchmark::DoNotOptimize(y);
  }
}
BENCHMARK(cached_lookup);

// Reports the ratios of the CPU times per call (the medians, when repeated).
class ratio_reporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs)
      if (r.run_type == Run::RT_Iteration || r.aggregate_name == "median")
        times_[r.run_name.function_name] = r.GetAdjustedCPUTime();
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    const double d = times_["direct"];
    if (d <= 0) return;
    std::printf("\nrewritten / direct:                      %.3f\n", times_["rewritten"] / d);
    std::printf("runtime registry / rewritten:            %.1f\n",
                times_["runtime_registry"] / times_["rewritten"]);
    std::printf("single string-map lookup / rewritten:    %.1f\n",
                times_["single_lookup"] / times_["rewritten"]);
    std::printf("cached registry path / rewritten:        %.2f\n",
                times_["cached_registry"] / times_["rewritten"]);
    std::printf("cached lookup, one call / rewritten:     %.2f\n",
                times_["cached_lookup"] / times_["rewritten"]);
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
