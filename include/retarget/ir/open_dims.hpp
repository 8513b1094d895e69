// The dims a model leaves open on its graph inputs (a batch exported with torch's
// dynamic_axes: "n" or "?"), the model with them given sizes, and two models made from it at
// two sizes joined back into one that holds for any size. That is how a conversion which needs
// static shapes keeps a batch dynamic: it converts at two sizes, where every shape computation
// folds, and keeps what differs between the two results only where a size-free form says it
// exactly (a Reshape's target: 0 copies the input's dim, -1 infers the one left).
//
//   auto open = retarget::ir::open_dims(m);        // [{input, 0, "n"}]
//   auto at2 = convert(retarget::ir::with_sizes(m, open, 2));
//   auto at3 = convert(retarget::ir::with_sizes(m, open, 3));
//   auto any = retarget::ir::joined_over_sizes(m, at2, at3);
#ifndef RETARGET_IR_OPEN_DIMS_HPP
#define RETARGET_IR_OPEN_DIMS_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <retarget/core/config.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_view.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::ir {

// The sizes a conversion gives open dims, one result each (their first key; the next keys
// take the next sizes): neither 1 (which broadcasts) nor a multiple of the other.
inline constexpr std::int64_t trial_sizes[] = {2, 5};
// The sizes a check of what an engine refuses gives them: 1 as well, a size users run and the
// one an engine may take an open batch for when it loads the model (OpenCV 4.6 does).
inline constexpr std::int64_t checked_sizes[] = {1, 2, 5};

// The metadata key with_sizes marks its result with (the dims it gave sizes, as describe()
// says them): an engine loading the model meets those dims open, so what it does with open
// dims applies to the model at its sizes too (OpenCV 4.6 computes some shapes once, when it
// loads the model, at a batch of 1). joined_over_sizes drops it.
inline constexpr std::string_view trial_sizes_key = "retarget:open_dims_at_trial_sizes";

// A dim a graph input leaves open: its input, axis and name ("" for an unnamed one). Dims of
// one name are one size: they are given it together.
struct open_dim {
  std::string input;
  std::size_t axis = 0;
  std::string name;

  // "'input' dim 0 (n)": how messages name it.
  std::string describe() const;
  // What ties dims to one size: the name, or the input and axis of an unnamed dim.
  std::string key() const;
};

// The open dims of m's graph inputs (initializers that are inputs left out), in input order.
RETARGET_COMPILED_DECL std::vector<open_dim> open_dims(const model& m);

// m with each dim of `open` given a size: the first key `base`, the next `base` + 1, and so on
// (distinct sizes, so that two open dims are never confused), marked as trial_sizes_key says;
// the weights stay shared.
RETARGET_COMPILED_DECL model with_sizes(const model& m, const std::vector<open_dim>& open,
                                        std::int64_t base);

// Whether m is a model with_sizes made: its sizes stand for open dims an engine meets open.
RETARGET_COMPILED_DECL bool at_trial_sizes(const model& m);
RETARGET_COMPILED_DECL bool at_trial_sizes(const model_view& m);

// m with its open dims given sizes, by key (a dim's name, or "input:axis" for an unnamed one, as
// open_dim::key() says), the others left open (`retarget convert --dim NAME=N`, as onnxsim's
// --overwrite-input-shape); retarget::error naming a key that is no open dim of m, or a size
// below 1. The weights stay shared; intermediate shapes are dropped.
RETARGET_COMPILED_DECL model with_dims_given(const model& m,
                                             const std::map<std::string, std::int64_t>& sizes);

// One model from `at_a` and `at_b`, two results of one deterministic pass over `original`
// given two sizes (with_sizes at two bases): the same nodes, attributes and constants where
// they agree; a constant where they differ is a Reshape's target, written with 0 where it is
// the input's dim and -1 for the one dim left. The graph inputs and outputs take the original's
// types (open again) and the intermediate shapes are dropped. retarget::error, naming the node
// and the sizes' values, where the two differ otherwise (a size-dependent constant another op
// reads, a node of its own), or a Reshape needs two dims inferred.
RETARGET_COMPILED_DECL model joined_over_sizes(const model& original, const model& at_a,
                                               const model& at_b);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/open_dims_impl.hpp>
#endif

#endif  // RETARGET_IR_OPEN_DIMS_HPP
