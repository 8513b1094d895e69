// What a conversion takes (its options) and gives (the model and its report).
//
//   retarget::convert::options o{.approximations = {"cubic_resize_as_linear"}};
//   auto [model, report] = retarget::convert::convert<backends::opencv_dnn>(std::move(m), o);
#ifndef RETARGET_CONVERT_OPTIONS_HPP
#define RETARGET_CONVERT_OPTIONS_HPP

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <retarget/convert/report.hpp>
#include <retarget/ir/model.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::convert {

// Where a conversion is: the pass, and the node of the main graph it rebuilds (1 to `nodes`),
// at `size` when it converts a model with open dims at a size (0: the dims as written).
struct progress {
  std::size_t pass = 0;
  std::size_t node = 0, nodes = 0;
  std::int64_t size = 0;
};

struct options {
  bool fold = true;                   // constant folding, Shape of static shapes included
  std::size_t fold_limit = 1u << 20;  // elements: a bigger result stays computed at run time
  static constexpr std::size_t default_max_passes = 8;
  std::size_t max_passes = default_max_passes;  // the bound of the fixed point
  bool node_rewrites = true;
  bool cleanup = true;  // dead nodes and unused initializers
  bool check = true;    // ONNX's checker and strict shape inference on the result
  // Inputs' open dims (a dynamic batch) kept open: the model is converted at two sizes, where
  // all shape arithmetic folds, and the results joined (ir/open_dims.hpp); where they cannot
  // be, it is converted with the dims open, and the report says why.
  bool keep_open_dims = true;
  // Set by convert itself on a model ir::with_sizes made (one of the two sizes it converts a
  // dynamic batch at): the engine meets those dims open, and a rule fixing what it does with
  // open dims reads this (m.cfg().at_trial_sizes).
  bool at_trial_sizes = false;
  // Inexact rewrites the caller allows, by name (a backend's package lists its own, e.g.
  // opencv_dnn's "cubic_resize_as_linear"); none is applied unless named here.
  std::vector<std::string> approximations = {};
  // Called as each node of the main graph is rebuilt: what a tool shows on a terminal while a
  // large model converts (`retarget convert`). Empty: nothing is called.
  std::function<void(const progress&)> on_progress = {};

  bool allows(std::string_view approximation) const {
    return std::find(approximations.begin(), approximations.end(), approximation) !=
           approximations.end();
  }
};

struct result {
  ir::model model;
  convert::report report;
};

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_OPTIONS_HPP
