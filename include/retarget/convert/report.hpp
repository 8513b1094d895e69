// What a conversion did: each rule of the backend's set (how often it fired, the nodes it
// matched and made, and for a rule that never fired, how close it came), the node rewrites
// that ran, what folding and cleanup removed, and how many passes reached the fixed point.
#ifndef RETARGET_CONVERT_REPORT_HPP
#define RETARGET_CONVERT_REPORT_HPP

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace retarget::convert {

// A node of the rule's root op where it did not fire, and why: its pattern stopped (after
// `depth` ops), its condition said no, or an earlier rule took the node.
struct rule_rejection {
  std::string at;  // the node, as messages describe it
  std::size_t depth = 0;
  bool matched = false;  // the whole pattern matched, and the condition said no
  std::string why;
  std::string taken_by = {};  // the rule that took the node first ("" when none did)
};

struct rule_record {
  std::string name = {};
  std::size_t fired = 0;
  std::size_t nodes_matched =
      0;  // nodes its pattern covered (they go when nothing else reads them)
  std::size_t nodes_created = 0;
  // For a rule that never fired: the attempt that got furthest, where, and why it stopped.
  std::string closest_at = {};
  std::size_t closest_depth = 0;
  bool closest_matched = false;  // the whole pattern matched, and the condition said no
  std::string closest_why = {};
  // Every node of its root op where it did not fire, once each, in the order met (fired or
  // not): what explain lists.
  std::vector<rule_rejection> rejections = {};
};

// "1 node", "2 nodes".
inline std::string count_of(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

struct node_rewrite_record {
  std::string op;
  std::string rewrite;  // whose rewrite ran: a backend's name or "default"
  std::size_t count = 0;
};

struct report {
  std::string backend;
  std::size_t nodes_before = 0, nodes_after = 0;
  std::size_t passes = 0;
  bool fixed_point = true;  // false: the pass bound stopped the rules
  std::vector<rule_record> rules;
  std::vector<node_rewrite_record> node_rewrites;
  std::map<std::string, std::size_t> folded;          // op → nodes folded into constants
  std::map<std::string, std::size_t> approximations;  // inexact rewrites asked for, by name
  std::size_t identities_bypassed = 0;                // Identity of a constant, read through
  std::size_t dead_nodes_removed = 0;
  std::size_t initializers_removed = 0;
  // Set when the original already fails ONNX's checker (an exporter's int64 Constant at opset
  // 6, say): why, and the result is held to it no more than the original was.
  std::string original_invalid;
  // The open dims of the inputs (a dynamic batch), when there are any: kept open ("'input'
  // dim 0 (n) kept open: converted at n = 2 and 5, 2 Reshape targets written for any size"),
  // or left as written with why.
  std::string open_dims;

  std::size_t rules_fired() const {
    std::size_t n = 0;
    for (const auto& r : rules) n += r.fired;
    return n;
  }
};

// One line, for the model's metadata: "rules: relu6 x2; node rewrites: LayerNormalization
// (opencv_dnn) x4; folded: Shape x3, Gather x3; removed 12 dead nodes, 2 initializers; 2 passes".
inline std::string summary(const report& r) {
  std::string out = "rules:";
  bool any = false;
  for (const auto& rule : r.rules)
    if (rule.fired) {
      out += std::string(any ? ", " : " ") + rule.name + " x" + std::to_string(rule.fired);
      any = true;
    }
  if (!any) out += " none";
  out += "; node rewrites:";
  any = false;
  for (const auto& n : r.node_rewrites) {
    out +=
        std::string(any ? ", " : " ") + n.op + " (" + n.rewrite + ") x" + std::to_string(n.count);
    any = true;
  }
  if (!any) out += " none";
  out += "; folded:";
  any = false;
  for (const auto& [op, n] : r.folded) {
    out += std::string(any ? ", " : " ") + op + " x" + std::to_string(n);
    any = true;
  }
  if (!any) out += " none";
  for (const auto& [name, n] : r.approximations)
    out += "; approximation " + name + " x" + std::to_string(n);
  if (r.identities_bypassed)
    out += "; identities of constants read through x" + std::to_string(r.identities_bypassed);
  if (!r.open_dims.empty()) out += "; " + r.open_dims;
  out += "; removed " + count_of(r.dead_nodes_removed, "dead node", "dead nodes") + ", " +
         count_of(r.initializers_removed, "initializer", "initializers") + "; " +
         count_of(r.passes, "pass", "passes") + (r.fixed_point ? "" : " (bound reached)");
  return out;
}

// Several lines for a person: the summary's facts, and with `explain` every rule that did not
// fire with its closest partial match.
inline std::string to_string(const report& r, bool explain = false) {
  std::string out =
      "converted for " + r.backend + ": " + count_of(r.nodes_before, "node", "nodes") + " -> " +
      count_of(r.nodes_after, "node", "nodes") + " in " + count_of(r.passes, "pass", "passes") +
      (r.fixed_point ? "" : " (stopped at the pass bound)") + "\n";
  for (const auto& rule : r.rules) {
    if (rule.fired) {
      out += "  rule " + rule.name + ": fired " + std::to_string(rule.fired) + "x, matched " +
             count_of(rule.nodes_matched, "node", "nodes") + ", made " +
             std::to_string(rule.nodes_created) + "\n";
    } else if (explain) {
      out += "  rule " + rule.name + ": never fired";
      if (rule.closest_at.empty())
        out += rule.rejections.empty()
                   ? " (no node of its root op)\n"
                   : " (each node of its root op was taken by an earlier rule)\n";
      else if (rule.closest_matched)
        out += "; at " + rule.closest_at + " the pattern matched, and " + rule.closest_why + "\n";
      else
        out += "; closest at " + rule.closest_at + " (" +
               count_of(rule.closest_depth, "op", "ops") +
               " of the pattern matched): " + rule.closest_why + "\n";
    }
    if (!explain) continue;
    // The other nodes where it did not fire (the closest attempt is said above), up to a
    // screenful: the record holds them all.
    constexpr std::size_t shown = 12;
    std::size_t listed = 0, left = 0;
    for (const auto& no : rule.rejections) {
      if (!rule.fired && no.at == rule.closest_at && no.why == rule.closest_why) continue;
      if (listed == shown) {
        ++left;
        continue;
      }
      ++listed;
      if (!no.taken_by.empty())
        out += "    at " + no.at + ": taken by rule " + no.taken_by + "\n";
      else if (no.matched)
        out += "    at " + no.at + ": the pattern matched, and " + no.why + "\n";
      else
        out += "    at " + no.at + " (" + count_of(no.depth, "op", "ops") + " matched): " + no.why +
               "\n";
    }
    if (left) out += "    and " + count_of(left, "more node", "more nodes") + "\n";
  }
  for (const auto& n : r.node_rewrites)
    out += "  node rewrite " + n.op + " (" + n.rewrite + "): " + std::to_string(n.count) + "x\n";
  for (const auto& [op, n] : r.folded) out += "  folded " + op + ": " + std::to_string(n) + "x\n";
  for (const auto& [name, n] : r.approximations)
    out += "  approximation " + name + " (asked for): " + std::to_string(n) + "x\n";
  if (r.identities_bypassed)
    out +=
        "  identities of constants read through: " + std::to_string(r.identities_bypassed) + "\n";
  out += "  removed " + count_of(r.dead_nodes_removed, "dead node", "dead nodes") + " and " +
         count_of(r.initializers_removed, "unused initializer", "unused initializers") + "\n";
  if (!r.open_dims.empty()) out += "  " + r.open_dims + "\n";
  if (!r.original_invalid.empty())
    out += "  not checked: the original fails ONNX's checker too (" + r.original_invalid + ")\n";
  return out;
}

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_REPORT_HPP
