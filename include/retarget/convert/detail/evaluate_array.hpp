// The evaluator's working form of a tensor: element type, dims and little-endian bytes, read
// from a stored tensor in any storage form. Also the helpers every op shares: the one dtype
// dispatch, strided views (Transpose, Slice, Expand, Tile and broadcasting are all views), the
// broadcasting rule and the one reduction.
#ifndef RETARGET_CONVERT_DETAIL_EVALUATE_ARRAY_HPP
#define RETARGET_CONVERT_DETAIL_EVALUATE_ARRAY_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <retarget/core/error.hpp>
#include <retarget/ir/axis.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace retarget::convert::detail {

// Thrown for a form the evaluator does not handle (a dtype, an attribute, data in an external
// file); evaluate() turns it into std::nullopt.
struct unsupported {};

template <class... T>
struct type_list {};
// What the evaluator reads at all, what it computes with, and the subsets some ops take.
using any_type =
    type_list<float, double, std::int32_t, std::int64_t, bool, std::int8_t, std::uint8_t>;
using number_type = type_list<float, double, std::int32_t, std::int64_t>;
using float_type = type_list<float, double>;
using index_type = type_list<std::int32_t, std::int64_t>;
using bool_type = type_list<bool>;
using comparable_type = type_list<float, double, std::int32_t, std::int64_t, bool>;

// The one dtype dispatch: f(std::type_identity<T>{}) for the T of `type` among `types`;
// unsupported{} when it is none of them.
template <class... T, class F>
auto dispatch(ir::dtype type, type_list<T...>, F&& f) {
  std::optional<std::common_type_t<decltype(f(std::type_identity<T>{}))...>> out;
  (void)((type == ir::dtype_of<T> && (out.emplace(f(std::type_identity<T>{})), true)) || ...);
  if (!out) throw unsupported{};
  return std::move(*out);
}

struct array {
  ir::dtype type = ir::dtype::undefined;
  ir::dims_t dims;
  std::string bytes;  // element_count(dims) elements of size_of(type) bytes; bools are 0 or 1

  // Folding makes constants, not tensors of gigabytes: a result of more than max_bytes (or
  // whose count overflows) is left to the runtime.
  static constexpr std::int64_t max_bytes = std::int64_t{1} << 30;

  array() = default;
  array(ir::dtype t, ir::dims_t d) : type(t), dims(std::move(d)) {
    std::int64_t n = static_cast<std::int64_t>(ir::size_of(t));
    for (auto k : dims) {
      if (k != 0 && n > max_bytes / k) throw unsupported{};
      n *= k;
    }
    bytes.assign(static_cast<std::size_t>(n), '\0');
  }

  std::int64_t size() const { return ir::element_count(dims); }
  std::size_t width() const noexcept { return ir::size_of(type); }
  std::int64_t rank() const noexcept { return static_cast<std::int64_t>(dims.size()); }
  template <class T>
  T at(std::int64_t i) const {
    T v;
    std::memcpy(&v, bytes.data() + static_cast<std::size_t>(i) * sizeof(T), sizeof(T));
    return v;
  }
  template <class T>
  void set(std::int64_t i, T v) {
    std::memcpy(bytes.data() + static_cast<std::size_t>(i) * sizeof(T), &v, sizeof(T));
  }
};

// "[4, -1]": integers as given (shapes to be, axes, perms), where format_dims would print a
// negative one as an unknown dim.
inline std::string values_text(const std::vector<std::int64_t>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

// "retarget: Gather 'name': what".
[[noreturn]] inline void fail(const ir::node_view& node, const std::string& what) {
  throw error("retarget: " + node.describe() + ": " + what);
}

template <class T>
array read_as(const ir::tensor_view& p, const ir::node_view& node, const ir::dims_t& dims) {
  array a(ir::dtype_of<T>, dims);
  const auto count = p.stored_count<T>();
  const auto raw = p.raw_bytes();  // in the proto, or mapped
  if (static_cast<std::int64_t>(count) != a.size() || (raw && raw->size() != a.bytes.size()))
    fail(node, "an input of " + std::string(ir::to_string(a.type)) + " " + ir::format_dims(dims) +
                   " holds " + std::to_string(count) + " values, not " + std::to_string(a.size()));
  std::int64_t i = 0;
  p.for_each_value<T>([&](T v) { a.set<T>(i++, v); });
  return a;
}

// The tensor's elements, whatever field holds them. retarget::error when their count does not
// fill the dims; unsupported{} for data in an external file not mapped and for other element
// types.
inline array read_array(const ir::tensor_view& p, const ir::node_view& node) {
  if (p.is_external() && !p.raw_bytes()) throw unsupported{};
  const auto dims = p.dims();
  for (auto d : dims)
    if (d < 0) fail(node, "an input has a negative dim in " + values_text(dims));
  return dispatch(p.type(), any_type{},
                  [&]<class T>(std::type_identity<T>) { return read_as<T>(p, node, dims); });
}

inline ir::tensor to_tensor(const array& a, const std::string& name) {
  auto t = ir::tensor::from_raw(a.type, a.dims,
                                std::as_bytes(std::span(a.bytes.data(), a.bytes.size())));
  t.set_name(name);
  return t;
}

// Row-major strides, in elements.
inline std::vector<std::int64_t> strides_of(const ir::dims_t& dims) {
  std::vector<std::int64_t> s(dims.size(), 1);
  for (std::size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

// A strided view of `in`, copied: element [i0, ..., ik] of the result is element
// offset + i0 * strides[0] + ... + ik * strides[k] of `in` (a stride may be 0 or negative).
inline array view(const array& in, std::int64_t offset, ir::dims_t dims,
                  const std::vector<std::int64_t>& strides) {
  array out(in.type, std::move(dims));
  const auto n = out.size();
  const auto w = in.width();
  std::vector<std::int64_t> index(out.dims.size(), 0);
  std::int64_t from = offset;
  for (std::int64_t i = 0; i < n; ++i) {
    std::memcpy(out.bytes.data() + static_cast<std::size_t>(i) * w,
                in.bytes.data() + static_cast<std::size_t>(from) * w, w);
    for (std::size_t k = index.size(); k-- > 0;) {  // the next index, last axis fastest
      from += strides[k];
      if (++index[k] < out.dims[k]) break;
      from -= strides[k] * out.dims[k];
      index[k] = 0;
    }
  }
  return out;
}

// The numpy broadcast of two shapes; nullopt when they do not broadcast.
inline std::optional<ir::dims_t> broadcast_dims(const ir::dims_t& a, const ir::dims_t& b) {
  ir::dims_t out(std::max(a.size(), b.size()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const auto x = i < a.size() ? a[a.size() - 1 - i] : 1;
    const auto y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[out.size() - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

// `in` repeated along its size-1 and missing leading axes to `dims` (which it broadcasts to).
inline array broadcast_to(const array& in, const ir::dims_t& dims) {
  if (in.dims == dims) return in;
  const auto own = strides_of(in.dims);
  const auto lead = dims.size() - in.dims.size();
  std::vector<std::int64_t> strides(dims.size(), 0);
  for (std::size_t i = 0; i < in.dims.size(); ++i) strides[lead + i] = in.dims[i] == 1 ? 0 : own[i];
  return view(in, 0, dims, strides);
}

// Axes as ONNX gives them (negative from the back) made 0..rank-1; retarget::error for one
// out of range or given twice.
inline std::vector<std::int64_t> normalize_axes(std::vector<std::int64_t> axes, std::int64_t rank,
                                                const ir::node_view& node) {
  for (auto& a : axes) {
    const auto in_range = ir::axis_in_range(a, rank);
    if (!in_range)
      fail(node, "axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    a = *in_range;
  }
  auto sorted = axes;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    fail(node, "an axis is given twice in " + values_text(axes));
  return axes;
}

// The one reduction: each output element is reduce_block(values), values being the elements
// of `in` (of type T) that the axes (normalized) reduce to it. The result keeps the reduced
// axes as 1 (keepdims) or drops them.
template <class T, class Reduce>
array reduce(const array& in, const std::vector<std::int64_t>& axes, bool keepdims,
             Reduce reduce_block) {
  // The kept axes first and the reduced ones last, so each output element reduces a block.
  std::vector<bool> reduced(in.dims.size(), false);
  for (auto a : axes) reduced[static_cast<std::size_t>(a)] = true;
  const auto own = strides_of(in.dims);
  ir::dims_t order_dims, out_dims;
  std::vector<std::int64_t> order_strides;
  std::int64_t block = 1;
  for (std::size_t i = 0; i < in.dims.size(); ++i)
    if (!reduced[i]) {
      order_dims.push_back(in.dims[i]);
      order_strides.push_back(own[i]);
    }
  for (std::size_t i = 0; i < in.dims.size(); ++i) {
    if (reduced[i]) {
      order_dims.push_back(in.dims[i]);
      order_strides.push_back(own[i]);
      block *= in.dims[i];
    }
    if (!reduced[i] || keepdims) out_dims.push_back(reduced[i] ? 1 : in.dims[i]);
  }
  const auto ordered = view(in, 0, order_dims, order_strides);
  array out(in.type, out_dims);
  std::vector<T> values(static_cast<std::size_t>(block));
  for (std::int64_t o = 0; o < out.size(); ++o) {
    for (std::int64_t k = 0; k < block; ++k)
      values[static_cast<std::size_t>(k)] = ordered.at<T>(o * block + k);
    out.set<T>(o, reduce_block(values));
  }
  return out;
}

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_EVALUATE_ARRAY_HPP
