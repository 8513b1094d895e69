// What ONNX's OpSchema does not say: the values an enumerated string attribute of a standard op
// takes (Resize's mode: nearest, linear, cubic), and the attributes that later opsets made
// inputs (Squeeze's axes since opset 13). Written by hand from the attributes' descriptions in
// ONNX 1.12 (opsets 1 to 17), each row for the opsets where its list holds; one table serves
// the compile-time check of a string literal and the check of every node at emission.
#ifndef RETARGET_IR_DETAIL_ATTRIBUTE_VALUES_HPP
#define RETARGET_IR_DETAIL_ATTRIBUTE_VALUES_HPP

#include <climits>
#include <string_view>
#include <utility>

namespace retarget::ir::detail {

inline constexpr int later = INT_MAX;  // a row that holds up to the newest opset

// The values (separated by spaces) an attribute of an op of the default domain takes in opsets
// since..until.
struct enum_row {
  std::string_view op, attribute;
  int since, until;
  std::string_view values;
};

inline constexpr std::string_view auto_pad_values = "NOTSET SAME_UPPER SAME_LOWER VALID";
inline constexpr std::string_view rnn_activations =
    "Relu Tanh Sigmoid Affine LeakyRelu ThresholdedRelu ScaledTanh HardSigmoid Elu Softsign "
    "Softplus";
inline constexpr std::string_view rnn_directions = "forward reverse bidirectional";
inline constexpr std::string_view loss_reductions = "none sum mean";

inline constexpr enum_row enum_rows[] = {
    {"AveragePool", "auto_pad", 1, later, auto_pad_values},
    {"BitShift", "direction", 11, later, "RIGHT LEFT"},
    {"Conv", "auto_pad", 1, later, auto_pad_values},
    {"ConvInteger", "auto_pad", 10, later, auto_pad_values},
    {"ConvTranspose", "auto_pad", 1, later, auto_pad_values},
    {"DepthToSpace", "mode", 11, later, "DCR CRD"},
    {"GRU", "activations", 1, later, rnn_activations},
    {"GRU", "direction", 1, later, rnn_directions},
    {"GridSample", "mode", 16, later, "bilinear nearest bicubic"},
    {"GridSample", "padding_mode", 16, later, "zeros border reflection"},
    {"LSTM", "activations", 1, later, rnn_activations},
    {"LSTM", "direction", 1, later, rnn_directions},
    {"LpPool", "auto_pad", 1, later, auto_pad_values},
    {"MaxPool", "auto_pad", 1, later, auto_pad_values},
    {"NegativeLogLikelihoodLoss", "reduction", 12, later, loss_reductions},
    {"Pad", "mode", 1, later, "constant reflect edge"},
    {"QLinearConv", "auto_pad", 10, later, auto_pad_values},
    {"RNN", "activations", 1, later, rnn_activations},
    {"RNN", "direction", 1, later, rnn_directions},
    {"Resize", "coordinate_transformation_mode", 11, 12,
     "half_pixel pytorch_half_pixel align_corners asymmetric tf_half_pixel_for_nn "
     "tf_crop_and_resize"},
    {"Resize", "coordinate_transformation_mode", 13, later,
     "half_pixel pytorch_half_pixel align_corners asymmetric tf_crop_and_resize"},
    {"Resize", "mode", 10, 10, "nearest linear"},
    {"Resize", "mode", 11, later, "nearest linear cubic"},
    {"Resize", "nearest_mode", 11, later, "round_prefer_floor round_prefer_ceil floor ceil"},
    {"RoiAlign", "coordinate_transformation_mode", 16, later, "half_pixel output_half_pixel"},
    {"RoiAlign", "mode", 10, later, "avg max"},
    // Opset 18 (ONNX 1.13) adds max and min: models of that opset are read by the converter.
    {"ScatterElements", "reduction", 16, 17, "none add mul"},
    {"ScatterElements", "reduction", 18, later, "none add mul max min"},
    {"ScatterND", "reduction", 16, 17, "none add mul"},
    {"ScatterND", "reduction", 18, later, "none add mul max min"},
    {"SoftmaxCrossEntropyLoss", "reduction", 12, later, loss_reductions},
    {"StringNormalizer", "case_change_action", 10, later, "LOWER UPPER NONE"},
    {"TfIdfVectorizer", "mode", 9, later, "TF IDF TFIDF"},
    {"Upsample", "mode", 1, 6, "nearest bilinear"},
    {"Upsample", "mode", 7, 9, "nearest linear"},  // deprecated from opset 10
};

// An attribute that became the op's input `input` (0-based), named `input_name`, in opsets
// since..until.
struct moved_row {
  std::string_view op, attribute;
  int input;
  std::string_view input_name;
  int since, until;
};

inline constexpr moved_row moved_rows[] = {
    {"Clip", "max", 2, "max", 11, later},
    {"Clip", "min", 1, "min", 11, later},
    {"Dropout", "ratio", 1, "ratio", 12, later},
    {"Expand", "shape", 1, "shape", 8, later},
    {"Pad", "constant_value", 2, "constant_value", 11, later},
    {"Pad", "paddings", 1, "pads", 11, later},
    {"Pad", "pads", 1, "pads", 11, later},
    {"Pad", "value", 2, "constant_value", 11, later},
    {"ReduceSum", "axes", 1, "axes", 13, later},
    {"Reshape", "shape", 1, "shape", 5, later},
    {"Resize", "roi", 1, "roi", 11, later},
    {"Resize", "scales", 1, "scales", 10, 10},
    {"Resize", "scales", 2, "scales", 11, later},
    {"Resize", "sizes", 3, "sizes", 11, later},
    {"Slice", "axes", 3, "axes", 10, later},
    {"Slice", "ends", 2, "ends", 10, later},
    {"Slice", "starts", 1, "starts", 10, later},
    {"Slice", "steps", 4, "steps", 10, later},
    {"Split", "split", 1, "split", 13, later},
    {"Squeeze", "axes", 1, "axes", 13, later},
    {"Tile", "repeats", 1, "repeats", 6, later},
    {"TopK", "k", 1, "K", 10, later},
    {"Unsqueeze", "axes", 1, "axes", 13, later},
    {"Upsample", "scales", 1, "scales", 9, later},
};

// Calls f(word) for each space-separated word of a row's values, until f returns true; whether
// one did.
template <class F>
constexpr bool any_value(std::string_view values, F f) {
  while (!values.empty()) {
    const auto end = values.find(' ');
    if (f(values.substr(0, end))) return true;
    values = end == std::string_view::npos ? std::string_view{} : values.substr(end + 1);
  }
  return false;
}

constexpr bool row_has(const enum_row& r, std::string_view value) noexcept {
  return any_value(r.values, [&](std::string_view v) { return v == value; });
}

// What a string literal given to "name"_s is checked against: true when no standard op has an
// enumerated attribute of that name, or when one takes the value at some opset.
constexpr bool known_attribute_value(std::string_view attribute, std::string_view value) noexcept {
  bool enumerated = false;
  for (const auto& r : enum_rows) {
    if (r.attribute != attribute) continue;
    if (row_has(r, value)) return true;
    enumerated = true;
  }
  return !enumerated;
}

// The row of an op's enumerated attribute at an opset (op of the default domain), or nullptr
// when the attribute is not enumerated there.
constexpr const enum_row* enum_row_of(std::string_view op, std::string_view attribute,
                                      int version) noexcept {
  for (const auto& r : enum_rows)
    if (r.op == op && r.attribute == attribute && r.since <= version && version <= r.until)
      return &r;
  return nullptr;
}

// The opsets, first and last, at which the op takes the value for the attribute; {0, 0} when
// none does.
constexpr std::pair<int, int> value_opsets(std::string_view op, std::string_view attribute,
                                           std::string_view value) noexcept {
  std::pair<int, int> out{0, 0};
  for (const auto& r : enum_rows)
    if (r.op == op && r.attribute == attribute && row_has(r, value)) {
      out.first = out.first == 0 || r.since < out.first ? r.since : out.first;
      out.second = r.until > out.second ? r.until : out.second;
    }
  return out;
}

// The input an attribute of the op became at the opset: the row that holds there, or else the
// first that holds later; nullptr when the attribute never became an input.
constexpr const moved_row* moved_to_input(std::string_view op, std::string_view attribute,
                                          int version) noexcept {
  const moved_row* later_row = nullptr;
  for (const auto& r : moved_rows) {
    if (r.op != op || r.attribute != attribute) continue;
    if (r.since <= version && version <= r.until) return &r;
    if (r.since > version && (!later_row || r.since < later_row->since)) later_row = &r;
  }
  return later_row;
}

}  // namespace retarget::ir::detail

#endif  // RETARGET_IR_DETAIL_ATTRIBUTE_VALUES_HPP
