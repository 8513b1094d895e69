// Tensor dims and how they are printed: "[1, 3, 48, 48]", an unknown dim as "?" and a
// symbolic one by its name ("[1, 3, height, width]"). Every shape in retarget's messages and
// printouts is written this way.
//
//   retarget::ir::format_dims(t.dims())   // "[1, 3, 48, 48]"
#ifndef RETARGET_IR_DIMS_HPP
#define RETARGET_IR_DIMS_HPP

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <retarget/core/config.hpp>
#include <retarget/ir/detail/proto_fwd.hpp>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::ir {

using dims_t = std::vector<std::int64_t>;

// The product of the dims: 1 for a scalar.
inline std::int64_t element_count(const dims_t& dims) {
  std::int64_t n = 1;
  for (const auto d : dims) n *= d;
  return n;
}
// The same for any other range of dims: a span, a TensorProto's dims field as it is (a
// template, so that a braced list of dims still means a dims_t).
template <class R>
requires std::same_as<std::remove_cvref_t<decltype(*std::begin(std::declval<const R&>()))>,
                      std::int64_t>
    std::int64_t element_count(const R& dims) {
  std::int64_t n = 1;
  for (const auto d : dims) n *= d;
  return n;
}

namespace detail {

// "[a, b, c]" from the text of each item.
template <class Range, class Text>
std::string bracketed(const Range& items, Text text) {
  std::string out = "[";
  bool first = true;
  for (const auto& item : items) {
    if (!first) out += ", ";
    first = false;
    out += text(item);
  }
  return out + "]";
}

}  // namespace detail

// "[1, 3, 48, 48]"; a negative dim (-1: unknown) is "?".
inline std::string format_dims(std::span<const std::int64_t> dims) {
  return detail::bracketed(
      dims, [](std::int64_t d) { return d < 0 ? std::string("?") : std::to_string(d); });
}

// "[1, 3, height, ?]": a shape as ONNX's inference writes it, a dim without value or name "?".
RETARGET_COMPILED_DECL std::string format_dims(const onnx::TensorShapeProto& shape);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/dims_impl.hpp>
#endif

#endif  // RETARGET_IR_DIMS_HPP
