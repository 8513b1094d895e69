// The definition of match_pattern (pattern_match.hpp): inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_CONVERT_DETAIL_PATTERN_MATCH_IMPL_HPP
#define RETARGET_CONVERT_DETAIL_PATTERN_MATCH_IMPL_HPP

#include <cstddef>
#include <retarget/convert/detail/pattern_match.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/value.hpp>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retarget::convert::detail {

// Why an attempt stopped, given the node it stopped at as messages name it.
inline std::string input_text(std::size_t index, const std::string& node) {
  return "input " + std::to_string(index) + " of " + node;
}
inline std::string absent_input(std::size_t index, const std::string& node,
                                std::string_view expects) {
  return input_text(index, node) + " is absent" +
         (expects.empty() ? "" : ", the pattern expects " + std::string(expects));
}

// A walk of one pattern over the graph, from its root.
class pattern_walk {
 public:
  pattern_walk(std::span<const pattern_element> pattern, ir::graph& g, match_data& found,
               attempt& progress)
      : pattern_(pattern), g_(g), found_(found), progress_(progress) {}

  // The op piece at `at` against `node`, whose inputs are `inputs`.
  bool match_op(std::size_t at, const ir::node_view& node, const std::vector<ir::value>& inputs) {
    const pattern_element& p = pattern_[at];
    if (node.op_type() != p.op || !node.in_default_domain())
      return fail("expected " + std::string(p.op) + ", found " + node.describe());
    if (p.slot >= 0) found_.slots[static_cast<std::size_t>(p.slot)].node = node;
    for (std::size_t i = p.inputs; i < inputs.size(); ++i)
      if (inputs[i].valid())
        return fail(node.describe() + " has " + std::to_string(inputs.size()) +
                    " inputs, the pattern " + std::to_string(p.inputs));
    found_.nodes.push_back(node);
    ++progress_.depth;
    if (!p.commutative) return match_inputs(at, node, inputs, false);
    const auto slots = found_.slots;
    const auto nodes = found_.nodes.size();
    const auto depth = progress_.depth;
    if (match_inputs(at, node, inputs, false)) return true;
    found_.slots = slots;
    found_.nodes.erase(found_.nodes.begin() + static_cast<std::ptrdiff_t>(nodes),
                       found_.nodes.end());
    progress_.depth = depth;
    return match_inputs(at, node, inputs, true);
  }

 private:
  bool fail(std::string why) {
    progress_.why = std::move(why);
    return false;
  }

  // The input pieces of the op at `at`, in order, or the first two swapped.
  bool match_inputs(std::size_t at, const ir::node_view& node, const std::vector<ir::value>& inputs,
                    bool swapped) {
    std::size_t piece = at + 1;
    for (std::size_t index = 0; index < pattern_[at].inputs; ++index) {
      const std::size_t from = swapped && index < 2 ? 1 - index : index;
      const ir::value v = from < inputs.size() ? inputs[from] : ir::value{};
      if (!match_value(piece, v, node, index)) return false;
      piece += pattern_[piece].extent;
    }
    return true;
  }

  // The piece at `at` against `v`, input `index` of `node`.
  bool match_value(std::size_t at, const ir::value& v, const ir::node_view& node,
                   std::size_t index) {
    const pattern_element& p = pattern_[at];
    using kind = pattern_element::kind;
    if (p.what == kind::any) return true;
    if (p.what != kind::op) {
      if (!v.valid()) return fail(absent_input(index, node.describe(), {}));
      if (p.what == kind::constant && !g_.constant_data(v))
        return fail(input_text(index, node.describe()) + " ('" + v.name() +
                    "') is not a constant, as \"" + std::string(p.capture) + "\"_c requires");
      auto& slot = found_.slots[static_cast<std::size_t>(p.slot)].value;
      if (slot.valid() && !(slot == v))
        return fail("\"" + std::string(p.capture) + "\" is bound to '" + slot.name() +
                    "' and to '" + v.name() + "'");
      slot = v;
      return true;
    }
    if (!v.valid()) return fail(absent_input(index, node.describe(), p.op));
    const auto producer = g_.producer(v);
    if (!producer)
      return fail(input_text(index, node.describe()) + " ('" + v.name() +
                  "') is not a node's output, the pattern expects " + std::string(p.op));
    if (p.output >= producer->output_count() || producer->output(p.output) != v.name())
      return fail("'" + v.name() + "' is not output " + std::to_string(p.output) + " of " +
                  producer->describe());
    std::vector<ir::value> producer_inputs;
    for (const auto& name : producer->inputs())
      producer_inputs.push_back(name.empty() ? ir::value{} : g_.find(name));
    return match_op(at, *producer, producer_inputs);
  }

  std::span<const pattern_element> pattern_;
  ir::graph& g_;
  match_data& found_;
  attempt& progress_;
};

RETARGET_COMPILED_DECL bool match_pattern(std::span<const pattern_element> pattern, ir::graph& g,
                                          const ir::node_view& root,
                                          const std::vector<ir::value>& inputs, match_data& found,
                                          attempt& progress) {
  found.graph = &g;
  return pattern_walk(pattern, g, found, progress).match_op(0, root, inputs);
}

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_PATTERN_MATCH_IMPL_HPP
