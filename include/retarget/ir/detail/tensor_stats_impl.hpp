// The definitions of ir/tensor_stats.hpp: inline header-only, compiled once into
// retarget::compiled otherwise (each reads every element type, a loop per type).
#ifndef RETARGET_IR_DETAIL_TENSOR_STATS_IMPL_HPP
#define RETARGET_IR_DETAIL_TENSOR_STATS_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <retarget/core/error.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace retarget::ir {

namespace detail {

// IEEE half precision and bfloat16 bits as the float they stand for.
inline float half_to_float(std::uint16_t h) {
  const int sign = (h >> 15) ? -1 : 1;
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  if (exponent == 0) return static_cast<float>(sign * std::ldexp(mantissa, -24));
  if (exponent == 31)
    return mantissa ? std::numeric_limits<float>::quiet_NaN()
                    : sign * std::numeric_limits<float>::infinity();
  return static_cast<float>(sign * std::ldexp(mantissa + 1024, exponent - 25));
}
inline float bfloat16_to_float(std::uint16_t b) {
  const std::uint32_t bits = std::uint32_t{b} << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace detail

namespace detail {

RETARGET_COMPILED_DECL std::vector<double> values_as_double(const onnx::TensorProto& p) {
  const tensor_view t(p);
  std::vector<double> out;
  const auto read = [&]<class T>(std::type_identity<T>, auto convert) {
    out.reserve(stored_count<T>(p));
    for_each_value<T>(p, [&](T v) { out.push_back(static_cast<double>(convert(v))); });
  };
  const auto same = [](auto v) { return v; };
  if (t.type() == dtype::f16)
    read(std::type_identity<std::uint16_t>{}, detail::half_to_float);
  else if (t.type() == dtype::bf16)
    read(std::type_identity<std::uint16_t>{}, detail::bfloat16_to_float);
  else
    visit_element_type(t.type(), [&](auto type) { read(type, same); });
  const auto dims = t.dims();
  const bool negative = std::any_of(dims.begin(), dims.end(), [](auto d) { return d < 0; });
  const auto expected = static_cast<std::uint64_t>(negative ? 0 : element_count(dims));
  if (out.size() != expected)
    throw error("retarget: tensor '" + p.name() + "' holds " + std::to_string(out.size()) +
                " values, but its dims make " + std::to_string(expected));
  return out;
}

}  // namespace detail

RETARGET_COMPILED_DECL std::vector<double> values_as_double(const tensor& t) {
  return detail::values_as_double(t.proto());
}
RETARGET_COMPILED_DECL std::vector<double> values_as_double(const tensor_view& t) {
  return detail::values_as_double(t.proto());
}

RETARGET_COMPILED_DECL std::vector<std::int64_t> values_as_int64(const tensor_view& t) {
  const auto& p = t.proto();
  if (t.type() == dtype::f16 || t.type() == dtype::bf16)  // stored as uint16, yet not integers
    throw error("retarget: tensor '" + p.name() + "' holds " + std::string(to_string(t.type())) +
                ", not integers");
  std::vector<std::int64_t> out;
  visit_element_type(t.type(), [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_integral_v<T>) {
      out.reserve(stored_count<T>(p));
      for_each_value<T>(p, [&](T v) { out.push_back(static_cast<std::int64_t>(v)); });
    } else {
      throw error("retarget: tensor '" + p.name() + "' holds " + std::string(to_string(t.type())) +
                  ", not integers");
    }
  });
  if (out.size() != static_cast<std::size_t>(std::max<std::int64_t>(0, element_count(t.dims()))))
    throw error("retarget: tensor '" + p.name() + "' holds " + std::to_string(out.size()) +
                " values, but its dims make " + std::to_string(element_count(t.dims())));
  return out;
}

RETARGET_COMPILED_DECL tensor_statistics statistics(const tensor& t) {
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
  s.stddev =
      std::sqrt(std::max(0.0, sum_of_squares / static_cast<double>(s.count) - s.mean * s.mean));
  return s;
}

RETARGET_COMPILED_DECL double max_abs_difference(const tensor& a, const tensor& b) {
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

namespace detail {

// The index of element `flat` of a tensor of `dims`, one number per axis.
inline dims_t unravel(std::size_t flat, const dims_t& dims) {
  dims_t at(dims.size(), 0);
  for (std::size_t axis = dims.size(); axis-- > 0;) {
    const auto extent = static_cast<std::size_t>(std::max<std::int64_t>(dims[axis], 1));
    at[axis] = static_cast<std::int64_t>(flat % extent);
    flat /= extent;
  }
  return at;
}

}  // namespace detail

RETARGET_COMPILED_DECL tensor_difference difference(const tensor& actual, const tensor& expected,
                                                    double atol, double rtol) {
  tensor_difference d;
  const auto dims = expected.dims();
  if (actual.dims() != dims) {
    d.incomparable = "shape " + format_dims(actual.dims()) + ", expected " + format_dims(dims);
    return d;
  }
  std::vector<double> x, y;
  try {
    x = values_as_double(actual);
    y = values_as_double(expected);
  } catch (const error& e) {
    d.incomparable = e.what();
    return d;
  }
  d.count = x.size();
  std::size_t worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(x[i]) || !std::isfinite(y[i])) {
      if (d.non_finite++ == 0) d.first_non_finite = detail::unravel(i, dims);
      ++d.outside;
      continue;
    }
    const double diff = std::abs(x[i] - y[i]);
    if (diff > atol + rtol * std::abs(y[i])) ++d.outside;
    if (y[i] != 0) d.max_rel = std::max(d.max_rel, diff / std::abs(y[i]));
    if (diff > d.max_abs) d.max_abs = diff, worst = i;
  }
  d.worst = detail::unravel(worst, dims);
  return d;
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_TENSOR_STATS_IMPL_HPP
