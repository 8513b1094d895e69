// Numbers about tensors, for checking outputs: their values as doubles, summary statistics,
// and the largest difference between two tensors.
#ifndef RETARGET_ONNX_TENSOR_STATS_HPP
#define RETARGET_ONNX_TENSOR_STATS_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <retarget/core/error.hpp>
#include <retarget/onnx/tensor.hpp>
#include <string>
#include <vector>

namespace retarget::onnx {

// The elements as doubles, from raw_data or the typed fields; retarget::error for strings
// and complex numbers.
inline std::vector<double> values_as_double(const tensor& t) {
  const auto& p = t.proto();
  std::vector<double> out;
  const auto from_raw = [&]<class T>(T) {
    const auto& raw = p.raw_data();
    out.reserve(raw.size() / sizeof(T));
    for (std::size_t i = 0; i + sizeof(T) <= raw.size(); i += sizeof(T)) {
      T v;
      std::memcpy(&v, raw.data() + i, sizeof(T));
      out.push_back(static_cast<double>(v));
    }
  };
  const bool raw = p.has_raw_data();
  switch (t.type()) {
    case dtype::f32:
      if (raw) from_raw(float{});
      else out.assign(p.float_data().begin(), p.float_data().end());
      break;
    case dtype::f64:
      if (raw) from_raw(double{});
      else out.assign(p.double_data().begin(), p.double_data().end());
      break;
    case dtype::i64:
      if (raw) from_raw(std::int64_t{});
      else out.assign(p.int64_data().begin(), p.int64_data().end());
      break;
    case dtype::i32:
      if (raw) from_raw(std::int32_t{});
      else out.assign(p.int32_data().begin(), p.int32_data().end());
      break;
    case dtype::i8:
      if (raw) from_raw(std::int8_t{});
      else out.assign(p.int32_data().begin(), p.int32_data().end());
      break;
    case dtype::u8:
    case dtype::boolean:
      if (raw) from_raw(std::uint8_t{});
      else out.assign(p.int32_data().begin(), p.int32_data().end());
      break;
    default:
      throw error("retarget: no numeric values for a tensor of " + std::string(to_string(t.type())));
  }
  return out;
}

struct tensor_statistics {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, stddev = 0;
  std::size_t non_finite = 0;  // NaN and infinities, left out of the others
};

inline tensor_statistics statistics(const tensor& t) {
  tensor_statistics s;
  double sum = 0, sum_of_squares = 0;
  s.min = std::numeric_limits<double>::infinity();
  s.max = -s.min;
  for (double v : values_as_double(t)) {
    if (!std::isfinite(v)) {
      ++s.non_finite;
      continue;
    }
    ++s.count;
    s.min = std::min(s.min, v);
    s.max = std::max(s.max, v);
    sum += v;
    sum_of_squares += v * v;
  }
  if (s.count == 0) return tensor_statistics{0, 0, 0, 0, 0, s.non_finite};
  s.mean = sum / static_cast<double>(s.count);
  s.stddev = std::sqrt(std::max(0.0, sum_of_squares / static_cast<double>(s.count) - s.mean * s.mean));
  return s;
}

// The largest absolute difference; infinity when types or shapes differ, or a value is NaN
// in one tensor only.
inline double max_abs_difference(const tensor& a, const tensor& b) {
  const auto a_dims = a.dims(), b_dims = b.dims();
  if (a_dims != b_dims || a.type() != b.type()) return std::numeric_limits<double>::infinity();
  const auto x = values_as_double(a), y = values_as_double(b);
  if (x.size() != y.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i]) || std::isnan(y[i])) {
      if (std::isnan(x[i]) != std::isnan(y[i])) return std::numeric_limits<double>::infinity();
      continue;
    }
    worst = std::max(worst, std::abs(x[i] - y[i]));
  }
  return worst;
}

}  // namespace retarget::onnx

#endif  // RETARGET_ONNX_TENSOR_STATS_HPP
