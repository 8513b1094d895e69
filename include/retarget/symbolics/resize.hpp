// The symbolic of interpolate: Resize at the graph's opset, by sizes or by scales.
#ifndef RETARGET_SYMBOLICS_RESIZE_HPP
#define RETARGET_SYMBOLICS_RESIZE_HPP

#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/core/symbolic.hpp>
#include <retarget/symbolics/helpers.hpp>
#include <retarget/symbolics/interpolate_options.hpp>
#include <string>
#include <vector>

namespace retarget::symbolics {

namespace detail {
// The attributes torch 1.13 gives Resize for each mode (align_corners=False). Before opset
// 13, roi and scales are required inputs: unused ones are empty tensors, as torch gives them.
RETARGET_LAZY_DECL value resize(graph& g, const value& x, const value& scales,
                                const std::optional<value>& sizes, const std::string& mode);
}  // namespace detail

struct interpolate : symbolic_op<interpolate, "interpolate"> {
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const interpolate_options& o);
  // Scales known only at run time: a float tensor of one scale per dim, as the seeds' factor.
  RETARGET_LAZY_DECL static value symbolic(graph& g, const value& x, const value& scales,
                                           const std::string& mode = "bicubic");
};

}  // namespace retarget::symbolics

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/symbolics/detail/resize_impl.hpp>
#endif

#endif  // RETARGET_SYMBOLICS_RESIZE_HPP
