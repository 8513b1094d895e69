// An axis as ONNX and PyTorch give it, negative counting from the back, made 0..rank-1: the
// one range rule of graph helpers, adapters and the evaluator.
//
//   retarget::ir::normalized_axis(-1, 4);   // 3
//   retarget::ir::axis_in_range(4, 4);      // nullopt
#ifndef RETARGET_IR_AXIS_HPP
#define RETARGET_IR_AXIS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/core/error.hpp>
#include <string>

namespace retarget::ir {

// The axis made non-negative, or nullopt when it is not in [-rank, rank - 1].
constexpr std::optional<std::int64_t> axis_in_range(std::int64_t axis, std::int64_t rank) {
  if (axis < -rank || axis >= rank) return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

// The axis made non-negative; retarget::error when it is out of range.
inline std::int64_t normalized_axis(std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  if (const auto a = axis_in_range(axis, r)) return *a;
  throw error("retarget: axis " + std::to_string(axis) + " is out of range for rank " +
              std::to_string(r));
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_AXIS_HPP
