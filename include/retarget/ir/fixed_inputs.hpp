// Inputs a user gives a value before a conversion: a graph input made a constant of that value,
// so that what depends on it folds (`retarget convert --fix NAME=FILE.pb|v1,v2,...`; a dim is
// given a size by with_dims_given, ir/open_dims.hpp).
//
//   auto m2 = retarget::ir::with_input_fixed(m, "scale", retarget::ir::tensor::vector({2.f, 2.f}));
#ifndef RETARGET_IR_FIXED_INPUTS_HPP
#define RETARGET_IR_FIXED_INPUTS_HPP

#include <cstdint>
#include <retarget/core/config.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/tensor.hpp>
#include <string>
#include <string_view>

namespace retarget::ir {

// m with its graph input `name` an initializer holding `value`; retarget::error when m has no
// such input (naming the closest), or the value's element type or dims differ from what the
// input declares (a named or unknown dim takes any size).
RETARGET_COMPILED_DECL model with_input_fixed(const model& m, const std::string& name,
                                              const tensor& value);

// `text` as a value for m's input `name`: numbers separated by commas, of the input's element
// type, in the input's declared shape (which must be static; a single number also fills a
// scalar or a [1]); retarget::error naming the input and what does not fit.
RETARGET_COMPILED_DECL tensor input_value_of(const model& m, const std::string& name,
                                             std::string_view text);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/fixed_inputs_impl.hpp>
#endif

#endif  // RETARGET_IR_FIXED_INPUTS_HPP
