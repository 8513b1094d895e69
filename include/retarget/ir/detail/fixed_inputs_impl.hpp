// The definitions of ir/fixed_inputs.hpp: inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_IR_DETAIL_FIXED_INPUTS_IMPL_HPP
#define RETARGET_IR_DETAIL_FIXED_INPUTS_IMPL_HPP

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <retarget/core/closest_names.hpp>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/fixed_inputs.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/tensor.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::ir {

namespace detail {

// The graph input `name` (not an initializer's default); retarget::error naming the closest.
inline const onnx::ValueInfoProto& graph_input_named(const model& m, const std::string& name) {
  const auto& g = m.proto().graph();
  std::vector<std::string_view> names;
  for (const auto& in : g.input()) {
    bool weight = false;
    for (const auto& t : g.initializer()) weight = weight || t.name() == in.name();
    if (weight) continue;
    if (in.name() == name) return in;
    names.push_back(in.name());
  }
  throw error("retarget: the model has no input '" + name +
              "' (closest: " + join_names(closest_names(name, names)) + ")");
}

template <class T>
tensor tensor_of_numbers(const std::vector<double>& values, dims_t dims) {
  std::vector<T> typed;
  typed.reserve(values.size());
  for (const double v : values) typed.push_back(static_cast<T>(v));
  return tensor::of<T>(typed, std::move(dims));
}

}  // namespace detail

RETARGET_COMPILED_DECL model with_input_fixed(const model& m, const std::string& name,
                                              const tensor& value) {
  const auto& in = detail::graph_input_named(m, name);
  const auto& type = in.type().tensor_type();
  const auto declared = static_cast<dtype>(type.elem_type());
  if (declared != value.type())
    throw error("retarget: input '" + name + "' is " + std::string(to_string(declared)) +
                ", the value given is " + std::string(to_string(value.type())));
  const auto dims = value.dims();
  if (type.has_shape()) {
    bool fits = static_cast<std::size_t>(type.shape().dim_size()) == dims.size();
    for (int d = 0; fits && d < type.shape().dim_size(); ++d)
      fits = !type.shape().dim(d).has_dim_value() ||
             type.shape().dim(d).dim_value() == dims[static_cast<std::size_t>(d)];
    if (!fits)
      throw error("retarget: input '" + name + "' is " + format_dims(type.shape()) +
                  ", the value given is " + format_dims(dims));
  }
  model out = m;
  auto& g = *out.proto_without_shared_bytes().mutable_graph();
  for (int i = 0; i < g.input_size(); ++i)
    if (g.input(i).name() == name) {
      g.mutable_input()->DeleteSubrange(i, 1);
      break;
    }
  auto& init = *g.add_initializer();
  init = value.proto();
  init.set_name(name);
  return out;
}

RETARGET_COMPILED_DECL tensor input_value_of(const model& m, const std::string& name,
                                             std::string_view text) {
  const auto& in = detail::graph_input_named(m, name);
  const auto& type = in.type().tensor_type();
  std::vector<double> values;
  for (std::size_t at = 0; at <= text.size();) {
    const auto comma = std::min(text.find(',', at), text.size());
    const auto item = text.substr(at, comma - at);
    double v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      throw error("retarget: the value for input '" + name + "': '" + std::string(item) +
                  "' is not a number (give numbers separated by commas, or a .pb file)");
    values.push_back(v);
    at = comma + 1;
  }
  if (!type.has_shape())
    throw error("retarget: input '" + name + "' declares no shape: give its value as a .pb file");
  dims_t dims;
  for (const auto& d : type.shape().dim()) {
    if (!d.has_dim_value())
      throw error("retarget: input '" + name + "' is " + format_dims(type.shape()) +
                  ", not static: give its value as a .pb file");
    dims.push_back(d.dim_value());
  }
  if (static_cast<std::int64_t>(values.size()) != element_count(dims))
    throw error("retarget: input '" + name + "' is " + format_dims(dims) + ", " +
                std::to_string(element_count(dims)) + " elements; " +
                std::to_string(values.size()) + " values given");
  switch (static_cast<dtype>(type.elem_type())) {
    case dtype::f32:
      return detail::tensor_of_numbers<float>(values, dims);
    case dtype::f64:
      return detail::tensor_of_numbers<double>(values, dims);
    case dtype::i8:
      return detail::tensor_of_numbers<std::int8_t>(values, dims);
    case dtype::i16:
      return detail::tensor_of_numbers<std::int16_t>(values, dims);
    case dtype::i32:
      return detail::tensor_of_numbers<std::int32_t>(values, dims);
    case dtype::i64:
      return detail::tensor_of_numbers<std::int64_t>(values, dims);
    case dtype::u8:
      return detail::tensor_of_numbers<std::uint8_t>(values, dims);
    case dtype::u16:
      return detail::tensor_of_numbers<std::uint16_t>(values, dims);
    default:
      throw error("retarget: input '" + name + "' is " +
                  std::string(to_string(static_cast<dtype>(type.elem_type()))) +
                  ": give its value as a .pb file");
  }
}

}  // namespace retarget::ir

#endif  // RETARGET_IR_DETAIL_FIXED_INPUTS_IMPL_HPP
