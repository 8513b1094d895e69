// What a model holds, at a glance: opsets, inputs and outputs with their dims, how many
// nodes of each op (subgraphs included), custom domains, weights, and what retarget's export
// recorded (target backend, rewrite report). `retarget inspect` prints it.
//
//   std::cout << retarget::ir::summarize(retarget::ir::load("srcnn.onnx"));
#ifndef RETARGET_IR_INSPECT_HPP
#define RETARGET_IR_INSPECT_HPP

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/model.hpp>
#include <string>
#include <utility>
#include <vector>

namespace retarget::ir {

struct value_summary {
  std::string name;
  std::string type;               // "float32", or "?" when the model does not say
  std::vector<std::string> dims;  // "1", "height", or "?" for an unnamed unknown dim
  bool has_shape = false;
};

struct model_summary {
  std::int64_t ir_version = 0;
  std::string producer;
  std::vector<std::pair<std::string, std::int64_t>> opsets;  // domain ("ai.onnx" for ""), version
  std::vector<value_summary> inputs, outputs;                // inputs exclude the weights
  std::vector<std::pair<std::string, std::size_t>> ops;      // op → count, most used first
  std::size_t node_count = 0;
  std::vector<std::string> custom_domains;
  std::size_t weight_count = 0;                  // initializers
  std::int64_t parameter_count = 0;              // their elements
  std::uint64_t weight_bytes = 0;                // their bytes, in the file or external
  std::optional<std::string> backend, rewrites;  // retarget:backend, retarget:rewrites
  std::vector<std::pair<std::string, std::string>> metadata;  // any other metadata
};

// What the model holds (the weights counted by their dims, shared or external ones too).
RETARGET_COMPILED_DECL model_summary summarize(const model& m);

// "1.2 MiB" for a byte count.
RETARGET_COMPILED_DECL std::string human_bytes(std::uint64_t bytes);

RETARGET_COMPILED_DECL std::ostream& operator<<(std::ostream& out, const model_summary& s);

}  // namespace retarget::ir

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/ir/detail/inspect_impl.hpp>
#endif

#endif  // RETARGET_IR_INSPECT_HPP
