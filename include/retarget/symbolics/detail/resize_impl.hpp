// The definitions of symbolics/resize.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_SYMBOLICS_DETAIL_RESIZE_IMPL_HPP
#define RETARGET_SYMBOLICS_DETAIL_RESIZE_IMPL_HPP

#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <retarget/symbolics/resize.hpp>
#include <string>
#include <vector>

namespace retarget::symbolics {

namespace detail {
RETARGET_LAZY_DEF value resize(graph& g, const value& x, const value& scales,
                               const std::optional<value>& sizes, const std::string& mode) {
  if (mode != "nearest" && mode != "bilinear" && mode != "bicubic")
    throw error("retarget: interpolate mode '" + mode +
                "' (expected nearest, bilinear or bicubic)");
  const std::string onnx_mode = mode == "nearest"    ? "nearest"
                                : mode == "bilinear" ? "linear"
                                                     : "cubic";
  const std::string transform = mode == "nearest" ? "asymmetric" : "pytorch_half_pixel";
  const auto emit = [&](const auto& roi, const auto& scales_input, const auto&... size) {
    return g.op("Resize", x, roi, scales_input, size...,
                "coordinate_transformation_mode"_s = transform, "cubic_coeff_a"_f = -0.75f,
                "mode"_s = onnx_mode, "nearest_mode"_s = "floor");
  };
  if (g.opset() >= 13)
    return sizes ? emit(ir::no_input, ir::no_input, *sizes) : emit(ir::no_input, scales);
  const auto empty = [&] { return g.constant(ir::tensor::empty(ir::dtype::f32)); };
  return sizes ? emit(empty(), empty(), *sizes) : emit(empty(), scales);
}
}  // namespace detail

RETARGET_LAZY_DEF value interpolate::symbolic(graph& g, const value& x,
                                              const interpolate_options& o) {
  require_opset(g, 11, "interpolate");
  const auto spatial = x.rank() - 2;
  if (!o.size.empty()) {
    const auto shape = x.static_shape();
    if (!shape)
      throw error("retarget: interpolate to a size needs the batch and channel dims static");
    ints sizes{(*shape)[0], (*shape)[1]};
    for (std::size_t i = 0; i < spatial; ++i)
      sizes.push_back(o.size.size() == 1 ? o.size[0] : o.size[i]);
    return detail::resize(g, x, value{}, ints_constant(g, sizes), o.mode);
  }
  std::vector<float> scales{1, 1};
  for (std::size_t i = 0; i < spatial; ++i)
    scales.push_back(
        static_cast<float>(o.scale_factor.size() == 1 ? o.scale_factor[0] : o.scale_factor.at(i)));
  const auto scale_values =
      g.constant(ir::tensor::of(scales, {static_cast<std::int64_t>(scales.size())}));
  return detail::resize(g, x, scale_values, std::nullopt, o.mode);
}

RETARGET_LAZY_DEF value interpolate::symbolic(graph& g, const value& x, const value& scales,
                                              const std::string& mode) {
  require_opset(g, 11, "interpolate");
  return detail::resize(g, x, scales, std::nullopt, mode);
}

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_DETAIL_RESIZE_IMPL_HPP
