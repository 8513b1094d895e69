// opencv_dnn's quirks, each on a tiny model made here that shows it: the table `retarget check
// --backend opencv_dnn` prints (refused_nodes) lists the node before conversion, and when the
// quirk has an exact fix, convert removes it, so a rule and the refusal it answers cannot
// disagree. A quirk the engine does not report (it computes wrong numbers instead) is found by
// its rule's own condition: the rule fires. The table of docs/convert.md is the list's.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/mp11/algorithm.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/backends/opencv_dnn/convert.hpp>  // the package's types, read here
#include <retarget/convert/convert.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/proto.hpp>  // a declared shape is cleared here
#include <retarget/ir/tensor.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "support/strict.hpp"

namespace {

namespace fs = std::filesystem;
namespace rc = retarget::convert;
namespace rx = retarget::ir;
namespace bk = retarget::backends;
namespace cv = retarget::backends::opencv_dnn_convert;
using namespace retarget::literals;

using quirks = rc::quirks_for<bk::opencv_dnn>::list;

// The rule set is the quirks' fixes, in the order the rules were always tried.
static_assert(
    std::is_same_v<
        rc::rules_for<bk::opencv_dnn>::rule_list,
        boost::mp11::mp_list<
            cv::einsum_as_matmul, cv::mean_of_one, cv::mean_of_two, cv::mean_of_three,
            cv::cubic_resize_as_convolution, cv::expand_to_own_shape, cv::expand_in_steps,
            cv::single_element_divisor, cv::add_broadcast_expanded, cv::sub_broadcast_expanded,
            cv::mul_broadcast_expanded, cv::div_broadcast_expanded, cv::max_broadcast_expanded,
            cv::min_broadcast_expanded, cv::sum_broadcast_expanded, cv::last_axis_scale,
            cv::batch_constant_concat_as_pad, cv::constant_concat_in_4d,
            cv::constant_add_without_leading_ones, cv::add_lifted, cv::sub_lifted, cv::mul_lifted,
            cv::div_lifted, cv::min_lifted, cv::max_lifted, cv::sum_lifted, cv::min_of_three_lifted,
            cv::max_of_three_lifted, cv::sum_of_three_lifted, cv::min_of_one, cv::max_of_one,
            cv::sum_of_three_in_pairs, cv::max_of_three_in_pairs, cv::min_of_three_in_pairs,
            cv::mul_on_axis_0_lifted, cv::div_on_axis_0_lifted, cv::add_constant_in_accepted_form,
            cv::sub_constant_in_accepted_form, cv::mul_constant_in_accepted_form,
            cv::div_constant_in_accepted_form, cv::conv_in_2d, cv::max_pool_in_2d,
            cv::average_pool_in_2d, cv::concat_on_batch_of_two, cv::concat_on_batch_of_three,
            cv::max_with_constant_computed, cv::min_with_constant_computed,
            cv::add_expanded_to_constant, cv::sub_expanded_to_constant,
            cv::mul_expanded_to_constant, cv::div_expanded_to_constant,
            cv::add_apart_from_convolution, cv::sub_apart_from_convolution,
            cv::mul_apart_from_convolution, cv::div_apart_from_convolution, cv::divisor_copied,
            cv::batch_norm_apart_from_eltwise, cv::prelu_apart_from_eltwise,
            cv::add_apart_from_power, cv::sub_apart_from_power, cv::mul_apart_from_power,
            cv::div_apart_from_power, cv::neg_apart_from_power, cv::batch_norm_apart_from_power,
            cv::concat_input_apart, cv::flatten_at_rank_as_reshape, cv::conv_kernel_from_weight,
            cv::conv_transpose_kernel_from_weight, cv::global_average_pool_in_4d,
            cv::global_max_pool_in_4d, cv::squeeze_as_reshape, cv::unsqueeze_as_reshape,
            cv::softmax_1d_as_row, cv::log_softmax_1d_as_row, cv::sum_of_two_as_add,
            cv::sum_as_adds, cv::slice_axis_by_axis, cv::constant_first_matmul,
            cv::gemm_scales_folded, cv::cumsum_on_last_axis, cv::gather_from_front,
            cv::gather_one_as_slice, cv::reduce_mean_2d_lifted, cv::reduce_max_2d_lifted,
            cv::reduce_min_2d_lifted, cv::reduce_prod_2d_lifted,
            cv::resize_linear_coordinates_written, cv::resize_to_one_sliced, cv::edge_pad_in_steps,
            cv::softmax_axis_written_out, cv::log_softmax_axis_written_out,
            cv::concat_axis_from_front, cv::average_pool_same_upper_written,
            cv::average_pool_padded_first, cv::max_pool_valid_pads_written,
            cv::average_pool_valid_pads_written, cv::max_pool_same_lower,
            cv::average_pool_same_lower, cv::conv_same_lower>>);

rx::value f32(rx::graph& g, std::vector<float> v, std::vector<std::int64_t> dims) {
  return g.constant(rx::tensor::of<float>(std::span<const float>(v), dims));
}
rx::value i64(rx::graph& g, std::vector<std::int64_t> v, std::vector<std::int64_t> dims) {
  return g.constant(rx::tensor::of<std::int64_t>(std::span<const std::int64_t>(v), dims));
}

rx::model finish(rx::graph& g, const rx::value& y) {
  g.output(y, "y");
  return rx::make_model(std::move(g));
}

// An ONNX backend test model ("node/test_add_uint8"): the quirks found by the conformance run
// (tests/conformance/opencv_dnn.cpp) are shown on the models that showed them.
rx::model test_model(std::string_view name) {
  return rx::load(fs::path(RETARGET_ONNX_TEST_DATA) / name / "model.onnx");
}

// A model the differential generator found (tests/data/differential), by its seed.
rx::model found_by_seed(std::string_view seed) {
  for (const auto& e :
       fs::directory_iterator(fs::path(RETARGET_SOURCE_DIR) / "tests/data/differential"))
    if (e.path().filename().string().starts_with("seed-" + std::string(seed) + "-"))
      return rx::load(e.path());
  throw std::runtime_error("no model of seed " + std::string(seed) + " in tests/data/differential");
}

// A model showing each quirk, by the quirk's name.
const std::map<std::string, std::function<rx::model()>, std::less<>>& models() {
  static const std::map<std::string, std::function<rx::model()>, std::less<>> out = {
      {"input_not_float32", [] { return test_model("node/test_add_uint8"); }},
      {"other_domain", [] { return test_model("node/test_adam"); }},
      {"float64_constant", [] { return test_model("pytorch-operator/test_operator_addconstant"); }},
      {"parameter_computed",
       [] {
         // Reshape's shape computed from constants: folded.
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 3});
         auto shape = g.op("Add", i64(g, {3, 2}, {2}), i64(g, {0, 0}, {2}));
         return finish(g, g.op("Reshape", x, shape));
       }},
      {"eltwise_below_2d", [] { return test_model("node/test_min_example"); }},
      {"no_mean", [] { return test_model("node/test_mean_example"); }},
      {"no_einsum",
       [] {
         // MaxViT's q k^T, as torch writes it (node/test_einsum_batch_matmul is float64, which
         // OpenCV computes in float32: it stays refused).
         rx::graph g(13);
         auto q = g.op("Relu", g.input("q", rx::dtype::f32, {2, 3, 4, 8}));
         auto k = g.op("Relu", g.input("k", rx::dtype::f32, {2, 3, 5, 8}));
         return finish(g, g.op("Einsum", q, k, "equation"_s = "bhid,bhjd->bhij"));
       }},
      {"computed_broadcast_across_ranks", [] { return test_model("node/test_greater_bcast"); }},
      {"computed_broadcast", [] { return found_by_seed("9309"); }},
      {"comparison_broadcasts_constant",
       [] {
         // A detector's scores above a threshold.
         rx::graph g(13);
         auto scores = g.input("scores", rx::dtype::f32, {480});
         return finish(g, g.op("Greater", g.op("Relu", scores), f32(g, {0.3f}, {})));
       }},
      {"constant_along_axis_0",
       [] {
         // An image [C, H, W] normalized by a [C, 1, 1] deviation, as torchvision's detection
         // transform does (pytorch-converted/test_PoissonNLLLLoss_no_reduce, at opset 6, stays
         // refused: its Constants cannot hold the int64 dims the fix needs).
         rx::graph g(13);
         auto image = g.input("image", rx::dtype::f32, {3, 4, 5});
         return finish(g, g.op("Div", g.op("Relu", image), f32(g, {0.5f, 0.25f, 2.f}, {3, 1, 1})));
       }},
      {"instance_norm_batch",
       [] { return test_model("pytorch-operator/test_operator_symbolic_override"); }},
      {"flatten_at_rank", [] { return found_by_seed("7098"); }},
      {"output_computed_at_load", [] { return test_model("node/test_shape"); }},
      {"output_without_shape",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 2, 3});
         auto m = finish(g, g.op("Relu", x));
         m.proto()
             .mutable_graph()
             ->mutable_output(0)
             ->mutable_type()
             ->mutable_tensor_type()
             ->clear_shape();
         return m;
       }},
      {"pool_dilations", [] { return test_model("node/test_maxpool_2d_dilations"); }},
      {"conv_without_kernel_shape",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 1, 4, 4});
         return finish(g, g.op("Conv", x, f32(g, {1, 2, 3, 4}, {1, 1, 2, 2}), f32(g, {0.5f}, {1}),
                               "pads"_i = {1, 0, 1, 0}));
       }},
      {"squeeze_not_taken", [] { return found_by_seed("1024"); }},
      {"unsqueeze_not_taken",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 3});
         return finish(g, g.op("Unsqueeze", g.op("Relu", x), i64(g, {1, -1}, {2})));
       }},
      {"softmax_1d", [] { return found_by_seed("5050"); }},
      {"sum_of_constants",
       [] {
         // As the Mean of tests/data/differential/seed-1005-* is written.
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 4});
         auto c = g.initializer("c", rx::tensor::of<float>({1, 2, 3, 4}, {1, 4}));
         auto d = g.initializer("d", rx::tensor::of<float>({0.5f}, {1}));
         return finish(g, g.op("Sum", g.op("Relu", x), c, d));
       }},
      {"slice_axes_out_of_order", [] { return found_by_seed("1003"); }},
      {"matmul_constant_first", [] { return found_by_seed("1029"); }},
      {"gemm_scales_and_bias", [] { return found_by_seed("1023"); }},
      {"cumsum_off_last_axis", [] { return found_by_seed("1028"); }},
      {"gather_computed", [] { return found_by_seed("1027"); }},
      {"conv_transpose_unsupported", [] { return found_by_seed("1017"); }},
      {"resize_nearest_modes", [] { return found_by_seed("5006"); }},
      {"pad_mode_outside_2d", [] { return found_by_seed("1015"); }},
      {"unsupported_forms", [] { return found_by_seed("7096"); }},  // Split into 1 and 4
      {"softmax_coerced_to_2d",
       [] {
         rx::graph g(11);
         auto x = g.input("x", rx::dtype::f32, {2, 3, 4});
         return finish(g, g.op("Softmax", x, "axis"_i = 1));
       }},
      {"global_pool_above_4d",
       [] {
         // r3d_18's last pooling, over a dynamic batch.
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {"n", 4, 2, 3, 3});
         return finish(g, g.op("GlobalAveragePool", x));
       }},
      {"second_output_not_computed", [] { return test_model("node/test_dropout_default_mask"); }},
      {"cast_to_half", [] { return test_model("node/test_cast_FLOAT_to_FLOAT16"); }},
      {"inputs_not_taken", [] { return test_model("node/test_reduce_sum_keepdims_example"); }},
      {"softmax_default_axis", [] { return test_model("node/test_softmax_default_axis"); }},
      {"log_softmax_default_axis", [] { return test_model("node/test_logsoftmax_default_axis"); }},
      {"concat_negative_axis", [] { return test_model("node/test_concat_1d_axis_negative_1"); }},
      {"average_pool_counts_padding",
       [] { return test_model("node/test_averagepool_2d_pads_count_include_pad"); }},
      {"valid_pool_rounded_down", [] { return found_by_seed("1795927484"); }},
      {"max_pool_same_lower_pads", [] { return test_model("node/test_maxpool_2d_same_lower"); }},
      {"average_pool_same_lower_pads",
       [] { return test_model("node/test_averagepool_2d_same_lower"); }},
      {"absent_last_input",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 4});
         return finish(g, g.op("Pad", x, i64(g, {0, 1, 0, 1}, {4}), rx::no_input));
       }},
      {"identity_of_weight",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 2});
         auto w = g.initializer("w", rx::tensor::of<float>({1.0f, 2.0f}, {2}));
         return finish(g, g.op("Add", x, g.op("Identity", w)));
       }},
      {"no_layer_normalization",
       [] {
         rx::graph g(17);
         auto x = g.input("x", rx::dtype::f32, {1, 2, 4});
         return finish(g, g.op("LayerNormalization", x, f32(g, {1, 2, 3, 4}, {4}),
                               f32(g, {0, 1, 0, 1}, {4}), "axis"_i = -1));
       }},
      {"no_layer",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 2});
         auto mod = g.op("Mod", i64(g, {7, 8}, {2}), i64(g, {3, 5}, {2}));
         return finish(g, g.op("Add", x, g.op("Cast", mod, "to"_i = 1)));
       }},
      {"clip_bounds_as_inputs",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 4});
         return finish(g, g.op("Clip", x, f32(g, {0}, {}), f32(g, {6}, {})));
       }},
      {"cubic_resize_by_whole_factor",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 2, 3, 4});
         return finish(
             g, g.op("Resize", x, f32(g, {}, {0}), f32(g, {1, 1, 3, 3}, {4}), "mode"_s = "cubic"));
       }},
      {"cubic_resize",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 1, 2, 2});
         return finish(g, g.op("Resize", x, f32(g, {}, {0}), f32(g, {1, 1, 1.5, 1.5}, {4}),
                               "mode"_s = "cubic"));
       }},
      {"expand_to_lower_rank",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 3});
         return finish(g, g.op("Expand", x, i64(g, {3}, {1})));
       }},
      {"expand_shape_computed",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 3});
         auto y = g.input("s", rx::dtype::f32, {2, 3});
         return finish(g, g.op("Expand", x, g.op("Shape", y)));
       }},
      {"computed_single_element",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 4});
         auto mean = g.op("ReduceMean", x, "axes"_i = {0, 1}, "keepdims"_i = 1);
         return finish(g, g.op("Div", g.op("Relu", x), mean));
       }},
      {"last_axis_vector",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 2, 2, 3});
         return finish(g, g.op("Mul", x, f32(g, {1, 2, 3}, {3})));
       }},
      {"concat_outside_4d",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 2, 4});
         return finish(g, g.op("Concat", f32(g, {1, 2, 3, 4}, {1, 1, 4}), x, "axis"_i = 1));
       }},
      {"import_time_arithmetic",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 3});
         auto width = g.op("Gather", g.op("Shape", x), i64(g, {1}, {}));
         auto sum = g.op("Add", width, i64(g, {0}, {1}));
         auto shape = g.op("Concat", i64(g, {-1}, {1}), sum, "axis"_i = 0);
         return finish(g, g.op("Reshape", x, shape));
       }},
      {"import_time_gather",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 3});
         auto shape = g.op("Gather", g.op("Shape", x), i64(g, {0, 1}, {2}));
         return finish(g, g.op("Reshape", x, shape));
       }},
      {"constant_broadcast", [] { return found_by_seed("9235"); }},
      {"max_min_with_constant", [] { return found_by_seed("9610"); }},
      {"constant_widens_input",
       [] {
         // As the Mean of tests/data/differential/seed-50713-* is written.
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 3});
         auto c = g.initializer("c", rx::tensor::of<float>({0.5f, -0.4f, 0.03f}, {1, 3}));
         return finish(g, g.op("Add", c, g.op("ReduceMax", x)));
       }},
      {"constant_after_convolution", [] { return found_by_seed("40510"); }},
      {"divisor_shared", [] { return found_by_seed("40514"); }},
      {"channel_op_fused_wrongly", [] { return found_by_seed("70635"); }},
      {"scale_fused_into_power", [] { return found_by_seed("81062"); }},
      {"resize_to_one_pytorch_half_pixel", [] { return found_by_seed("1795931986"); }},
      {"concat_constant_with_input", [] { return found_by_seed("1795929651"); }},
      {"pads_differ_on_one_axis", [] { return found_by_seed("9695"); }},
      {"average_pool_counts_padding_rounded_up", [] { return found_by_seed("9178"); }},
      {"concat_constant_on_batch", [] { return found_by_seed("9825"); }},
      {"expand_other_axes", [] { return found_by_seed("9693"); }},
      {"gather_index_tensor", [] { return found_by_seed("9609"); }},
      // The quirks of open dims, on models with a dynamic batch (probed at a batch of 3).
      {"gather_scalar_shape_at_load",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {"n", 3, 4, 5});
         return finish(g, g.op("Gather", g.op("Relu", x), i64(g, {1}, {}), "axis"_i = 1));
       }},
      {"reduce_2d_at_load_size",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {"n", 8, 2, 2});
         auto features = g.op("Flatten", g.op("GlobalAveragePool", x));
         return finish(g, g.op("ReduceMean", features, "axes"_i = {-1}, "keepdims"_i = 1));
       }},
      {"constant_of_the_batch",
       [] {
         // ViT's class token, expanded to the batch as torch writes expand(n, -1, -1).
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {"n", 4, 8});
         auto n = g.op("Slice", g.op("Shape", x), i64(g, {0}, {1}), i64(g, {1}, {1}));
         auto target = g.op("Concat", n, i64(g, {1, 8}, {2}), "axis"_i = 0);
         std::vector<float> token(8);
         for (std::size_t i = 0; i < token.size(); ++i) token[i] = 0.5f + static_cast<float>(i);
         auto cls = g.op("Expand", f32(g, token, {1, 1, 8}), target);
         return finish(g, g.op("Concat", cls, g.op("Relu", x), "axis"_i = 1));
       }},
      {"computed_broadcast_open_dims",
       [] {
         // Squeeze-and-excitation's scale.
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {"n", 4, 3, 3});
         auto r = g.op("Relu", x);
         auto scale = g.op("Sigmoid", g.op("ReduceMean", r, "axes"_i = {2, 3}, "keepdims"_i = 1));
         return finish(g, g.op("Mul", r, scale));
       }},
      {"window_wider_than_input", [] { return found_by_seed("9796"); }},
      {"resize_linear_default_coordinates", [] { return found_by_seed("10597"); }},
      {"resize_scale_not_whole", [] { return found_by_seed("11143"); }},
      {"concat_1d_computed", [] { return found_by_seed("11808"); }},
      {"three_inputs_broadcast", [] { return found_by_seed("20984"); }},
      {"batch_norm_after_matmul", [] { return found_by_seed("10401"); }},
      {"layer_over_constants_only",
       [] {
         // As tests/data/differential/seed-10822-*'s Celu of a weight, with an op convert folds.
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 3});
         return finish(g, g.op("Add", x, g.op("Sqrt", f32(g, {1, 4, 9, 16, 25, 36}, {2, 3}))));
       }},
      {"edge_pad_wider_than_input", [] { return found_by_seed("9466"); }},
      {"conv_same_lower_pads", [] { return found_by_seed("9183"); }},
      {"leading_ones_constant",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 2, 2});
         return finish(g, g.op("Add", x, f32(g, {1, 2, 3, 4}, {1, 2, 2})));
       }},
  };
  return out;
}

template <class F>
struct fix_kind;
template <class... R>
struct fix_kind<rc::by_rule<R...>> {
  static std::string text() {
    std::string out = sizeof...(R) == 1 ? "rule" : "rules";
    const char* separator = " ";
    ((out += separator + ("`" + std::string(R::name) + "`"), separator = ", "), ...);
    return out;
  }
};
template <retarget::fixed_string Op>
struct fix_kind<rc::by_node_rewrite<Op>> {
  static std::string text() { return "node rewrite `" + std::string(Op.view()) + "`"; }
};
template <>
struct fix_kind<rc::by_folding> {
  static std::string text() { return "folding"; }
};
template <>
struct fix_kind<rc::by_shape_inference> {
  static std::string text() { return "the shapes inference finds, written"; }
};
template <>
struct fix_kind<rc::refused> {
  static std::string text() { return "nothing: refused"; }
};
template <class F>
requires requires { F::name; }
struct fix_kind<F> {
  static std::string text() {
    return "approximation `" + std::string(F::name) + "`, only when asked for";
  }
};

// Found on nodes, or on what no node holds (a graph output); listed by check either way.
template <class Q>
constexpr bool on_nodes = requires(const rc::quirk_site& s) {
  Q::found(s);
}
|| requires { Q::prepare; };
template <class Q>
constexpr bool outside_nodes = requires(const rx::model_view& m) {
  Q::found_outside_nodes(m);
};
template <class Q>
constexpr bool listed = on_nodes<Q> || outside_nodes<Q>;

template <class Q>
std::size_t found_outside(const rx::model& m) {
  if constexpr (outside_nodes<Q>)
    return Q::found_outside_nodes(rx::model_view(m)).size();
  else
    return 0;
}

bool lists(const std::vector<rc::refusal>& refused, int index) {
  return std::any_of(refused.begin(), refused.end(),
                     [&](const rc::refusal& r) { return r.index == index; });
}

std::size_t fired(const rc::report& r, std::string_view rule) {
  for (const auto& x : r.rules)
    if (x.name == rule) return x.fired;
  return 0;
}

TEST(OpencvQuirks, EachIsListedBeforeConversionAndGoneAfterItsFix) {
  if (!fs::exists(RETARGET_ONNX_TEST_DATA))
    RETARGET_SKIP_MISSING("libonnx-testdata",
                          "no ONNX backend test data at " RETARGET_ONNX_TEST_DATA);
  boost::mp11::mp_for_each<quirks>([](auto quirk) {
    using Q = decltype(quirk);
    using fix = typename Q::fix;
    SCOPED_TRACE(std::string(Q::name));
    const auto it = models().find(Q::name);
    ASSERT_NE(it, models().end()) << "no model shows the quirk";
    const auto model = it->second();
    const auto before = rc::refused_nodes<bk::opencv_dnn>(model);
    ASSERT_TRUE(before.has_value());
    const auto sites = rc::quirk_sites<Q>(model);
    if constexpr (on_nodes<Q>) {
      ASSERT_FALSE(sites.empty()) << "the model does not show it";
      for (const auto i : sites) EXPECT_TRUE(lists(*before, i)) << "node " << i << " not listed";
    } else if constexpr (outside_nodes<Q>) {
      ASSERT_GT(found_outside<Q>(model), 0u) << "the model does not show it";
      EXPECT_TRUE(lists(*before, -1)) << "no refusal outside the nodes";
    } else {
      EXPECT_TRUE(before->empty()) << "the engine does not report it: " << before->front().why;
    }

    rc::options o;
    if constexpr (requires { fix::name; }) {
      // Kept, and still listed, unless asked for by name.
      const auto kept = rc::convert<bk::opencv_dnn>(model, o);
      EXPECT_FALSE(rc::quirk_sites<Q>(kept.model).empty());
      o.approximations = {std::string(fix::name)};
    }
    const auto [converted, report] = rc::convert<bk::opencv_dnn>(model, o);
    if constexpr (std::is_same_v<fix, rc::refused>) return;
    if constexpr (requires { typename fix::rules; }) {
      std::size_t n = 0;
      boost::mp11::mp_for_each<typename fix::rules>(
          [&](auto rule) { n += fired(report, decltype(rule)::name); });
      EXPECT_GE(n, 1u) << "none of its rules fired";
    }
    if constexpr (requires { fix::op; }) {
      ASSERT_FALSE(report.node_rewrites.empty());
      EXPECT_EQ(report.node_rewrites.front().op, fix::op);
    }
    if constexpr (requires { fix::name; }) {
      EXPECT_EQ(report.approximations.at(std::string(fix::name)), 1u);
    }
    if constexpr (listed<Q>) {
      EXPECT_TRUE(rc::quirk_sites<Q>(converted).empty()) << "still found after conversion";
      EXPECT_EQ(found_outside<Q>(converted), 0u) << "still found after conversion";
      const auto after = rc::refused_nodes<bk::opencv_dnn>(converted);
      ASSERT_TRUE(after.has_value());
      EXPECT_TRUE(after->empty()) << after->front().node << ": " << after->front().why;
    }
  });
}

// A Shape of a static shape as a graph output is folded to a stored constant, which no layer of
// OpenCV gives: the refusal names the output, with no node.
TEST(OpencvQuirks, AConstantGraphOutputIsRefusedByName) {
  if (!fs::exists(RETARGET_ONNX_TEST_DATA))
    RETARGET_SKIP_MISSING("libonnx-testdata",
                          "no ONNX backend test data at " RETARGET_ONNX_TEST_DATA);
  const auto converted = rc::convert<bk::opencv_dnn>(test_model("node/test_shape")).model;
  const auto refused = rc::refused_nodes<bk::opencv_dnn>(converted);
  ASSERT_TRUE(refused.has_value());
  ASSERT_EQ(refused->size(), 1u);
  EXPECT_EQ(refused->front().index, -1);
  EXPECT_EQ(rc::where(refused->front()), "graph output 'y'");
  // A model whose outputs are computed has no such refusal.
  EXPECT_TRUE(rc::refused_nodes<bk::opencv_dnn>(test_model("node/test_abs"))->empty());
}

// A softmax written out (as ONNX's function body writes it) is fused by OpenCV's importer into
// one layer before any is made: its nodes are not named for what OpenCV does with them alone.
// Not fused, and named: a ReduceSum over another axis than the ReduceMax (OpenCV would take the
// ReduceMax's), and an Exp that another node reads too.
TEST(OpencvQuirks, ASoftmaxTheImporterFusesIsNotNamedButAnotherFormIs) {
  enum class form { fused, other_axis, exp_read_twice, log_fused };
  const auto model = [](form f) {
    rx::graph g(13);
    auto x = g.input("x", rx::dtype::f32, {3, 4, 5});
    auto d = g.op("Sub", x, g.op("ReduceMax", x, "axes"_i = {1}, "keepdims"_i = 1));
    auto e = g.op("Exp", d);
    auto s = g.op("ReduceSum", e, i64(g, {f == form::other_axis ? 2 : 1}, {1}), "keepdims"_i = 1);
    if (f == form::log_fused) return finish(g, g.op("Sub", d, g.op("Log", s)));
    auto y = g.op("Div", e, s);
    return finish(g, f == form::exp_read_twice ? g.op("Add", y, e) : y);
  };
  const auto named = [&](form f) {
    const auto refused = rc::refused_nodes<bk::opencv_dnn>(model(f));
    std::vector<std::string> ops;
    for (const auto& r : *refused) ops.push_back(r.node.substr(0, r.node.find(' ')));
    return ops;
  };
  EXPECT_TRUE(named(form::fused).empty());
  EXPECT_TRUE(named(form::log_fused).empty());
  EXPECT_EQ(named(form::other_axis), (std::vector<std::string>{"Sub", "ReduceSum"}));
  EXPECT_EQ(named(form::exp_read_twice), (std::vector<std::string>{"Sub", "ReduceSum"}));
}

// divisor_copied counts the readers still to come (m.readers): a Div by a constant read before
// or after it by another node gets a copy; one that alone reads its constant keeps it.
TEST(OpencvQuirks, ADivisorIsCopiedOnlyWhereAnotherNodeReadsIt) {
  const auto model = [](bool shared, bool div_first) {
    rx::graph g(13);
    auto x = g.input("x", rx::dtype::f32, {2, 4});
    auto c = g.initializer("c", rx::tensor::of<float>({0.5f, -2.0f, 4.0f, 1.5f}, {4}));
    const auto other = [&](const rx::value& v) { return shared ? g.op("Add", v, c) : v; };
    if (div_first) return finish(g, other(g.op("Div", x, c)));
    return finish(g, g.op("Div", other(x), c));
  };
  for (const bool div_first : {true, false}) {
    SCOPED_TRACE(div_first ? "the Div first" : "the Div last");
    const auto shared = rc::convert<bk::opencv_dnn>(model(true, div_first));
    EXPECT_EQ(fired(shared.report, "divisor_copied"), 1u);
    EXPECT_TRUE(rc::quirk_sites<cv::quirks::divisor_shared>(shared.model).empty());
    const auto alone = rc::convert<bk::opencv_dnn>(model(false, div_first));
    EXPECT_EQ(fired(alone.report, "divisor_copied"), 0u);
  }
}

// pytorch-converted/test_PixelShuffle, which OpenCV runs right, holds an int64 Constant at opset
// 6, which ONNX's checker refuses: convert takes it as it is, and says so, rather than refusing
// a model it did not make invalid.
TEST(OpencvQuirks, AnOriginalTheCheckerRefusesIsNotHeldToIt) {
  if (!fs::exists(RETARGET_ONNX_TEST_DATA))
    RETARGET_SKIP_MISSING("libonnx-testdata",
                          "no ONNX backend test data at " RETARGET_ONNX_TEST_DATA);
  const auto original = test_model("pytorch-converted/test_PixelShuffle");
  EXPECT_THROW(original.check(), retarget::error);
  const auto [converted, report] = rc::convert<bk::opencv_dnn>(original);
  EXPECT_NE(report.original_invalid.find("int64"), std::string::npos) << report.original_invalid;
  EXPECT_NE(rc::to_string(report).find("not checked: the original fails ONNX's checker too"),
            std::string::npos);
  EXPECT_TRUE(
      rc::convert<bk::opencv_dnn>(test_model("node/test_abs")).report.original_invalid.empty());
}

TEST(OpencvQuirks, NamesAreTheApproximationsOffered) {
  const auto offered = rc::approximations_of<bk::opencv_dnn>();
  ASSERT_EQ(offered.size(), 1u);
  EXPECT_EQ(offered.front(), cv::cubic_resize_as_linear::name);
}

// The table of docs/convert.md, as the list makes it.
std::string table() {
  std::ostringstream out;
  out << "| quirk | what OpenCV 4.6 does | listed by `check --backend` | what convert does |\n"
      << "| --- | --- | --- | --- |\n";
  boost::mp11::mp_for_each<quirks>([&](auto quirk) {
    using Q = decltype(quirk);
    out << "| `" << Q::name << "` | " << Q::summary << " | " << (listed<Q> ? "yes" : "no") << " | "
        << fix_kind<typename Q::fix>::text() << " |\n";
  });
  return out.str();
}

TEST(OpencvQuirks, DocsTableIsTheList) {
  std::ifstream in(fs::path(RETARGET_SOURCE_DIR) / "docs/convert.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  constexpr std::string_view begin =
      "<!-- quirks_for<opencv_dnn>: made by tests/convert/quirk_test.cpp -->\n";
  constexpr std::string_view end = "<!-- end of quirks_for<opencv_dnn> -->";
  const auto from = doc.find(begin), to = doc.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  EXPECT_EQ(doc.substr(from + begin.size(), to - from - begin.size()), table())
      << "docs/convert.md's table of quirks differs from quirks_for<opencv_dnn>; it is:\n"
      << table();
}

}  // namespace
