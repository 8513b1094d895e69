// A pattern as data, and the one function that matches every pattern. rule.hpp checks a
// pattern at compile time and flattens it into an array of pattern_element (and the tests its
// pieces put on attributes and constants); matching walks that array at run time. Each rule
// thus compiles into data and its own condition and replacement, not into a matcher of its own
// (which was most of a rule's compile time and code).
#ifndef RETARGET_CONVERT_DETAIL_PATTERN_MATCH_HPP
#define RETARGET_CONVERT_DETAIL_PATTERN_MATCH_HPP

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <retarget/convert/options.hpp>
#include <retarget/core/config.hpp>
#include <retarget/ir/attribute.hpp>
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

// A test a piece of a pattern puts on what it matches: an attribute of its op's node (read with
// the schema's default when the node does not set it), or every element of a constant. It
// passes when the value is one of `count` allowed ones.
struct value_test {
  static constexpr std::size_t most = 8;          // the most values a test allows
  std::string_view attribute;                     // "" for a constant's elements
  ir::attr_type kind = ir::attr_type::undefined;  // an attribute's: int_, float_ or string
  std::array<double, most> numbers{};
  std::array<std::string_view, most> strings{};
  std::size_t count = 0;
  double tolerance = 0;  // relative, for floats: 0 compares in the stored precision
};

// One piece of a pattern, flattened depth first: an op is followed by its inputs' pieces, an
// optional by its piece, an either by its two alternatives.
struct pattern_element {
  enum class kind : std::uint8_t { op, any, value, constant, optional, either };
  kind what = kind::any;
  std::string_view op;       // kind::op, and an either at the root: the op type at the root
  std::string_view capture;  // the name it binds ("" for none), for messages
  std::ptrdiff_t slot = -1;  // the capture's slot in match_data::slots, -1 for none
  std::size_t extent = 1;    // the pieces of the subtree that starts here, itself included
  std::size_t inputs = 0;    // kind::op: how many input subtrees follow
  std::size_t output = 0;    // kind::op: which of the node's outputs its consumer reads
  bool commutative = false;  // kind::op: two inputs, matched either way round
  bool shared = false;       // kind::op: its outputs may have readers outside the match
  std::size_t first_test = 0, tests = 0;  // kind::op, kind::constant: its value_tests
};

// A pattern as data: its pieces and the tests they refer to.
struct pattern_data {
  std::span<const pattern_element> elements;
  std::span<const value_test> tests;
};

// How many nodes will read a value once the graph is rebuilt whole: what the engine knows of
// the readers not rebuilt yet.
class reader_count {
 public:
  virtual std::size_t readers(const ir::value& v) const = 0;

 protected:
  ~reader_count() = default;
};

// A capture's value: a value for "x"_v and "w"_c, a node for .as<"n">(); an optional input
// that is absent leaves it invalid.
struct capture_slot {
  ir::value value;
  std::optional<ir::node_view> node;
};

// What a match found, read through match<Pattern> by the rule's condition and replacement.
struct match_data {
  ir::graph* graph = nullptr;
  const options* given = nullptr;         // the conversion's options
  const reader_count* readers = nullptr;  // null: every interior node counts as unshared
  std::vector<capture_slot> slots;
  std::vector<ir::node_view> nodes;  // the root first, then depth first
};

// The elements of `v`, captured as `capture`, as doubles; retarget::error naming the capture
// when it is not a constant.
RETARGET_COMPILED_DECL std::vector<double> constant_values(const match_data& found,
                                                           const ir::value& v,
                                                           std::string_view capture);

// Matches `pattern` rooted at `root`, whose inputs (as values of g) are `inputs`, filling
// `found` (its slots sized for the pattern's captures); on a failure, `progress` says how far
// it got and why.
RETARGET_COMPILED_DECL bool match_pattern(const pattern_data& pattern, ir::graph& g,
                                          const ir::node_view& root,
                                          const std::vector<ir::value>& inputs, match_data& found,
                                          attempt& progress);

}  // namespace detail
}  // namespace retarget::convert

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/convert/detail/pattern_match_impl.hpp>
#endif

#endif  // RETARGET_CONVERT_DETAIL_PATTERN_MATCH_HPP
