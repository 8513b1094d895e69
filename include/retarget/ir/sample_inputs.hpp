// Inputs to run a model on: what it takes (its graph inputs that are not weights), a check
// that a given tensor fits one, and seeded random tensors, so that two engines, or a model
// and its converted twin, see the same numbers.
//
//   const auto feeds = retarget::ir::sample_inputs(model, {{"input", {1, 3, 224, 224}}}, 7);
//
// The random numbers come from a generator written out in retarget (splitmix64), not from
// <random>'s distributions, whose output the standard leaves to each library: the same seed gives
// the same tensors with every compiler.
#ifndef RETARGET_IR_SAMPLE_INPUTS_HPP
#define RETARGET_IR_SAMPLE_INPUTS_HPP

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/dtype.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/tensor.hpp>
#include <retarget/ir/value.hpp>
#include <string>
#include <vector>

namespace retarget::ir {

// A graph input the caller must give: its name, element type and declared shape.
struct model_input {
  std::string name;
  dtype type = dtype::undefined;
  // As the graph declares it, each dim static, symbolic (by its name) or unknown; no dims when
  // it declares none.
  std::vector<dim> shape;
};

// The model's inputs in order, without those an initializer gives (weights).
RETARGET_LAZY_DECL std::vector<model_input> inputs_of(const model& m);

// A graph output as the model declares it: the same three facts.
using model_output = model_input;

// The model's outputs in order.
RETARGET_LAZY_DECL std::vector<model_output> outputs_of(const model& m);

// `t` in the dims and element type `out` declares, where an engine gives the same elements in
// another form: a 1-D output as [N, 1], integers or bools as float32 (OpenCV's DNN does both).
// The dims are the declared ones when all are static and hold t's elements, or when the two
// agree but for axes of 1 (each dynamic dim then takes t's size); the values convert when t is
// float32 and `out` declares another number type or bool (integers rounded to the nearest).
// Otherwise `t` comes back as it is, and a comparison with the expected output shows what
// differs.
RETARGET_LAZY_DECL tensor as_declared(const model_output& out, tensor t);

// The dims to feed `in` with: its static dims, and the dynamic ones from `given` (a whole
// shape, which must agree with the static dims). retarget::error naming the input and the
// dim when a dynamic dim has no value.
RETARGET_LAZY_DECL dims_t concrete_dims(const model_input& in, const std::optional<dims_t>& given);

// Why `t` cannot feed `in` (its element type or its dims), or "" when it can.
RETARGET_LAZY_DECL std::string mismatch(const model_input& in, const tensor& t);

// retarget::error "FILE does not fit MODEL: why" when `t`, read from `file`, cannot feed `in`
// of the model read from `model_file`: how the tool and the backend consoles refuse an input.
RETARGET_LAZY_DECL void check_fits(const model_input& in, const tensor& t,
                                   const std::filesystem::path& file,
                                   const std::filesystem::path& model_file);

// A tensor of random values from `seed`: floating-point uniform in [-1, 1), integers uniform
// in [0, 10) (small enough to be valid indices and counts of small axes), bools 0 or 1.
RETARGET_LAZY_DECL tensor random_tensor(dtype type, const dims_t& dims, std::uint64_t seed);

// The most bytes sample_input makes for one input: a model may declare a dim of 100000, but
// 112 GiB of random numbers is not an input to test it with.
inline constexpr std::uint64_t sample_limit = std::uint64_t{1} << 30;

// A random tensor for the input: its numbers depend on the seed and the input's name only,
// not on the model's other inputs. retarget::error, before anything is allocated, when it
// would be bigger than sample_limit.
RETARGET_LAZY_DECL tensor sample_input(const model_input& in, const dims_t& dims,
                                       std::uint64_t seed);

// Every input the model takes: from `given` where it is there (checked to fit), else a random
// tensor (sample_input) of the dims in `shapes`, which a dynamic dim needs.
RETARGET_LAZY_DECL std::map<std::string, tensor> sample_inputs(
    const model& m, const std::map<std::string, dims_t>& shapes, std::uint64_t seed,
    std::map<std::string, tensor> given = {});

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/sample_inputs_impl.hpp>
#endif

#endif  // RETARGET_IR_SAMPLE_INPUTS_HPP
