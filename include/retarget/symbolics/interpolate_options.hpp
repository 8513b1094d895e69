// What interpolate takes (symbolics/resize.hpp has its symbolic), apart, so that a module that
// holds them (nn::Upsample) can be declared without the symbolics.
#ifndef RETARGET_SYMBOLICS_INTERPOLATE_OPTIONS_HPP
#define RETARGET_SYMBOLICS_INTERPOLATE_OPTIONS_HPP

#include <cstdint>
#include <string>
#include <vector>

namespace retarget::symbolics {

struct interpolate_options {
  std::vector<double> scale_factor = {};  // per spatial dim, or one for all
  std::vector<std::int64_t> size = {};    // the output's spatial size, instead
  std::string mode = "nearest";           // nearest, bilinear, bicubic
};

}  // namespace retarget::symbolics

#endif  // RETARGET_SYMBOLICS_INTERPOLATE_OPTIONS_HPP
