// A pattern as data, and the one function that matches every pattern. rule.hpp checks a
// pattern at compile time and flattens it into an array of pattern_element; matching walks that
// array at run time. Each rule thus compiles into data and its own condition and replacement,
// not into a matcher of its own (which was most of a rule's compile time and code).
#ifndef RETARGET_CONVERT_DETAIL_PATTERN_MATCH_HPP
#define RETARGET_CONVERT_DETAIL_PATTERN_MATCH_HPP

#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/core/config.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/value.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::convert {

// How far an attempt got: the ops matched before it failed, and why it failed.
struct attempt {
  std::size_t depth = 0;
  std::string why;
};

namespace detail {

// One piece of a pattern, flattened depth first: an op is followed by its inputs' pieces.
struct pattern_element {
  enum class kind : std::uint8_t { op, any, value, constant };
  kind what = kind::any;
  std::string_view op;       // kind::op: the op type, of the default domain
  std::string_view capture;  // the name it binds ("" for none), for messages
  std::ptrdiff_t slot = -1;  // the capture's slot in match_data::slots, -1 for none
  std::size_t extent = 1;    // the pieces of the subtree that starts here, itself included
  std::size_t inputs = 0;    // kind::op: how many input subtrees follow
  std::size_t output = 0;    // kind::op: which of the node's outputs its consumer reads
  bool commutative = false;  // kind::op: two inputs, matched either way round
};

// A capture's value: a value for "x"_v and "w"_c, a node for .as<"n">().
struct capture_slot {
  ir::value value;
  std::optional<ir::node_view> node;
};

// What a match found, read through match<Pattern> by the rule's condition and replacement.
struct match_data {
  ir::graph* graph = nullptr;
  std::vector<capture_slot> slots;
  std::vector<ir::node_view> nodes;  // the root first, then depth first
};

// Matches `pattern` rooted at `root`, whose inputs (as values of g) are `inputs`, filling
// `found` (its slots sized for the pattern's captures); on a failure, `progress` says how far
// it got and why.
RETARGET_COMPILED_DECL bool match_pattern(std::span<const pattern_element> pattern, ir::graph& g,
                                          const ir::node_view& root,
                                          const std::vector<ir::value>& inputs, match_data& found,
                                          attempt& progress);

}  // namespace detail
}  // namespace retarget::convert

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/convert/detail/pattern_match_impl.hpp>
#endif

#endif  // RETARGET_CONVERT_DETAIL_PATTERN_MATCH_HPP
