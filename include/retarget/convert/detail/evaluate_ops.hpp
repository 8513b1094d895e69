// The ops evaluate() folds, one function each, and the table that names them.
#ifndef RETARGET_CONVERT_DETAIL_EVALUATE_OPS_HPP
#define RETARGET_CONVERT_DETAIL_EVALUATE_OPS_HPP

#include <algorithm>
#include <cmath>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <retarget/convert/detail/evaluate_array.hpp>
#include <retarget/core/string_table.hpp>
#include <retarget/ir/attribute.hpp>
#include <retarget/ir/axis.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/node_view.hpp>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace retarget::convert::detail {

// An integer array's values as int64: int32 or int64 (Types), unsupported{} for another type.
template <class Types = index_type>
std::vector<std::int64_t> index_values(const array& a) {
  return dispatch(a.type, Types{}, [&]<class T>(std::type_identity<T>) {
    std::vector<std::int64_t> out(static_cast<std::size_t>(a.size()));
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = a.at<T>(static_cast<std::int64_t>(k));
    return out;
  });
}

// One node with its constant inputs: what every op reads.
struct node_inputs {
  ir::node_view node;
  int opset;
  std::span<const ir::tensor_view> inputs;

  [[noreturn]] void fail(const std::string& what) const { detail::fail(node, what); }

  bool has(std::size_t i) const noexcept { return i < inputs.size() && inputs[i].present(); }
  const ir::tensor_view& tensor(std::size_t i) const {
    if (!has(i)) fail("input " + std::to_string(i) + " is missing");
    return inputs[i];
  }
  array operator[](std::size_t i) const { return read_array(tensor(i), node); }
  // An int32 or int64 input as int64 values: shapes, axes, starts, repeats.
  std::vector<std::int64_t> integers(std::size_t i) const { return index_values((*this)[i]); }

  std::optional<ir::attribute_view> find(std::string_view name) const {
    return node.attribute(name);
  }
  // The attribute when the node sets it, which must then be of that kind.
  std::optional<ir::attribute_view> attribute(std::string_view name, ir::attr_type kind) const {
    const auto a = find(name);
    if (a && a->kind() != kind)
      fail("attribute '" + std::string(a->name()) + "' has the wrong type");
    return a;
  }
  // A TENSOR attribute's tensor when the node sets it, which must then hold one.
  std::optional<ir::tensor_view> tensor_attribute(std::string_view name) const {
    const auto a = attribute(name, ir::attr_type::tensor);
    if (!a) return std::nullopt;
    const auto t = a->t();
    if (!t) fail("attribute '" + std::string(name) + "' holds no tensor");
    return t;
  }
  std::int64_t int_attribute(std::string_view name, std::int64_t fallback) const {
    const auto a = attribute(name, ir::attr_type::int_);
    return a ? a->i() : fallback;
  }
  std::string string_attribute(std::string_view name, std::string fallback) const {
    const auto a = attribute(name, ir::attr_type::string);
    return a ? a->s() : fallback;
  }
  std::optional<std::vector<std::int64_t>> ints_attribute(std::string_view name) const {
    const auto a = attribute(name, ir::attr_type::ints);
    if (!a) return std::nullopt;
    return a->ints();
  }
  std::vector<std::int64_t> required_ints(std::string_view name) const {
    auto v = ints_attribute(name);
    if (!v) fail("attribute '" + std::string(name) + "' is missing");
    return *v;
  }
  // Inputs a and b of one type.
  void same_types(const array& a, const array& b) const {
    if (a.type != b.type)
      fail("inputs of different types, " + std::string(ir::to_string(a.type)) + " and " +
           std::string(ir::to_string(b.type)));
  }
  // An axis in [-rank, rank - 1] made non-negative, or rank itself when or_rank (Flatten's).
  std::int64_t axis(std::int64_t a, std::int64_t rank, bool or_rank = false) const {
    if (or_rank && a == rank) return rank;
    const auto in_range = ir::axis_in_range(a, rank);
    if (!in_range)
      fail("axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    return *in_range;
  }
};

// ---- Elementwise ops ----

// f(arrays, i) for every element i of the inputs broadcast together (numpy's rule).
template <class R, class F>
array elementwise(const node_inputs& in, std::vector<array> args, F f) {
  auto dims = args.front().dims;
  for (const auto& a : args) {
    auto d = broadcast_dims(dims, a.dims);
    if (!d)
      in.fail("shapes " + ir::format_dims(dims) + " and " + ir::format_dims(a.dims) +
              " do not broadcast");
    dims = std::move(*d);
  }
  for (auto& a : args) a = broadcast_to(a, dims);
  array out(ir::dtype_of<R>, dims);
  for (std::int64_t i = 0; i < out.size(); ++i) out.set<R>(i, f(args, i));
  return out;
}

// Inputs of one type T among Types, f(x) or f(x, y) on their elements giving R (T when void):
// Add, Less, Not, Max and the others.
template <class Types, class R = void, class F>
array map_values(const node_inputs& in, std::vector<array> args, F f) {
  for (const auto& a : args) in.same_types(args.front(), a);
  return dispatch(args.front().type, Types{}, [&]<class T>(std::type_identity<T>) {
    using result = std::conditional_t<std::is_void_v<R>, T, R>;
    return elementwise<result>(in, std::move(args),
                               [&](const std::vector<array>& v, std::int64_t i) {
                                 if constexpr (std::is_invocable_v<F, T>)
                                   return static_cast<result>(f(v[0].at<T>(i)));
                                 else
                                   return static_cast<result>(f(v[0].at<T>(i), v[1].at<T>(i)));
                               });
  });
}

template <class Types, class R = void, class F>
array unary(const node_inputs& in, F f) {
  return map_values<Types, R>(in, {in[0]}, f);
}

template <class Types, class R = void, class F>
array binary(const node_inputs& in, F f) {
  if (in.opset < 7 && in.find("axis"))
    throw unsupported{};  // the legacy broadcast of opsets 1 to 6, along an axis
  return map_values<Types, R>(in, {in[0], in[1]}, f);
}

// Integer + - * wrap around as ONNX Runtime's do (in unsigned arithmetic, so without UB).
template <class T, class F>
T wrapping(T a, T b, F f) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(f(static_cast<U>(a), static_cast<U>(b)));
  } else {
    return f(a, b);
  }
}
template <class T>
T negate(T a) {
  if constexpr (std::is_integral_v<T>)
    return wrapping(T{0}, a, std::minus<>());
  else
    return -a;
}

// NaN is left to the runtime by Min, Max and their reductions: engines disagree on it.
template <class T>
void refuse_nan(T v) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(v)) throw unsupported{};
}

template <bool Max>
array min_max(const node_inputs& in) {
  if (in.inputs.empty()) in.fail("needs at least one input");
  const auto pick = [](auto a, auto b) {
    refuse_nan(a);
    refuse_nan(b);
    return Max ? std::max(a, b) : std::min(a, b);
  };
  auto out = map_values<number_type>(in, {in[0]}, [&](auto a) { return pick(a, a); });
  for (std::size_t i = 1; i < in.inputs.size(); ++i)
    out = map_values<number_type>(in, {out, in[i]}, pick);
  return out;
}

inline array div(const node_inputs& in) {
  return binary<number_type>(in, [](auto a, auto b) {
    using T = decltype(a);
    if constexpr (std::is_integral_v<T>)
      if (b == 0 || (a == std::numeric_limits<T>::min() && b == -1)) throw unsupported{};
    return static_cast<T>(a / b);  // integers truncate toward zero, as ONNX Runtime's
  });
}

inline array mod(const node_inputs& in) {
  const auto fmod = in.int_attribute("fmod", 0);
  if (fmod != 0 && fmod != 1) in.fail("fmod is " + std::to_string(fmod) + ", not 0 or 1");
  const auto type = in.tensor(0).type();
  if ((type == ir::dtype::f32 || type == ir::dtype::f64) && fmod == 0)
    in.fail("fmod must be 1 for floating-point inputs");
  return binary<number_type>(in, [fmod](auto x, auto y) {
    using T = decltype(x);
    if constexpr (std::is_floating_point_v<T>) {
      return std::fmod(x, y);
    } else {
      if (y == 0) throw unsupported{};
      if (y == -1) return T{0};  // also for the smallest value, whose x % -1 overflows
      const T r = x % y;         // the sign of x, as C's fmod
      return fmod == 0 && r != 0 && ((r < 0) != (y < 0)) ? static_cast<T>(r + y) : r;
    }
  });
}

// ONNX Runtime's pow: std::pow on the two types (the exponent's may differ since opset 12),
// cast to the base's type.
inline array pow(const node_inputs& in) {
  const auto base = in[0], exponent = in[1];
  return dispatch(base.type, number_type{}, [&]<class T>(std::type_identity<T>) {
    return dispatch(exponent.type, number_type{}, [&]<class E>(std::type_identity<E>) {
      return elementwise<T>(in, {base, exponent}, [](const std::vector<array>& v, std::int64_t i) {
        const auto r = std::pow(v[0].at<T>(i), v[1].at<E>(i));
        if constexpr (std::is_integral_v<T>)
          if (!(r >= static_cast<double>(std::numeric_limits<T>::min()) &&
                r < -static_cast<double>(std::numeric_limits<T>::min())))
            throw unsupported{};
        return static_cast<T>(r);
      });
    });
  });
}

inline array where(const node_inputs& in) {
  const auto condition = in[0], x = in[1], y = in[2];
  if (condition.type != ir::dtype::boolean)
    in.fail("the condition is " + std::string(ir::to_string(condition.type)) + ", not bool");
  in.same_types(x, y);
  return dispatch(x.type, any_type{}, [&]<class T>(std::type_identity<T>) {
    return elementwise<T>(in, {condition, x, y}, [](const std::vector<array>& v, std::int64_t i) {
      return v[0].at<bool>(i) ? v[1].at<T>(i) : v[2].at<T>(i);
    });
  });
}

// The value as U, as a static_cast; a float that does not fit U's range is left to the runtime.
template <class U, class T>
U convert_value(T v) {
  if constexpr (std::is_same_v<U, bool>) {
    return v != T{};
  } else if constexpr (std::is_floating_point_v<T> && std::is_integral_v<U>) {
    const double t = std::trunc(static_cast<double>(v));
    const double high = std::ldexp(1.0, std::numeric_limits<U>::digits);
    if (!(t >= (std::is_signed_v<U> ? -high : 0.0) && t < high)) throw unsupported{};  // NaN too
    return static_cast<U>(t);
  } else {
    return static_cast<U>(v);
  }
}

inline array cast(const node_inputs& in) {
  const auto to = in.find("to");
  if (!to) in.fail("attribute 'to' is missing");
  if (to->kind() != ir::attr_type::int_) throw unsupported{};  // opset 1's string form
  const auto x = in[0];
  return dispatch(x.type, any_type{}, [&]<class T>(std::type_identity<T>) {
    return dispatch(static_cast<ir::dtype>(to->i()), any_type{},
                    [&]<class U>(std::type_identity<U>) {
                      array out(ir::dtype_of<U>, x.dims);
                      for (std::int64_t i = 0; i < x.size(); ++i)
                        out.set<U>(i, convert_value<U>(x.at<T>(i)));
                      return out;
                    });
  });
}

// ---- Reductions ----

// ReduceSum and the others: axes an attribute before opset AxesInputSince, an optional input
// from then on, with noop_with_empty_axes.
template <int AxesInputSince, class F>
array reduction(const node_inputs& in, F f) {
  const auto data = in[0];
  std::optional<std::vector<std::int64_t>> axes;
  bool noop = false;
  if (in.opset >= AxesInputSince) {
    if (in.has(1)) axes = in.integers(1);
    noop = in.int_attribute("noop_with_empty_axes", 0) != 0;
  } else {
    axes = in.ints_attribute("axes");
  }
  if (!axes || axes->empty()) {
    if (noop) return data;
    axes.emplace(static_cast<std::size_t>(data.rank()));
    std::iota(axes->begin(), axes->end(), 0);
  }
  const auto normalized = normalize_axes(*axes, data.rank(), in.node);
  const bool keepdims = in.int_attribute("keepdims", 1) != 0;
  return dispatch(data.type, number_type{}, [&]<class T>(std::type_identity<T>) {
    return reduce<T>(data, normalized, keepdims, [&](const std::vector<T>& v) { return f(v); });
  });
}

// Sums and products of floats add up in double. ONNX Runtime reduces integers in double too,
// and saturates what does not fit (measured on 1.30: int64 2^62 + 4 gives 2^62, INT64_MAX + 1
// gives INT64_MAX): an integer reduction is folded only when every partial result, in any
// order, is exact both ways, that is when the sum of the magnitudes (the product of the
// magnitudes, each at least 1) is within 2^53 and the type's range; else it is left to the
// runtime.
template <class T>
std::uint64_t magnitude(T x) {
  return x < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x);
}
template <class T>
constexpr std::uint64_t exact_limit() {
  return std::min<std::uint64_t>(std::uint64_t{1} << 53,
                                 static_cast<std::uint64_t>(std::numeric_limits<T>::max()));
}
template <class T, class Op>
T accumulate(const std::vector<T>& v, int init, Op op) {
  if constexpr (std::is_integral_v<T>) {
    constexpr bool product = std::is_same_v<Op, std::multiplies<>>;
    std::uint64_t bound = product ? 1 : 0;
    for (auto x : v) {
      const std::uint64_t m = product ? std::max<std::uint64_t>(magnitude(x), 1) : magnitude(x);
      if (product ? m > exact_limit<T>() / bound : m > exact_limit<T>() - bound)
        throw unsupported{};
      bound = product ? bound * m : bound + m;
    }
    auto a = static_cast<T>(init);
    for (auto x : v) a = static_cast<T>(op(a, x));  // within the bound: no overflow
    return a;
  } else {
    auto a = static_cast<double>(init);
    for (auto x : v) a = op(a, static_cast<double>(x));
    return static_cast<T>(a);
  }
}

template <bool Max, class T>
T extreme(const std::vector<T>& v) {
  if (v.empty()) throw unsupported{};  // of nothing: engines disagree
  T out = v.front();
  for (auto x : v) {
    refuse_nan(x);
    out = Max ? std::max(out, x) : std::min(out, x);
  }
  return out;
}

// Integers: the sum (exact, as accumulate's) divided by the count in double and truncated, as
// ONNX Runtime does.
template <class T>
T mean(const std::vector<T>& v) {
  if (v.empty()) throw unsupported{};
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(static_cast<double>(accumulate(v, 0, std::plus<>())) /
                          static_cast<double>(v.size()));
  } else {
    double sum = 0;
    for (auto x : v) sum += x;
    return static_cast<T>(sum / static_cast<double>(v.size()));
  }
}

// ---- Shapes ----

inline array shape(const node_inputs& in) {
  const auto dims = in.tensor(0).dims();
  const auto rank = static_cast<std::int64_t>(dims.size());
  std::int64_t start = 0, end = rank;
  if (in.opset >= 15) {  // start and end, clamped
    const auto clamp = [rank](std::int64_t v) {
      return std::clamp(v < 0 ? v + rank : v, std::int64_t{0}, rank);
    };
    start = clamp(in.int_attribute("start", 0));
    end = clamp(in.int_attribute("end", rank));
  }
  array out(ir::dtype::i64, {std::max<std::int64_t>(end - start, 0)});
  for (std::int64_t i = 0; i < out.size(); ++i)
    out.set<std::int64_t>(i, dims[static_cast<std::size_t>(start + i)]);
  return out;
}

inline array size(const node_inputs& in) {
  array out(ir::dtype::i64, {});
  out.set<std::int64_t>(0, in.tensor(0).element_count());
  return out;
}

inline array with_dims(array a, ir::dims_t dims) {
  a.dims = std::move(dims);
  return a;
}

inline array reshape(const node_inputs& in) {
  const auto data = in[0];
  const auto shape = in.opset < 5 ? in.required_ints("shape") : in.integers(1);
  const bool allowzero = in.opset >= 14 && in.int_attribute("allowzero", 0) != 0;
  const auto refuse = [&] {
    in.fail("cannot reshape " + ir::format_dims(data.dims) + " to " + values_text(shape));
  };
  auto dims = shape;
  std::optional<std::size_t> inferred;
  std::int64_t known = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] == 0 && !allowzero) {
      if (i >= data.dims.size()) refuse();
      dims[i] = data.dims[i];  // 0 copies the input's dim
    }
    if (dims[i] == -1) {
      if (inferred || (allowzero && std::count(dims.begin(), dims.end(), 0))) refuse();
      inferred = i;
    } else if (dims[i] < 0) {
      refuse();
    } else {
      known *= dims[i];
    }
  }
  if (inferred) {
    if (known == 0 || data.size() % known != 0) refuse();
    dims[*inferred] = data.size() / known;
  }
  if (ir::element_count(dims) != data.size()) refuse();
  return with_dims(data, dims);
}

inline array flatten(const node_inputs& in) {
  const auto data = in[0];
  const auto middle =
      data.dims.begin() + in.axis(in.int_attribute("axis", 1), data.rank(), /*or_rank=*/true);
  return with_dims(data, {ir::element_count({data.dims.begin(), middle}),
                          ir::element_count({middle, data.dims.end()})});
}

inline array unsqueeze(const node_inputs& in) {
  const auto data = in[0];
  auto axes = in.opset < 13 ? in.required_ints("axes") : in.integers(1);
  const auto rank = data.rank() + static_cast<std::int64_t>(axes.size());
  axes = normalize_axes(axes, rank, in.node);
  ir::dims_t dims;
  auto next = data.dims.begin();
  for (std::int64_t i = 0; i < rank; ++i)
    dims.push_back(std::count(axes.begin(), axes.end(), i) ? 1 : *next++);
  return with_dims(data, dims);
}

inline array squeeze(const node_inputs& in) {
  const auto data = in[0];
  std::optional<std::vector<std::int64_t>> axes;
  if (in.opset < 13)
    axes = in.ints_attribute("axes");
  else if (in.has(1))
    axes = in.integers(1);
  if (axes) *axes = normalize_axes(*axes, data.rank(), in.node);
  ir::dims_t dims;
  for (std::int64_t i = 0; i < data.rank(); ++i) {
    const auto d = data.dims[static_cast<std::size_t>(i)];
    const bool listed = axes && std::count(axes->begin(), axes->end(), i);
    if (listed && d != 1)
      in.fail("axis " + std::to_string(i) + " of " + ir::format_dims(data.dims) + " is not 1");
    if (axes ? !listed : d != 1) dims.push_back(d);  // no axes: every 1 goes
  }
  return with_dims(data, dims);
}

// ---- Data movement: views, and the two ops that copy blocks ----

inline array transpose(const node_inputs& in) {
  const auto data = in[0];
  std::vector<std::int64_t> perm(static_cast<std::size_t>(data.rank()));
  std::iota(perm.rbegin(), perm.rend(), 0);  // reversed by default
  if (auto given = in.ints_attribute("perm")) perm = *given;
  std::vector<std::int64_t> identity(data.dims.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (!std::is_permutation(perm.begin(), perm.end(), identity.begin(), identity.end()))
    in.fail("perm " + values_text(perm) + " is not a permutation of " + values_text(identity));
  const auto own = strides_of(data.dims);
  ir::dims_t dims;
  std::vector<std::int64_t> strides;
  for (auto p : perm) {
    dims.push_back(data.dims[static_cast<std::size_t>(p)]);
    strides.push_back(own[static_cast<std::size_t>(p)]);
  }
  return view(data, 0, dims, strides);
}

inline array expand(const node_inputs& in) {
  const auto data = in[0];
  const auto shape = in.integers(1);
  const auto dims = broadcast_dims(data.dims, shape);
  if (!dims) in.fail(ir::format_dims(data.dims) + " does not broadcast with " + values_text(shape));
  return broadcast_to(data, *dims);
}

// Each axis repeated: a view of dims [r0, d0, r1, d1, ...] whose r axes have stride 0.
inline array tile(const node_inputs& in) {
  if (in.opset < 6) throw unsupported{};  // opset 1's tiles and axis inputs
  const auto data = in[0];
  const auto repeats = in.integers(1);
  if (repeats.size() != data.dims.size())
    in.fail("repeats " + values_text(repeats) + " do not match rank " +
            std::to_string(data.rank()));
  const auto own = strides_of(data.dims);
  ir::dims_t view_dims, dims;
  std::vector<std::int64_t> strides;
  for (std::size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i] < 0) in.fail("repeats " + values_text(repeats) + " has a negative value");
    view_dims.insert(view_dims.end(), {repeats[i], data.dims[i]});
    strides.insert(strides.end(), {0, own[i]});
    dims.push_back(repeats[i] * data.dims[i]);
  }
  return with_dims(view(data, 0, view_dims, strides), dims);
}

// A view: start and step on each sliced axis, after ONNX's clamping.
inline array slice(const node_inputs& in) {
  const auto data = in[0];
  std::vector<std::int64_t> starts, ends;
  std::optional<std::vector<std::int64_t>> given_axes, given_steps;
  if (in.opset < 10) {
    starts = in.required_ints("starts");
    ends = in.required_ints("ends");
    given_axes = in.ints_attribute("axes");
  } else {
    starts = in.integers(1);
    ends = in.integers(2);
    if (in.has(3)) given_axes = in.integers(3);
    if (in.has(4)) given_steps = in.integers(4);
  }
  std::vector<std::int64_t> axes(starts.size());
  std::iota(axes.begin(), axes.end(), 0);
  if (given_axes) axes = normalize_axes(*given_axes, data.rank(), in.node);
  const auto steps = given_steps.value_or(std::vector<std::int64_t>(starts.size(), 1));
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    in.fail("starts, ends, axes and steps have different lengths");
  if (!given_axes && static_cast<std::int64_t>(axes.size()) > data.rank())
    in.fail("more starts than the rank " + std::to_string(data.rank()));
  auto dims = data.dims;
  auto strides = strides_of(data.dims);
  std::int64_t offset = 0;
  const auto clamp = [](std::int64_t v, std::int64_t low, std::int64_t high) {
    return std::min(std::max(v, low), high);
  };
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const auto axis = static_cast<std::size_t>(axes[i]);
    const auto d = data.dims[axis], step = steps[i];
    if (step == 0) in.fail("a step is 0");
    auto start = starts[i] < 0 ? starts[i] + d : starts[i];
    auto end = ends[i] < 0 ? ends[i] + d : ends[i];
    std::int64_t n = 0;
    if (step > 0) {
      start = clamp(start, 0, d);
      end = clamp(end, 0, d);
      n = end > start ? 1 + (end - start - 1) / step : 0;
    } else {
      start = clamp(start, 0, d - 1);
      end = clamp(end, -1, d - 1);
      const auto back = step == std::numeric_limits<std::int64_t>::min()
                            ? std::numeric_limits<std::int64_t>::max()
                            : -step;
      n = start > end ? 1 + (start - end - 1) / back : 0;
    }
    if (n > 0) offset += start * strides[axis];
    dims[axis] = n;
    strides[axis] = n > 1 ? strides[axis] * step : 0;
  }
  return view(data, offset, dims, strides);
}

// An index as ONNX gives it (negative from the end) made 0..n-1; nullopt when out of range.
inline std::optional<std::int64_t> position(std::int64_t k, std::int64_t n) {
  if (k < -n || k >= n) return std::nullopt;
  return k < 0 ? k + n : k;
}

inline array gather(const node_inputs& in) {
  const auto data = in[0], indices = in[1];
  if (data.rank() == 0) in.fail("data is a scalar");
  const auto axis = in.axis(in.int_attribute("axis", 0), data.rank());
  const auto middle = data.dims.begin() + axis;
  const auto n = *middle;
  const auto outer = ir::element_count({data.dims.begin(), middle});
  const auto block =
      static_cast<std::size_t>(ir::element_count({middle + 1, data.dims.end()})) * data.width();
  ir::dims_t dims(data.dims.begin(), middle);
  dims.insert(dims.end(), indices.dims.begin(), indices.dims.end());
  dims.insert(dims.end(), middle + 1, data.dims.end());
  std::vector<std::int64_t> picks;
  for (const auto k : index_values(indices)) {
    const auto p = position(k, n);
    if (!p)
      in.fail("index " + std::to_string(k) + " is out of range for axis " + std::to_string(axis) +
              " of " + ir::format_dims(data.dims));
    picks.push_back(*p);
  }
  array out(data.type, dims);
  auto* to = out.bytes.data();
  for (std::int64_t o = 0; o < outer; ++o)
    for (auto k : picks) {
      std::memcpy(to, data.bytes.data() + static_cast<std::size_t>(o * n + k) * block, block);
      to += block;
    }
  return out;
}

// ---- GatherND and the scatters: blocks of data at offsets the indices give ----
// An index out of range is left to the runtime (ONNX Runtime fails the run).

// The slices of GatherND and ScatterND: indices [..., k] hold k-tuples, each the start of a
// slice of data's last rank - k axes. Their offsets in data, the slice's element count, and
// the dims of the slices together (GatherND's result, ScatterND's updates): indices' dims
// but the last, then data's last rank - k.
struct nd_slices {
  std::vector<std::int64_t> offsets;
  std::int64_t size;
  ir::dims_t dims;
};

inline nd_slices slices_of(const node_inputs& in, const array& data, const array& indices) {
  if (indices.rank() == 0) in.fail("indices are a scalar");
  const auto k = indices.dims.back();
  if (k > data.rank())
    in.fail("indices of " + ir::format_dims(indices.dims) + " index more axes than " +
            ir::format_dims(data.dims) + " has");
  const auto values = index_values<type_list<std::int64_t>>(indices);
  const auto tail = data.dims.begin() + k;
  nd_slices out{{}, ir::element_count({tail, data.dims.end()}), {}};
  out.dims.assign(indices.dims.begin(), indices.dims.end() - 1);
  const auto count = ir::element_count(out.dims);
  if (count > array::max_bytes) throw unsupported{};  // k = 0: no index values bound it
  out.dims.insert(out.dims.end(), tail, data.dims.end());
  const auto strides = strides_of(data.dims);
  for (std::int64_t j = 0; j < count; ++j) {
    std::int64_t offset = 0;
    for (std::int64_t a = 0; a < k; ++a) {
      const auto i = static_cast<std::size_t>(a);
      const auto p = position(values[static_cast<std::size_t>(j * k + a)], data.dims[i]);
      if (!p) throw unsupported{};
      offset += *p * strides[i];
    }
    out.offsets.push_back(offset);
  }
  return out;
}

inline array gather_nd(const node_inputs& in) {
  if (in.int_attribute("batch_dims", 0) != 0) throw unsupported{};
  const auto data = in[0];
  const auto slices = slices_of(in, data, in[1]);
  array out(data.type, slices.dims);
  const auto block = static_cast<std::size_t>(slices.size) * data.width();
  for (std::size_t j = 0; j < slices.offsets.size(); ++j)
    std::memcpy(out.bytes.data() + j * block,
                data.bytes.data() + static_cast<std::size_t>(slices.offsets[j]) * data.width(),
                block);
  return out;
}

// data with block j of updates (of `block` elements) written at element offsets[j], in order,
// or added or multiplied in, per the scatters' `reduction` (from opset 16; min and max, from
// 18, are left to the runtime). With none, an element written twice is left to the runtime
// too: the spec leaves it undefined.
inline array scatter(const node_inputs& in, array data, const array& updates,
                     const std::vector<std::int64_t>& offsets, std::int64_t block) {
  in.same_types(data, updates);
  if (in.opset < 16 && in.find("reduction")) throw unsupported{};
  const auto reduction = in.string_attribute("reduction", "none");
  if (reduction == "none") {
    auto sorted = offsets;
    std::sort(sorted.begin(), sorted.end());
    if (block > 0 && std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      throw unsupported{};
    const auto w = static_cast<std::size_t>(block) * data.width();
    for (std::size_t j = 0; j < offsets.size(); ++j)
      std::memcpy(data.bytes.data() + static_cast<std::size_t>(offsets[j]) * data.width(),
                  updates.bytes.data() + j * w, w);
    return data;
  }
  if (reduction != "add" && reduction != "mul") throw unsupported{};
  return dispatch(data.type, number_type{}, [&]<class T>(std::type_identity<T>) {
    for (std::size_t j = 0; j < offsets.size(); ++j)
      for (std::int64_t e = 0; e < block; ++e) {
        const auto to = offsets[j] + e;
        const auto u = updates.at<T>(static_cast<std::int64_t>(j) * block + e);
        data.set<T>(to, reduction == "add" ? wrapping(data.at<T>(to), u, std::plus<>())
                                           : wrapping(data.at<T>(to), u, std::multiplies<>()));
      }
    return data;
  });
}

inline array scatter_nd(const node_inputs& in) {
  const auto data = in[0], updates = in[2];
  const auto slices = slices_of(in, data, in[1]);
  if (updates.dims != slices.dims)
    in.fail("updates are " + ir::format_dims(updates.dims) + ", not " +
            ir::format_dims(slices.dims));
  return scatter(in, data, updates, slices.offsets, slices.size);
}

// Element [i0, ..., ir-1] of updates goes to data's element with index[i0, ..., ir-1] in
// place of i_axis.
inline array scatter_elements(const node_inputs& in) {
  const auto data = in[0], indices = in[1], updates = in[2];
  const auto axis = static_cast<std::size_t>(in.axis(in.int_attribute("axis", 0), data.rank()));
  if (indices.rank() != data.rank() || updates.dims != indices.dims)
    in.fail("indices of " + ir::format_dims(indices.dims) + " and updates of " +
            ir::format_dims(updates.dims) + " do not fit data of " + ir::format_dims(data.dims));
  for (std::size_t d = 0; d < data.dims.size(); ++d)
    if (d != axis && indices.dims[d] > data.dims[d]) throw unsupported{};  // ORT fails the run
  const auto strides = strides_of(data.dims);
  std::vector<std::int64_t> offsets, at(data.dims.size(), 0);
  for (const auto k : index_values(indices)) {
    const auto p = position(k, data.dims[axis]);
    if (!p) throw unsupported{};
    std::int64_t offset = 0;
    for (std::size_t d = 0; d < at.size(); ++d) offset += (d == axis ? *p : at[d]) * strides[d];
    offsets.push_back(offset);
    for (std::size_t d = at.size(); d-- > 0;) {  // the next index, last axis fastest
      if (++at[d] < indices.dims[d]) break;
      at[d] = 0;
    }
  }
  return scatter(in, data, updates, offsets, 1);
}

inline array concat(const node_inputs& in) {
  if (in.inputs.empty()) in.fail("needs at least one input");
  const auto given = in.attribute("axis", ir::attr_type::int_);
  if (!given) in.fail("attribute 'axis' is missing");
  std::vector<array> parts;
  for (std::size_t i = 0; i < in.inputs.size(); ++i) parts.push_back(in[i]);
  const auto& first = parts.front();
  const auto axis = static_cast<std::size_t>(in.axis(given->i(), first.rank()));
  const auto others = [axis](ir::dims_t d) {  // the dims that must match
    if (axis < d.size()) d[axis] = 0;
    return d;
  };
  auto dims = others(first.dims);
  for (const auto& p : parts) {
    if (p.type != first.type || others(p.dims) != dims)
      in.fail("cannot join " + std::string(ir::to_string(first.type)) + " " +
              ir::format_dims(first.dims) + " and " + std::string(ir::to_string(p.type)) + " " +
              ir::format_dims(p.dims) + " on axis " + std::to_string(axis));
  }
  for (const auto& p : parts) dims[axis] += p.dims[axis];
  array out(first.type, dims);
  const auto outer =
      ir::element_count({dims.begin(), dims.begin() + static_cast<std::ptrdiff_t>(axis)});
  auto* to = out.bytes.data();
  for (std::int64_t o = 0; o < outer; ++o)
    for (const auto& p : parts) {
      const auto block = p.bytes.size() / static_cast<std::size_t>(outer);
      std::memcpy(to, p.bytes.data() + static_cast<std::size_t>(o) * block, block);
      to += block;
    }
  return out;
}

// ---- Generators ----

inline array constant_of_shape(const node_inputs& in) {
  const auto dims = in.integers(0);
  for (auto d : dims)
    if (d < 0) in.fail("shape " + values_text(dims) + " has a negative dim");
  array value(ir::dtype::f32, {1});  // 0.0f by default
  if (const auto t = in.tensor_attribute("value")) value = read_array(*t, in.node);
  if (value.size() != 1)
    in.fail("value holds " + std::to_string(value.size()) + " elements, not one");
  array out(value.type, dims);
  for (std::size_t i = 0; i < out.bytes.size(); i += value.bytes.size())
    std::memcpy(out.bytes.data() + i, value.bytes.data(), value.bytes.size());
  return out;
}

// As ONNX Runtime computes it: the count from (limit - start) / delta, the values by adding
// delta to start again and again.
inline array range(const node_inputs& in) {
  const auto start = in[0], limit = in[1], delta = in[2];
  if (start.type != limit.type || start.type != delta.type) in.fail("inputs of different types");
  if (start.size() != 1 || limit.size() != 1 || delta.size() != 1)
    in.fail("inputs are not scalars");
  return dispatch(start.type, number_type{}, [&]<class T>(std::type_identity<T>) {
    T value = start.at<T>(0);
    const T last = limit.at<T>(0), step = delta.at<T>(0);
    if (step == T{0}) in.fail("delta is 0");
    const double distance = std::is_integral_v<T>
                                ? static_cast<double>(last) - static_cast<double>(value)
                                : static_cast<double>(last - value);
    const double count = std::ceil(distance / static_cast<double>(step));
    if (!(count < static_cast<double>(array::max_bytes))) throw unsupported{};  // NaN too
    array out(start.type, {count > 0 ? static_cast<std::int64_t>(count) : 0});
    for (std::int64_t i = 0; i < out.size(); ++i) {
      out.set<T>(i, value);
      value = wrapping(value, step, std::plus<>());
    }
    return out;
  });
}

// ---- The table ----

// An op made of an element-wise function or a reduction F (a function object type), as a
// plain function the table can hold.
template <class Types, class R, class F>
array run_unary(const node_inputs& in) {
  return unary<Types, R>(in, F{});
}
template <class Types, class R, class F>
array run_binary(const node_inputs& in) {
  return binary<Types, R>(in, F{});
}
template <int AxesInputSince, class F>
array run_reduction(const node_inputs& in) {
  return reduction<AxesInputSince>(in, F{});
}

inline constexpr auto add_values = [](auto a, auto b) { return wrapping(a, b, std::plus<>()); };
inline constexpr auto sub_values = [](auto a, auto b) { return wrapping(a, b, std::minus<>()); };
inline constexpr auto mul_values = [](auto a, auto b) {
  return wrapping(a, b, std::multiplies<>());
};
inline constexpr auto neg_value = [](auto a) { return negate(a); };
inline constexpr auto abs_value = [](auto a) { return a < 0 ? negate(a) : a; };
inline constexpr auto sqrt_value = [](auto a) { return std::sqrt(a); };
inline constexpr auto reciprocal_value = [](auto a) { return 1 / a; };
inline constexpr auto floor_value = [](auto a) { return std::floor(a); };
inline constexpr auto ceil_value = [](auto a) { return std::ceil(a); };
inline constexpr auto max_of = [](const auto& v) { return extreme<true>(v); };
inline constexpr auto min_of = [](const auto& v) { return extreme<false>(v); };
inline constexpr auto sum_of = [](const auto& v) { return accumulate(v, 0, std::plus<>()); };
inline constexpr auto mean_of = [](const auto& v) { return mean(v); };
inline constexpr auto product_of = [](const auto& v) {
  return accumulate(v, 1, std::multiplies<>());
};

using run_op = array (*)(const node_inputs&);
inline constexpr run_op identity_op = [](const node_inputs& in) { return in[0]; };

// Op type to its function; an op listed twice does not compile.
inline constexpr auto op_table = make_string_table<
    entry<"Identity", identity_op>, entry<"Cast", &cast>, entry<"Shape", &shape>,
    entry<"Size", &size>, entry<"Gather", &gather>, entry<"GatherND", &gather_nd>,
    entry<"ScatterND", &scatter_nd>, entry<"ScatterElements", &scatter_elements>,
    entry<"Unsqueeze", &unsqueeze>, entry<"Squeeze", &squeeze>, entry<"Concat", &concat>,
    entry<"Slice", &slice>, entry<"Reshape", &reshape>, entry<"Flatten", &flatten>,
    entry<"Transpose", &transpose>, entry<"Expand", &expand>, entry<"Tile", &tile>,
    entry<"ConstantOfShape", &constant_of_shape>, entry<"Range", &range>, entry<"Where", &where>,
    entry<"Equal", &run_binary<comparable_type, bool, std::equal_to<>>>,
    entry<"Less", &run_binary<number_type, bool, std::less<>>>,
    entry<"Greater", &run_binary<number_type, bool, std::greater<>>>,
    entry<"Not", &run_unary<bool_type, void, std::logical_not<>>>,
    entry<"And", &run_binary<bool_type, void, std::logical_and<>>>,
    entry<"Or", &run_binary<bool_type, void, std::logical_or<>>>,
    entry<"Add", &run_binary<number_type, void, decltype(add_values)>>,
    entry<"Sub", &run_binary<number_type, void, decltype(sub_values)>>,
    entry<"Mul", &run_binary<number_type, void, decltype(mul_values)>>, entry<"Div", &div>,
    entry<"Mod", &mod>, entry<"Pow", &pow>,
    entry<"Neg", &run_unary<number_type, void, decltype(neg_value)>>,
    entry<"Abs", &run_unary<number_type, void, decltype(abs_value)>>,
    entry<"Sqrt", &run_unary<float_type, void, decltype(sqrt_value)>>,
    entry<"Reciprocal", &run_unary<float_type, void, decltype(reciprocal_value)>>,
    entry<"Floor", &run_unary<float_type, void, decltype(floor_value)>>,
    entry<"Ceil", &run_unary<float_type, void, decltype(ceil_value)>>,
    entry<"Min", &min_max<false>>, entry<"Max", &min_max<true>>,
    entry<"ReduceMax", &run_reduction<18, decltype(max_of)>>,
    entry<"ReduceMin", &run_reduction<18, decltype(min_of)>>,
    entry<"ReduceSum", &run_reduction<13, decltype(sum_of)>>,
    entry<"ReduceMean", &run_reduction<18, decltype(mean_of)>>,
    entry<"ReduceProd", &run_reduction<18, decltype(product_of)>>>();

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_EVALUATE_OPS_HPP
