// Everything retarget offers: every layer, and the engines retarget ships (opencv_dnn runs
// models where OpenCV is linked: target retarget::opencv_dnn).
#ifndef RETARGET_RETARGET_HPP
#define RETARGET_RETARGET_HPP

#include <retarget/backend.hpp>
#include <retarget/backends.hpp>
#include <retarget/config.hpp>
#include <retarget/convert.hpp>
#include <retarget/core.hpp>
#include <retarget/ir.hpp>
#include <retarget/options.hpp>
#include <retarget/trace.hpp>

#endif  // RETARGET_RETARGET_HPP
