// The definition of match_pattern (pattern_match.hpp): inline header-only, compiled once into
// retarget::compiled otherwise.
#ifndef RETARGET_CONVERT_DETAIL_PATTERN_MATCH_IMPL_HPP
#define RETARGET_CONVERT_DETAIL_PATTERN_MATCH_IMPL_HPP

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <retarget/convert/detail/pattern_match.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/tensor_stats.hpp>
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

// The values a test allows, for messages: "1", "one of {1, 2}".
inline std::string allowed_values(const value_test& t) {
  std::string out;
  for (std::size_t i = 0; i < t.count; ++i) {
    if (i) out += ", ";
    if (t.kind == ir::attr_type::string)
      out += "'" + std::string(t.strings[i]) + "'";
    else
      out += ir::format_number(t.numbers[i]);
  }
  return t.count == 1 ? out : "one of {" + out + "}";
}

// Whether `actual` is `wanted` as a value stored as `type` holds it: a float compared in the
// precision it is stored in, within a relative tolerance when the test gives one.
inline bool same_number(double actual, double wanted, double tolerance, ir::dtype type) {
  if (tolerance > 0)  // relative, and absolute around 0
    return std::abs(actual - wanted) <= tolerance * (wanted == 0 ? 1.0 : std::abs(wanted));
  if (type == ir::dtype::f32) return actual == static_cast<double>(static_cast<float>(wanted));
  if (type == ir::dtype::f16 || type == ir::dtype::bf16)  // 8 or 11 bits of mantissa
    return std::abs(actual - wanted) <= (type == ir::dtype::f16 ? 1e-3 : 8e-3) * std::abs(wanted);
  return actual == wanted;
}
inline bool allowed_number(const value_test& t, double actual, ir::dtype type) {
  for (std::size_t i = 0; i < t.count; ++i)
    if (same_number(actual, t.numbers[i], t.tolerance, type)) return true;
  return false;
}

// A walk of one pattern over the graph, from its root.
class pattern_walk {
 public:
  pattern_walk(const pattern_data& pattern, ir::graph& g, match_data& found, attempt& progress)
      : pattern_(pattern.elements),
        tests_(pattern.tests),
        g_(g),
        found_(found),
        progress_(progress) {}

  // The pattern's root, an op piece or alternatives of one op, against `node`.
  bool match_root(std::size_t at, const ir::node_view& node, const std::vector<ir::value>& inputs) {
    if (pattern_[at].what != pattern_element::kind::either) return match_op(at, node, inputs);
    return either_of([&] { return match_root(at + 1, node, inputs); },
                     [&] { return match_root(at + 1 + pattern_[at + 1].extent, node, inputs); },
                     "neither alternative matched");
  }

  // The op piece at `at` against `node`, whose inputs are `inputs`.
  bool match_op(std::size_t at, const ir::node_view& node, const std::vector<ir::value>& inputs) {
    const pattern_element& p = pattern_[at];
    if (node.op_type() != p.op || !node.in_default_domain())
      return fail("expected " + std::string(p.op) + ", found " + node.describe());
    for (std::size_t i = p.inputs; i < inputs.size(); ++i)
      if (inputs[i].valid())
        return fail(node.describe() + " has " + std::to_string(inputs.size()) +
                    " inputs, the pattern " + std::to_string(p.inputs));
    for (std::size_t t = p.first_test; t < p.first_test + p.tests; ++t)
      if (!attribute_passes(tests_[t], node)) return false;
    if (p.slot >= 0) found_.slots[static_cast<std::size_t>(p.slot)].node = node;
    found_.nodes.push_back(node);
    ++progress_.depth;
    if (!p.commutative) return match_inputs(at, node, inputs, false);
    return either_of([&] { return match_inputs(at, node, inputs, false); },
                     [&] { return match_inputs(at, node, inputs, true); }, nullptr);
  }

 private:
  bool fail(std::string why) {
    progress_.why = std::move(why);
    return false;
  }

  // Tries `first`, and on a failure `second` from the same state. With `both_failed`, a
  // failure of both says both reasons.
  template <class First, class Second>
  bool either_of(First first, Second second, const char* both_failed) {
    const auto slots = found_.slots;
    const auto nodes = found_.nodes.size();
    const auto depth = progress_.depth;
    if (first()) return true;
    const std::string first_why = std::move(progress_.why);
    const auto first_depth = progress_.depth;
    found_.slots = slots;
    found_.nodes.erase(found_.nodes.begin() + static_cast<std::ptrdiff_t>(nodes),
                       found_.nodes.end());
    progress_.depth = depth;
    if (second()) return true;
    if (both_failed) {
      progress_.why = std::string(both_failed) + ": " +
                      (first_why == progress_.why ? first_why
                                                  : "the first because " + first_why +
                                                        "; the second because " + progress_.why);
      progress_.depth = std::max(progress_.depth, first_depth);
    }
    return false;
  }

  // Test `t` of an attribute of `node`, its schema's default when the node does not set it.
  bool attribute_passes(const value_test& t, const ir::node_view& node) {
    const auto a = g_.attribute_or_default(node, t.attribute);
    const std::string wants = ", the pattern wants " + allowed_values(t);
    if (!a)
      return fail(node.describe() + " does not set " + std::string(t.attribute) +
                  " and its schema gives no default" + wants);
    if (a->kind() != t.kind)
      return fail(node.describe() + " has " + std::string(t.attribute) + " of another kind" +
                  wants);
    const std::string has = node.describe() + " has " + std::string(t.attribute) + " = ";
    if (t.kind == ir::attr_type::string) {
      for (std::size_t i = 0; i < t.count; ++i)
        if (a->s() == t.strings[i]) return true;
      return fail(has + "'" + a->s() + "'" + wants);
    }
    const double actual =
        t.kind == ir::attr_type::int_ ? static_cast<double>(a->i()) : static_cast<double>(a->f());
    if (allowed_number(t, actual, t.kind == ir::attr_type::int_ ? ir::dtype::i64 : ir::dtype::f32))
      return true;
    return fail(has + ir::format_number(actual) + wants);
  }

  // Test `t` of every element of the constant `data`, input `index` of `node`.
  bool constant_passes(const value_test& t, const ir::tensor_view& data, const ir::value& v,
                       const ir::node_view& node, std::size_t index) {
    const auto type = data.type();
    for (const double x : ir::values_as_double(data))
      if (!allowed_number(t, x, type))
        return fail(input_text(index, node.describe()) + " ('" + v.name() + "') holds " +
                    ir::format_number(x) + ", the pattern wants " + allowed_values(t) +
                    (data.element_count() == 1 ? "" : " in every element"));
    return true;
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
    switch (p.what) {
      case kind::any:
        return true;
      case kind::optional:
        return !v.valid() || match_value(at + 1, v, node, index);
      case kind::either:
        return either_of(
            [&] { return match_value(at + 1, v, node, index); },
            [&] { return match_value(at + 1 + pattern_[at + 1].extent, v, node, index); },
            "neither alternative matched");
      case kind::value:
      case kind::constant:
        return match_capture(p, v, node, index);
      case kind::op:
        break;
    }
    if (!v.valid()) return fail(absent_input(index, node.describe(), p.op));
    const auto producer = g_.producer(v);
    if (!producer)
      return fail(input_text(index, node.describe()) + " ('" + v.name() +
                  "') is not a node's output, the pattern expects " + std::string(p.op));
    if (p.output >= producer->output_count() || producer->output(p.output) != v.name())
      return fail("'" + v.name() + "' is not output " + std::to_string(p.output) + " of " +
                  producer->describe());
    // A node the match replaces must have no reader outside it, or its work would be done
    // twice: once by the replacement, once for the other reader.
    if (!p.shared && found_.readers)
      for (const auto& out : producer->outputs()) {
        if (out.empty()) continue;
        const std::size_t readers = found_.readers->readers(g_.find(out));
        if (readers > (out == v.name() ? 1u : 0u))
          return fail(producer->describe() + " has readers outside the pattern ('" + out +
                      "' is read " + std::to_string(readers) +
                      " times); rc::shared(...) lets an interior node have them");
      }
    std::vector<ir::value> producer_inputs;
    for (const auto& name : producer->inputs())
      producer_inputs.push_back(name.empty() ? ir::value{} : g_.find(name));
    return match_op(at, *producer, producer_inputs);
  }

  // A capture ("x"_v, "w"_c) against `v`.
  bool match_capture(const pattern_element& p, const ir::value& v, const ir::node_view& node,
                     std::size_t index) {
    if (!v.valid()) return fail(absent_input(index, node.describe(), {}));
    if (p.what == pattern_element::kind::constant) {
      const ir::tensor_view data = g_.constant_data(v);
      if (!data)
        return fail(input_text(index, node.describe()) + " ('" + v.name() +
                    "') is not a constant, as \"" + std::string(p.capture) + "\"_c requires");
      for (std::size_t t = p.first_test; t < p.first_test + p.tests; ++t)
        if (!constant_passes(tests_[t], data, v, node, index)) return false;
    }
    if (p.slot < 0) return true;
    auto& slot = found_.slots[static_cast<std::size_t>(p.slot)].value;
    if (slot.valid() && !(slot == v))
      return fail("\"" + std::string(p.capture) + "\" is bound to '" + slot.name() + "' and to '" +
                  v.name() + "'");
    slot = v;
    return true;
  }

  std::span<const pattern_element> pattern_;
  std::span<const value_test> tests_;
  ir::graph& g_;
  match_data& found_;
  attempt& progress_;
};

RETARGET_COMPILED_DECL std::vector<double> constant_values(const match_data& found,
                                                           const ir::value& v,
                                                           std::string_view capture) {
  const ir::tensor_view data = v.valid() ? found.graph->constant_data(v) : nullptr;
  if (!data)
    throw error("retarget: capture \"" + std::string(capture) + "\" " +
                (v.valid() ? "('" + v.name() + "') is not a constant" : "is not bound"));
  return ir::values_as_double(data);
}

RETARGET_COMPILED_DECL bool match_pattern(const pattern_data& pattern, ir::graph& g,
                                          const ir::node_view& root,
                                          const std::vector<ir::value>& inputs, match_data& found,
                                          attempt& progress) {
  found.graph = &g;
  return pattern_walk(pattern, g, found, progress).match_root(0, root, inputs);
}

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_PATTERN_MATCH_IMPL_HPP
