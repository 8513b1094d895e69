// A converter's dispatch table: layer names read from a file, mapped through a table that
// the compiler builds from a list of mappings. Backend-specific mappings come from the same
// list through a rewritable function, selected by the backend type.
#include <cstdio>
#include <retarget/core.hpp>
#include <sstream>
#include <string>
#include <vector>

// Core knows no engine: a program names the ones it targets with tags of its own (the
// engines retarget ships declare theirs in retarget/backends/NAME.hpp, with their rewrites).
namespace bk {
struct onnxruntime : retarget::backend_tag<"onnxruntime"> {};
struct opencv_dnn : retarget::backend_tag<"opencv_dnn"> {};
}  // namespace bk

struct layer {
  std::string type;
  int channels;
};

// How one layer becomes ONNX op types, by backend. A rewrite for opencv_dnn spells
// HardSwish out, which that engine's older importers lacked.
inline constexpr struct hardswish_fn : retarget::rewritable<hardswish_fn, "hardswish"> {
  std::vector<std::string> origin(const auto&, const layer&) const { return {"HardSwish"}; }
} hardswish;

template <>
struct retarget::function_rewrite<hardswish_fn, bk::opencv_dnn> {
  static std::vector<std::string> call(const auto&, const layer&) {
    return {"Add", "Clip", "Div", "Mul"};
  }
};

template <class B>
std::vector<std::string> convert_conv(const layer&) {
  return {"Conv"};
}
template <class B>
std::vector<std::string> convert_relu(const layer&) {
  return {"Relu"};
}
template <class B>
std::vector<std::string> convert_hardswish(const layer& l) {
  return retarget::call<B>(hardswish, l);
}

// One table per backend, each built at compile time from the same mappings.
template <class B>
constexpr auto converters = retarget::make_string_table<
    retarget::entry<"Conv", &convert_conv<B>>, retarget::entry<"ReLU", &convert_relu<B>>,
    retarget::entry<"HardSwish", &convert_hardswish<B>>>();

template <class B>
std::string convert(const std::string& layer_list) {
  std::istringstream in(layer_list);
  std::string out;
  layer l;
  while (in >> l.type >> l.channels)
    for (const auto& op : converters<B>.at(l.type, "layer type")(l)) out += op + " ";
  return out;
}

int main() {
  const std::string model = "Conv 16 ReLU 16 HardSwish 16";
  const std::string ort = convert<bk::onnxruntime>(model);
  const std::string cv = convert<bk::opencv_dnn>(model);
  std::printf("onnxruntime: %s\nopencv_dnn:  %s\n", ort.c_str(), cv.c_str());

  bool unknown_reported = false;
  try {
    convert<bk::onnxruntime>("Conv 16 Relu 16");
  } catch (const retarget::error& e) {
    std::printf("error: %s\n", e.what());
    unknown_reported = std::string(e.what()).find("'Relu' (closest: ReLU") != std::string::npos;
  }
  const bool ok =
      ort == "Conv Relu HardSwish " && cv == "Conv Relu Add Clip Div Mul " && unknown_reported;
  std::printf(ok ? "all checks passed\n" : "CHECK FAILED\n");
  return ok ? 0 : 1;
}
