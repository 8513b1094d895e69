// The opset adapters retarget ships: where ONNX's version converter lacks a step or gets one
// wrong (LayerNormalization below 17; Softmax, LogSoftmax, Squeeze, Unsqueeze, Split and Resize
// around 13; Resize around 11; Reshape and RoiAlign down). Each is found by its declaration
// alone (convert/opset_adapter.hpp). Each takes its node as `const auto&` (the registry passes
// the adapter's node_of<Op>), so that its checked attribute reads are compiled where a plan or a
// conversion instantiates it, not in every unit that includes this header.
#ifndef RETARGET_CONVERT_OPSET_ADAPTERS_HPP
#define RETARGET_CONVERT_OPSET_ADAPTERS_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/convert/detail/opset_helpers.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/convert/opset_adapter.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/tensor.hpp>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace retarget::convert {

namespace detail {

// Softmax and LogSoftmax from 13 to 12: opset 12 coerces the input to 2-D at the axis, which is
// the same as opset 13 over the last axis only; another axis goes there through Transpose.
template <fixed_string Op>
struct softmax_13_12 {
  static std::optional<std::string> refuses(const node_of<Op>& n, const input_facts& in) {
    const auto axis = n["axis"_i].value_or(-1);
    if (axis == -1) return std::nullopt;
    const auto rank = in.rank(0);
    if (!rank)
      return "axis " + std::to_string(axis) +
             " of an input of unknown rank: opset 12 flattens the input at the axis, so only the "
             "last axis (-1) carries over without knowing the rank";
    return std::nullopt;
  }
  static ir::value call(ir::graph& g, const node_of<Op>& n) {
    const auto axis = n["axis"_i].value_or(-1);
    const auto& x = n.input(0);
    if (axis == -1) return g.op<Op>(x, "axis"_i = -1);
    if (!x.has_shape())
      throw error("retarget: " + n.describe() + ": " + *refuses(n, input_facts{}));
    const auto rank = x.rank();
    const auto a = normalized_axis(axis, rank);
    if (a == static_cast<std::int64_t>(rank) - 1) return g.op<Op>(x, "axis"_i = -1);
    std::vector<std::int64_t> perm(rank);
    for (std::size_t i = 0; i < rank; ++i) perm[i] = static_cast<std::int64_t>(i);
    std::swap(perm[static_cast<std::size_t>(a)], perm.back());
    const auto moved = g.op("Transpose", x, "perm"_i = perm);
    return g.op("Transpose", g.op<Op>(moved, "axis"_i = -1), "perm"_i = perm);
  }
};

// Squeeze and Unsqueeze from 13 to 12: the axes input becomes the attribute.
template <fixed_string Op>
struct axes_input_to_attribute {
  static std::optional<std::string> refuses(const node_of<Op>&, const input_facts& in) {
    return constant_or_absent(1, in, "axes");
  }
  static ir::value call(ir::graph& g, const node_of<Op>& n) {
    const auto axes = constant_ints(g, n, 1);
    if (!axes) return g.op<Op>(n.input(0));
    return g.op<Op>(n.input(0), "axes"_i = *axes);
  }
};

}  // namespace detail

// LayerNormalization (17) below 17: its decomposition, over the axes from `axis` to the last,
// in float (stash_type 1) or in the input's type (stash_type 0).
template <>
struct opset_adapter<"LayerNormalization", 17, 16> {
  static constexpr bool keeps_op = false;
  static std::optional<std::string> refuses(const auto& n, const input_facts& in) {
    const auto axis = n["axis"_i].value_or(-1);
    if (axis < 0 || in.rank(0)) return std::nullopt;
    return "axis " + std::to_string(axis) +
           " of an input of unknown rank: the axes it normalizes over are not known";
  }
  static std::vector<ir::value> call(auto& g, const auto& n) {
    const auto& x = n.input(0);
    auto axis = n["axis"_i].value_or(-1);
    const float epsilon = n["epsilon"_f].value_or(1e-5f);
    const bool stash = n["stash_type"_i].value_or(1) == 1;
    if (axis >= 0) {
      if (!x.has_shape())
        throw error("retarget: " + n.describe() + ": " + *refuses(n, input_facts{}));
      axis -= static_cast<std::int64_t>(x.rank());
    }
    std::vector<std::int64_t> axes;
    for (auto a = axis; a < 0; ++a) axes.push_back(a);
    const auto type = x.dtype();
    const bool cast = stash && type != ir::dtype::f32;
    const auto xs = cast ? g.op("Cast", x, "to"_i = static_cast<std::int64_t>(ir::dtype::f32)) : x;
    const auto compute = cast ? ir::dtype::f32 : type;
    const auto eps = compute == ir::dtype::f64
                         ? g.constant(ir::tensor::of<double>({double(epsilon)}, {}))
                         : g.constant(ir::tensor::of<float>({epsilon}, {}));
    const auto eps_typed = compute == ir::dtype::f32 || compute == ir::dtype::f64
                               ? eps
                               : g.op("Cast", eps, "to"_i = static_cast<std::int64_t>(compute));
    const auto mean = g.op("ReduceMean", xs, "axes"_i = axes, "keepdims"_i = 1);
    const auto d = g.op("Sub", xs, mean);
    const auto var = g.op("ReduceMean", g.op("Mul", d, d), "axes"_i = axes, "keepdims"_i = 1);
    const auto std_dev = g.op("Sqrt", g.op("Add", var, eps_typed));
    auto normalized = g.op("Div", d, std_dev);
    if (cast) normalized = g.op("Cast", normalized, "to"_i = static_cast<std::int64_t>(type));
    auto y = g.op("Mul", normalized, n.input(1));
    if (n.has_input(2)) y = g.op("Add", y, n.input(2));
    std::vector<ir::value> out{y};
    if (n.output_count() > 1 && !n.output_name(1).empty()) out.push_back(mean);
    if (n.output_count() > 2 && !n.output_name(2).empty()) {
      if (out.size() == 1) out.push_back(ir::value());
      out.push_back(g.op("Reciprocal", std_dev));
    }
    return out;
  }
};

template <>
struct opset_adapter<"Softmax", 13, 12> : detail::softmax_13_12<"Softmax"> {};
template <>
struct opset_adapter<"LogSoftmax", 13, 12> : detail::softmax_13_12<"LogSoftmax"> {};

template <>
struct opset_adapter<"Squeeze", 13, 12> : detail::axes_input_to_attribute<"Squeeze"> {};
template <>
struct opset_adapter<"Unsqueeze", 13, 12> : detail::axes_input_to_attribute<"Unsqueeze"> {
  static std::optional<std::string> refuses(const auto&, const input_facts& in) {
    if (!in.present(1)) return "axes (input 1) is missing";
    return detail::constant_or_absent(1, in, "axes");
  }
};

// Split from 13 to 12: the split input becomes the attribute (ONNX 1.12's adapter fails on
// an initializer).
template <>
struct opset_adapter<"Split", 13, 12> {
  static std::optional<std::string> refuses(const auto&, const input_facts& in) {
    return detail::constant_or_absent(1, in, "split");
  }
  static std::vector<ir::value> call(auto& g, const auto& n) {
    ir::node_spec spec;
    spec.op_type = "Split";
    spec.inputs = {n.input(0)};
    spec.attributes = n.attributes();
    if (const auto split = detail::constant_ints(g, n, 1)) {
      spec.attributes.push_back(ir::attribute_entry("split", *split));
    }
    for (std::size_t i = 0; i < n.output_count(); ++i) spec.outputs.push_back(n.output_name(i));
    spec.name = n.name();
    return g.emit(std::move(spec));
  }
};

// Resize from 13 to 12: the roi and scales inputs, optional at 13, are required at 11.
template <>
struct opset_adapter<"Resize", 13, 12> {
  static ir::value call(auto& g, const auto& n) {
    std::vector<ir::value> inputs{n.input(0)};
    inputs.push_back(n.has_input(1) ? n.input(1) : g.constant(ir::empty_f32));
    inputs.push_back(n.has_input(2) ? n.input(2) : g.constant(ir::empty_f32));
    if (n.has_input(3)) inputs.push_back(n.input(3));
    return detail::emit_resize(g, n, std::move(inputs), n.attributes());
  }
};

// Resize from 12 to 13: the same node, but for a coordinate_transformation_mode 13 dropped
// (ONNX 1.12 takes it over as it is).
template <>
struct opset_adapter<"Resize", 12, 13> {
  static std::optional<std::string> refuses(const auto& n, const input_facts&) {
    const auto mode = n["coordinate_transformation_mode"_s];
    if (mode && *mode == "tf_half_pixel_for_nn")
      return "coordinate_transformation_mode 'tf_half_pixel_for_nn' is not in opset 13";
    return std::nullopt;
  }
  static ir::value call(auto& g, const auto& n) {
    std::vector<ir::value> inputs = n.inputs();
    // An empty scales beside sizes: 13 wants only one of them.
    if (inputs.size() > 3 && inputs[2].valid())
      if (const ir::tensor_view s = g.constant_data(inputs[2]); s && s.dims() == ir::dims_t{0})
        inputs[2] = ir::value();
    return detail::emit_resize(g, n, std::move(inputs), n.attributes());
  }
};

// Resize from 10 to 11: opset 10's sampling is 11's "asymmetric" with nearest_mode "floor"
// (ONNX 1.12's adapter keeps 11's defaults, half_pixel and round_prefer_floor).
template <>
struct opset_adapter<"Resize", 10, 11> {
  static ir::value call(auto& g, const auto& n) {
    auto attributes = n.attributes();
    attributes.push_back(ir::attribute_entry("coordinate_transformation_mode", "asymmetric"));
    if (n["mode"_s].value_or("nearest") == "nearest")
      attributes.push_back(ir::attribute_entry("nearest_mode", "floor"));
    return detail::emit_resize(g, n, {n.input(0), g.constant(ir::empty_f32), n.input(1)},
                               std::move(attributes));
  }
};

// Resize from 11 to 10: where 10 can say the same, "asymmetric" nearest (floor) or linear, by
// scales, or by sizes of an input of static shape.
template <>
struct opset_adapter<"Resize", 11, 10> {
  static std::optional<std::string> refuses(const auto& n, const input_facts& in) {
    const auto mode = n["mode"_s].value_or("nearest");
    if (mode != "nearest" && mode != "linear")
      return "mode '" + mode + "' is not in opset 10 (nearest and linear are)";
    const auto transform = n["coordinate_transformation_mode"_s].value_or("half_pixel");
    if (transform != "asymmetric")
      return "coordinate_transformation_mode '" + transform +
             "' cannot be expressed at opset 10, whose Resize samples as 'asymmetric'";
    const auto nearest = n["nearest_mode"_s].value_or("round_prefer_floor");
    if (mode == "nearest" && nearest != "floor")
      return "nearest_mode '" + nearest +
             "' cannot be expressed at opset 10, whose nearest Resize rounds down ('floor')";
    if (in.present(3) && !(in.constant(3) && in.rank(0)))
      return "sizes (input 3) that are not a constant for an input of known rank";
    return std::nullopt;
  }
  static ir::value call(auto& g, const auto& n) {
    const auto& x = n.input(0);
    auto attributes = n.attributes();
    ir::erase_attributes(attributes, [](const ir::attribute_view& a) {
      return a.name() != "mode";  // 10 has only the mode; the others were checked above
    });
    if (!n.has_input(3)) return detail::emit_resize(g, n, {x, n.input(2)}, std::move(attributes));
    const auto shape = x.static_shape();
    const auto sizes = detail::constant_ints(g, n, 3);
    if (!shape || !sizes || sizes->size() != shape->size())
      throw error("retarget: " + n.describe() +
                  ": sizes need an input of static shape to become opset 10's scales");
    std::vector<float> scales;
    for (std::size_t i = 0; i < shape->size(); ++i)
      scales.push_back(static_cast<float>((*sizes)[i]) / static_cast<float>((*shape)[i]));
    const auto s = g.constant(ir::tensor::of<float>(std::span<const float>(scales),
                                                    {static_cast<std::int64_t>(scales.size())}));
    return detail::emit_resize(g, n, {x, s}, std::move(attributes));
  }
};

// Reshape from 14 to 13: the same node where allowzero is 0.
template <>
struct opset_adapter<"Reshape", 14, 13> {
  static std::optional<std::string> refuses(const auto& n, const input_facts&) {
    if (n["allowzero"_i].value_or(0) != 0)
      return "allowzero 1 is not in opset 13 (a 0 in the shape copies the input's dimension)";
    return std::nullopt;
  }
  static ir::value call(auto& g, const auto& n) { return g.op("Reshape", n.input(0), n.input(1)); }
};

// RoiAlign from 16 to 15: RoiAlign-10 samples as 16's "output_half_pixel" (no half-pixel
// shift of the input coordinates), while 16 defaults to "half_pixel"; only a node in the old
// mode carries over. (15 to 16 is ONNX's adapter, which writes "output_half_pixel".)
template <>
struct opset_adapter<"RoiAlign", 16, 15> {
  static std::optional<std::string> refuses(const auto& n, const input_facts&) {
    const auto mode = n["coordinate_transformation_mode"_s];
    if (!mode)
      return "coordinate_transformation_mode defaults to 'half_pixel' at 16, which RoiAlign-10 "
             "cannot express (it samples as 'output_half_pixel')";
    if (*mode != "output_half_pixel")
      return "coordinate_transformation_mode '" + *mode +
             "' cannot be expressed at opset 15, whose RoiAlign-10 samples as 'output_half_pixel'";
    return std::nullopt;
  }
  static std::vector<ir::value> call(auto& g, const auto& n) {
    auto attributes = n.attributes();
    ir::erase_attributes(attributes, [](const ir::attribute_view& a) {
      return a.name() == "coordinate_transformation_mode";  // 10's only mode, checked above
    });
    ir::node_spec spec;
    spec.op_type = "RoiAlign";
    spec.inputs = n.inputs();
    spec.attributes = std::move(attributes);
    spec.outputs = {n.output_name(0)};
    spec.name = n.name();
    return g.emit(std::move(spec));
  }
};

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_OPSET_ADAPTERS_HPP
