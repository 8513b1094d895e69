// A program outside the project that uses retarget as a user would: a rewrite for an engine
// of the shipped packages, and, when ONNX Runtime is installed, a model run on it through the
// worker that came with retarget (no RETARGET_ORT_DIR: the package says where it is).
#include <cstdio>
#include <cstdlib>
#include <retarget/retarget.hpp>

inline constexpr struct twice_fn : retarget::rewritable<twice_fn, "twice"> {
  int origin(int x) const { return 2 * x; }
} twice;

template <>
struct retarget::function_rewrite<twice_fn, retarget::backends::tensorrt> {
  static int call(const auto& ctx, int x) { return ctx.origin(x) + 1; }
};

int run_on_onnxruntime() {
  using manager = retarget::backends::onnxruntime_manager;
  if (std::getenv("RETARGET_ORT_DIR")) {
    std::printf("RETARGET_ORT_DIR is set: this check is about finding the worker without it\n");
    return 1;
  }
  if (!manager::is_available()) {
    std::printf("onnxruntime: %s\n", manager::check_env().c_str());
    return 1;
  }
  namespace rx = retarget::ir;
  rx::graph g(13);
  const auto x = g.input("x", rx::dtype::f32, {2});
  g.output(g.op("Relu", x), "y");
  auto model = rx::make_model(std::move(g));
  rx::save(model, "relu.onnx");
  auto session = manager::build_wrapper({"relu.onnx"}, {});
  const float in[] = {-1.5f, 2.5f};
  const auto y = session.run({{"x", rx::tensor::of(std::vector<float>(in, in + 2), {2})}}).at("y");
  const auto values = rx::values_as_double(y);
  std::printf("onnxruntime (worker from %s): relu(-1.5, 2.5) = %g, %g\n",
              manager::runtime_dir().c_str(), values[0], values[1]);
  return values == std::vector<double>{0, 2.5} ? 0 : 1;
}

int main() {
  const int plain = twice(20);
  const int trt = retarget::call<retarget::backends::tensorrt10>(twice, 20);
  std::printf("twice: %d, for tensorrt10: %d\n", plain, trt);
  if (plain != 40 || trt != 41) return 1;
  return run_on_onnxruntime();
}
