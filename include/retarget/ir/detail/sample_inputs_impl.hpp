// The definitions of ir/sample_inputs.hpp: inline header-only, compiled once into
// retarget::compiled otherwise (a random tensor of each element type instantiates a tensor
// maker per type, which no user's unit needs to compile).
#ifndef RETARGET_IR_DETAIL_SAMPLE_INPUTS_IMPL_HPP
#define RETARGET_IR_DETAIL_SAMPLE_INPUTS_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <retarget/core/error.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/inspect.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/tensor_values.hpp>
#include <retarget/ir/value.hpp>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace retarget::ir {

// The model's inputs in order, without those an initializer gives (weights).
RETARGET_LAZY_DEF std::vector<model_input> inputs_of(const model& m) {
  const auto& g = m.graph();
  std::set<std::string> weights;
  for (const auto& t : g.initializer()) weights.insert(t.name());
  std::vector<model_input> out;
  for (const auto& v : g.input()) {
    if (weights.contains(v.name())) continue;
    auto& in = out.emplace_back();
    in.name = v.name();
    if (v.type().has_tensor_type()) {
      in.type = static_cast<dtype>(v.type().tensor_type().elem_type());
      in.shape = dims_of(v.type().tensor_type().shape());
    }
  }
  return out;
}

RETARGET_LAZY_DEF std::vector<model_output> outputs_of(const model& m) {
  std::vector<model_output> out;
  for (const auto& v : m.graph().output()) {
    auto& o = out.emplace_back();
    o.name = v.name();
    if (v.type().has_tensor_type()) {
      o.type = static_cast<dtype>(v.type().tensor_type().elem_type());
      if (v.type().tensor_type().has_shape()) o.shape = dims_of(v.type().tensor_type().shape());
    }
  }
  return out;
}

namespace detail {

// The declared dims for an output given as `given`: the declared ones when all are static and
// hold as many elements; with dynamic dims, when the two agree once their 1s are left out (a
// [3, 1] for [n]), each dynamic dim taking the given size. nullopt otherwise: a [1, 144] for
// [n, 48] is not guessed at.
inline std::optional<dims_t> declared_dims(const std::vector<dim>& shape, const dims_t& given) {
  const auto count = element_count(given);
  dims_t dims;
  bool all_static = true;
  for (const auto& d : shape) {
    dims.push_back(d.is_static() ? d.size : -1);
    all_static = all_static && d.is_static();
  }
  if (all_static) return element_count(dims) == count ? std::optional(dims) : std::nullopt;
  std::vector<std::size_t> declared_at, given_at;  // the axes that are not 1
  for (std::size_t i = 0; i < dims.size(); ++i)
    if (dims[i] != 1) declared_at.push_back(i);
  for (std::size_t i = 0; i < given.size(); ++i)
    if (given[i] != 1) given_at.push_back(i);
  if (declared_at.size() != given_at.size()) return std::nullopt;
  for (std::size_t k = 0; k < declared_at.size(); ++k) {
    auto& d = dims[declared_at[k]];
    const auto g = given[given_at[k]];
    if (d >= 0 && d != g) return std::nullopt;
    d = g;
  }
  // A dynamic dim the given 1s were left out for is 1.
  for (auto& d : dims)
    if (d < 0) d = 1;
  return element_count(dims) == count ? std::optional(dims) : std::nullopt;
}

}  // namespace detail

RETARGET_LAZY_DEF tensor as_declared(const model_output& out, tensor t) {
  const auto given = t.dims();
  const auto count = element_count(given);
  // An output declared with no shape at all says nothing of its rank.
  const auto dims = out.shape.empty() && count != 1 ? std::optional<dims_t>()
                                                    : detail::declared_dims(out.shape, given);
  const bool retype = t.type() == dtype::f32 && out.type != dtype::undefined &&
                      out.type != dtype::f32 && out.type != dtype::f16 && out.type != dtype::bf16 &&
                      out.type != dtype::string && out.type != dtype::c64 &&
                      out.type != dtype::c128;
  if ((!dims || *dims == given) && !retype) return t;
  const auto& new_dims = dims ? *dims : given;
  if (!retype) {
    t.proto().clear_dims();
    for (const auto d : new_dims) t.proto().add_dims(d);
    return t;
  }
  const auto values = values_of<float>(t.proto());
  return visit_element_type(out.type, [&]<class T>(std::type_identity<T>) {
    // Bools are stored a byte each (std::vector<bool> has no bytes to give).
    using stored = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;
    std::vector<stored> converted;
    converted.reserve(values.size());
    for (const float v : values) {
      if constexpr (std::is_same_v<T, bool>)
        converted.push_back(v != 0);
      else if constexpr (std::is_floating_point_v<T>)
        converted.push_back(static_cast<T>(v));
      else
        converted.push_back(static_cast<T>(std::llround(v)));
    }
    return tensor::from_raw(out.type, new_dims, std::as_bytes(std::span(converted)));
  });
}

// The dims to feed `in` with: its static dims, and the dynamic ones from `given` (a whole
// shape, which must agree with the static dims). retarget::error naming the input and the
// dim when a dynamic dim has no value.
RETARGET_LAZY_DEF dims_t concrete_dims(const model_input& in, const std::optional<dims_t>& given) {
  const auto& shape = in.shape;
  if (given) {
    if (given->size() != shape.size())
      throw error("retarget: input '" + in.name + "' has rank " + std::to_string(shape.size()) +
                  " " + to_string(shape) + ", not " + std::to_string(given->size()) + " as in " +
                  format_dims(*given));
    for (std::size_t i = 0; i < shape.size(); ++i) {
      const auto v = (*given)[i];
      if (v < 0)
        throw error("retarget: input '" + in.name + "' cannot take " + format_dims(*given) +
                    ": axis " + std::to_string(i) + " is negative");
      if (shape[i].is_static() && shape[i].size != v)
        throw error("retarget: input '" + in.name + "' " + to_string(shape) + " cannot take " +
                    format_dims(*given) + ": axis " + std::to_string(i) + " is " +
                    std::to_string(shape[i].size));
    }
    return *given;
  }
  dims_t dims;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const auto& d = shape[i];
    if (!d.is_static())
      throw error("retarget: input '" + in.name + "' " + to_string(shape) + " has a dynamic dim" +
                  (d.is_symbolic() ? " '" + d.symbol + "'" : std::string()) + " at axis " +
                  std::to_string(i) + ": give its shape (--shape " + in.name + "=" +
                  [&] {
                    std::string example;
                    for (std::size_t j = 0; j < shape.size(); ++j)
                      example +=
                          (j ? "x" : "") +
                          (shape[j].is_static() ? std::to_string(shape[j].size) : std::string("N"));
                    return example;
                  }() +
                  ")");
    dims.push_back(d.size);
  }
  return dims;
}

// Why `t` cannot feed `in` (its element type or its dims), or "" when it can.
RETARGET_LAZY_DEF std::string mismatch(const model_input& in, const tensor& t) {
  if (in.type != dtype::undefined && t.type() != in.type)
    return std::string(to_string(t.type())) + ", but the model's input '" + in.name + "' is " +
           std::string(to_string(in.type));
  const auto dims = t.dims();
  const auto& shape = in.shape;
  bool fits = dims.size() == shape.size();
  for (std::size_t i = 0; fits && i < shape.size(); ++i)
    fits = !shape[i].is_static() || shape[i].size == dims[i];
  if (!fits)
    return "dims " + format_dims(dims) + ", but the model's input '" + in.name + "' is " +
           to_string(shape);
  return {};
}

// retarget::error "FILE does not fit MODEL: why" when `t`, read from `file`, cannot feed `in`
// of the model read from `model_file`: how the tool and the backend consoles refuse an input.
RETARGET_LAZY_DEF void check_fits(const model_input& in, const tensor& t,
                                  const std::filesystem::path& file,
                                  const std::filesystem::path& model_file) {
  if (const auto why = mismatch(in, t); !why.empty())
    throw error("retarget: " + file.string() + " does not fit " + model_file.string() + ": " + why);
}

namespace detail {

// Sebastiano Vigna's splitmix64: small, fast, and the same on every platform.
struct splitmix64 {
  std::uint64_t state;
  std::uint64_t next() noexcept {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  double unit() noexcept { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
};

inline std::uint64_t fnv1a(std::string_view text) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

}  // namespace detail

// A tensor of random values from `seed`: floating-point uniform in [-1, 1), integers uniform
// in [0, 10) (small enough to be valid indices and counts of small axes), bools 0 or 1.
RETARGET_LAZY_DEF tensor random_tensor(dtype type, const dims_t& dims, std::uint64_t seed) {
  detail::splitmix64 random{seed};
  const auto n = static_cast<std::size_t>(element_count(dims));
  const auto fill = [&]<class T>(T, auto draw) {
    std::vector<T> values(n);
    for (auto& v : values) v = static_cast<T>(draw());
    return tensor::of<T>(values, dims);
  };
  const auto real = [&] { return random.unit() * 2 - 1; };
  const auto small = [&] { return static_cast<std::int64_t>(random.next() % 10); };
  switch (type) {
    case dtype::f32:
      return fill(float{}, real);
    case dtype::f64:
      return fill(double{}, real);
    case dtype::i64:
      return fill(std::int64_t{}, small);
    case dtype::i32:
      return fill(std::int32_t{}, small);
    case dtype::i16:
      return fill(std::int16_t{}, small);
    case dtype::i8:
      return fill(std::int8_t{}, small);
    case dtype::u8:
      return fill(std::uint8_t{}, small);
    case dtype::u16:
      return fill(std::uint16_t{}, small);
    case dtype::u32:
      return fill(std::uint32_t{}, small);
    case dtype::u64:
      return fill(std::uint64_t{}, small);
    case dtype::boolean: {  // one byte each, 0 or 1 (std::vector<bool> packs bits)
      std::vector<std::uint8_t> bits(n);
      for (auto& b : bits) b = static_cast<std::uint8_t>(random.next() >> 63);
      return tensor::from_raw(dtype::boolean, dims, std::as_bytes(std::span(bits)));
    }
    default:
      throw error("retarget: no random values for " + std::string(to_string(type)) +
                  " inputs: give the tensor from a file");
  }
}

// A random tensor for the input: its numbers depend on the seed and the input's name only,
// not on the model's other inputs. retarget::error, before anything is allocated, when it
// would be bigger than sample_limit.
RETARGET_LAZY_DEF tensor sample_input(const model_input& in, const dims_t& dims,
                                      std::uint64_t seed) {
  std::uint64_t bytes = size_of(in.type) ? size_of(in.type) : 1;
  bool overflow = false;
  for (const auto d : dims)
    overflow = overflow || __builtin_mul_overflow(bytes, static_cast<std::uint64_t>(d), &bytes);
  if (overflow || bytes > sample_limit)
    throw error("retarget: input '" + in.name + "' " + std::string(to_string(in.type)) + " " +
                format_dims(dims) + " is " +
                (overflow ? std::string("more than 16 EiB") : human_bytes(bytes)) +
                ", more than the " + human_bytes(sample_limit) +
                " retarget generates: give it from a file, or smaller dims");
  return random_tensor(in.type, dims, seed ^ detail::fnv1a(in.name));
}

// Every input the model takes: from `given` where it is there (checked to fit), else a random
// tensor (sample_input) of the dims in `shapes`, which a dynamic dim needs.
RETARGET_LAZY_DEF std::map<std::string, tensor> sample_inputs(
    const model& m, const std::map<std::string, dims_t>& shapes, std::uint64_t seed,
    std::map<std::string, tensor> given) {
  std::map<std::string, tensor> out;
  for (const auto& in : inputs_of(m)) {
    if (auto t = given.extract(in.name)) {
      if (const auto why = mismatch(in, t.mapped()); !why.empty())
        throw error("retarget: input '" + in.name + "': " + why);
      out.insert(std::move(t));
      continue;
    }
    const auto shape = shapes.find(in.name);
    const auto dims =
        concrete_dims(in, shape == shapes.end() ? std::nullopt : std::optional(shape->second));
    out.emplace(in.name, sample_input(in, dims, seed));
  }
  for (const auto& [name, t] : given)
    throw error("retarget: the model has no input '" + name + "'");
  for (const auto& [name, dims] : shapes)
    if (!out.contains(name))
      throw error("retarget: the model has no input '" + name + "' to give a shape to");
  return out;
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_SAMPLE_INPUTS_IMPL_HPP
