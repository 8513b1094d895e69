// Tutorial 09: a downstream converter.
//
// A converter reads a model in some source format — here a JSON list of layers, with weights in
// TensorProto files — and maps each layer to ops by its type name. The names come from a file,
// so the mapping is a string-keyed table; the table is built by the compiler from a list of
// mapping types (a compile-time registry), one table per backend, so a layer's mapping can be
// rewritten for a backend like any other function. The backend is chosen by name on the
// command line and turned into a type once.
//
//   example_09_converter [backend...]     (default: onnxruntime opencv_dnn)
#include <boost/json.hpp>
#include <boost/mp11/list.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <opencv2/core/utils/logger.hpp>
#include <optional>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/retarget.hpp>
#include <string>
#include <vector>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace ops = retarget::ops;
namespace rb = retarget::backend;
namespace rx = retarget::ir;
namespace fs = std::filesystem;
using retarget::trace::tensor;

// 1. The source format: one JSON object per layer. Reading a field says which layer and which
// field is wrong.
struct layer {
  std::size_t index;
  boost::json::object spec;

  std::string type() const { return text("type"); }
  std::string text(const char* key) const {
    const auto* v = spec.if_contains(key);
    if (!v || !v->is_string()) fail(key, "a string");
    return std::string(v->as_string());
  }
  std::int64_t integer(const char* key) const {
    const auto* v = spec.if_contains(key);
    if (!v || !v->is_int64()) fail(key, "an integer");
    return v->as_int64();
  }
  [[noreturn]] void fail(const char* key, const char* what) const {
    throw retarget::error("layer " + std::to_string(index) + ": '" + key + "' must be " + what);
  }
};

// The weights the layers name, loaded once; parameters become initializers of the export.
using weight_store = std::map<std::string, rx::tensor>;

template <class B>
tensor<B> parameter(const weight_store& weights, const std::string& file, const tensor<B>& x) {
  const auto& data = weights.at(file);
  return {x.owner(), x.owner().parameter(&data, file.substr(0, file.size() - 3), data)};
}

// 2. One rewritable function per layer type: its name is the layer type, its origin the
// mapping every backend gets. The backend comes from the tensor argument.
inline constexpr struct conv_layer_fn : retarget::rewritable<conv_layer_fn, "Conv"> {
  template <class B>
  tensor<B> origin(const layer& l, const weight_store& w, const tensor<B>& x) const {
    return ops::conv2d(x, parameter(w, l.text("weight"), x),
                       std::optional(parameter(w, l.text("bias"), x)),
                       ops::conv_options{.padding = {l.integer("padding")}});
  }
} conv_layer;

inline constexpr struct relu_layer_fn : retarget::rewritable<relu_layer_fn, "ReLU"> {
  template <class B>
  tensor<B> origin(const layer&, const weight_store&, const tensor<B>& x) const {
    return ops::relu(x);
  }
} relu_layer;

inline constexpr struct hardswish_layer_fn : retarget::rewritable<hardswish_layer_fn, "HardSwish"> {
  template <class B>
  tensor<B> origin(const layer&, const weight_store&, const tensor<B>& x) const {
    return ops::hardswish(x);
  }
} hardswish_layer;

inline constexpr struct upsample_layer_fn : retarget::rewritable<upsample_layer_fn, "Upsample"> {
  template <class B>
  tensor<B> origin(const layer& l, const weight_store&, const tensor<B>& x) const {
    return ops::interpolate(
        x, ops::interpolate_options{.scale_factor = {static_cast<double>(l.integer("scale"))},
                                    .mode = l.text("mode")});
  }
} upsample_layer;

// 3. A backend-specific mapping: OpenCV 4.6 has no bicubic resize, so for opencv_dnn a bicubic
// Upsample layer becomes bilinear (tutorial 04's choice, at the converter's level).
template <>
struct retarget::function_rewrite<upsample_layer_fn, bk::opencv_dnn> {
  template <class B>
  static tensor<B> call(const auto& ctx, const layer& l, const weight_store& w,
                        const tensor<B>& x) {
    if (l.text("mode") != "bicubic") return ctx.origin(l, w, x);
    layer bilinear = l;
    bilinear.spec["mode"] = "bilinear";
    return ctx.origin(bilinear, w, x);
  }
};

// 4. The registry: a compile-time list of the mappings. Each backend's table is made from it
// by the compiler: sorted names, each with a pointer to the mapping as called for that
// backend. A name twice in the list would not compile.
using layer_registry =
    boost::mp11::mp_list<conv_layer_fn, relu_layer_fn, hardswish_layer_fn, upsample_layer_fn>;

template <class B, class F>
tensor<B> convert(const layer& l, const weight_store& w, const tensor<B>& x) {
  return F{}(l, w, x);  // through F's rewrites for B
}
template <class B, class F>
struct mapping {
  static constexpr std::string_view name = F::name;
  static constexpr auto value = &convert<B, F>;
};
template <class B, class... F>
constexpr auto make_layer_table(boost::mp11::mp_list<F...>) {
  return retarget::make_string_table<mapping<B, F>...>();
}
template <class B>
constexpr auto layer_table = make_layer_table<B>(layer_registry{});

// 5. The converted model: the layers in order, each through its backend's mapping.
struct layer_list_model {
  std::vector<layer> layers;
  weight_store weights;

  template <class B>
  tensor<B> operator()(const tensor<B>& input) const {
    tensor<B> x = input;
    for (const auto& l : layers) x = layer_table<B>.at(l.type(), "layer type")(l, weights, x);
    return x;
  }
};

layer_list_model read_layer_list(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw retarget::error("cannot open " + file.string());
  const auto json = boost::json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  layer_list_model model;
  for (const auto& entry : json.as_array()) {
    model.layers.push_back({model.layers.size(), entry.as_object()});
    const auto& l = model.layers.back();
    if (l.type() == "Conv")
      for (const char* key : {"weight", "bias"})
        model.weights.emplace(l.text(key),
                              retarget::ir::read_tensor_file(file.parent_path() / l.text(key)));
  }
  return model;
}

// 6. Running an export on the engine of its backend, found by name among the managers.
using managers = rb::manager_list<bk::onnxruntime_manager, bk::opencv_dnn_manager>;

rx::tensor run_on(const std::string& backend, const fs::path& onnx_file, const rx::tensor& input) {
  return managers::visit(backend, [&](auto manager) {
    using M = decltype(manager);
    typename M::param p;
    p.work_dir = onnx_file.parent_path().string();
    p.file_name = backend;
    if constexpr (requires { p.runtime_dir; })
      p = tutorial::onnxruntime_param(onnx_file.parent_path());
    auto wrapper = M::build_wrapper(M::to_backend(onnx_file, p), p);
    return wrapper.run({{"input", input}}).at("output");
  });
}

int convert_and_check(const std::vector<std::string>& backends);

int main(int argc, char** argv) {
  cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
  std::vector<std::string> backends(argv + 1, argv + argc);
  if (backends.empty()) backends = {"onnxruntime", "opencv_dnn"};
  try {
    return convert_and_check(backends);
  } catch (const retarget::error& e) {  // a bad file, an unknown backend: say what and where
    std::printf("error: %s\n", e.what());
    return 1;
  }
}

int convert_and_check(const std::vector<std::string>& backends) {
  const auto model = read_layer_list(tutorial::data("tutorials/09_layers.json"));
  std::string types;
  for (const auto& l : model.layers) types += " " + l.type();
  std::printf("read %zu layers:%s\n", model.layers.size(), types.c_str());
  std::string known;
  for (const auto name : layer_table<bk::onnxruntime>.names()) known += " " + std::string(name);
  std::printf("layer types the table knows:%s\n", known.c_str());

  // The backends this converter supports, as types; a name from the command line selects one.
  using supported = boost::mp11::mp_list<bk::onnxruntime, bk::opencv_dnn>;
  const tutorial::work_dir dir("tutorial-09");
  bool ok = true;
  for (const auto& backend : backends) {
    auto exported =
        retarget::export_onnx<supported>(backend, model, {{"input", rx::dtype::f32, {1, 3, 8, 8}}});
    exported.model.check();
    std::printf("%s: %s\n  %s\n  rewrites: %s\n", backend.c_str(),
                tutorial::op_types(exported.model).c_str(),
                tutorial::signature(exported.model).c_str(), tutorial::rewrites(exported).c_str());
    rx::save(exported.model, dir / (backend + "_export.onnx"));
    if (backend == "onnxruntime" &&
        !tutorial::onnxruntime_available(tutorial::onnxruntime_param(dir.path())))
      return tutorial::skipped;
    const auto out =
        run_on(backend, dir / (backend + "_export.onnx"), tutorial::load("tutorials/09_input.pb"));
    // PyTorch's model of the same layer list: bilinear where the opencv_dnn mapping is.
    const auto reference = backend == "opencv_dnn" ? "tutorials/09_output_bilinear.pb"
                                                   : "tutorials/09_output_bicubic.pb";
    ok = tutorial::compare(("  on " + backend).c_str(), out, tutorial::load(reference)) && ok;
  }

  // 7. A layer type the table does not know: the error names it and the closest known ones.
  try {
    auto bad = model;
    bad.layers[1].spec["type"] = "Relu";
    retarget::export_onnx<bk::onnxruntime>(bad, {{"input", rx::dtype::f32, {1, 3, 8, 8}}});
    ok = false;
  } catch (const retarget::error& e) {
    std::printf("a layer of type Relu: %s\n", e.what());
  }
  return tutorial::finish(ok);
}
