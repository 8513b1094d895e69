// Numbers about tensors, for checking outputs: their values as doubles, summary statistics,
// the largest difference between two tensors, and how far one is from a reference.
#ifndef RETARGET_IR_TENSOR_STATS_HPP
#define RETARGET_IR_TENSOR_STATS_HPP

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/tensor.hpp>
#include <string>
#include <vector>

namespace retarget::ir {

// The elements as doubles, from raw_data (held or mapped) or the typed fields. retarget::error
// for strings and complex numbers, for data in an external file not in memory (load the model
// with its data first), and for data whose count does not match the dims.
RETARGET_COMPILED_DECL std::vector<double> values_as_double(const tensor& t);
// The same for a tensor read where it is stored (a model's constant), without a copy.
class tensor_view;
RETARGET_COMPILED_DECL std::vector<double> values_as_double(const tensor_view& t);
// The elements of an integer tensor as int64, exactly (a double would round INT64_MAX, the
// "to the end" of a Slice); retarget::error for other element types and as values_as_double.
RETARGET_COMPILED_DECL std::vector<std::int64_t> values_as_int64(const tensor_view& t);

// A number as messages show it: the shortest text that reads back as the value (0.5, 1e-05, 3).
inline std::string format_number(double v) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, v).ptr);
}

struct tensor_statistics {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, stddev = 0;
  std::size_t non_finite = 0;  // NaN and infinities, left out of the others
};

RETARGET_COMPILED_DECL tensor_statistics statistics(const tensor& t);

// The largest absolute difference; infinity when types or shapes differ, or a value is NaN
// in one tensor only.
RETARGET_COMPILED_DECL double max_abs_difference(const tensor& a, const tensor& b);

// How far a tensor is from a reference, element by element, for checking one engine against
// another: an element passes when |actual - expected| <= atol + rtol * |expected| (numpy's
// allclose), and a NaN or an infinity in either tensor never passes.
struct tensor_difference {
  std::string incomparable;  // why the two cannot be compared element-wise (dtype, shape); or ""
  double max_abs = 0;        // the largest |actual - expected| over finite pairs
  double max_rel = 0;        // the largest |actual - expected| / |expected|, over expected != 0
  dims_t worst;              // where max_abs is
  std::size_t count = 0;     // elements compared
  std::size_t outside = 0;   // elements that do not pass, non-finite ones included
  std::size_t non_finite = 0;
  dims_t first_non_finite;  // where the first is, when there is one

  bool passes() const noexcept { return incomparable.empty() && outside == 0; }
};

// Compares element-wise. Types may differ where both are numeric (an engine that computes in
// float32 what the model declares int64); shapes must be equal. Strings cannot be compared.
RETARGET_COMPILED_DECL tensor_difference difference(const tensor& actual, const tensor& expected,
                                                    double atol, double rtol);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/tensor_stats_impl.hpp>
#endif

#endif  // RETARGET_IR_TENSOR_STATS_HPP
