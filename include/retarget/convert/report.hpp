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

struct rule_record {
  std::string name;
  std::size_t fired = 0;
  std::size_t nodes_matched = 0;  // nodes its pattern covered (they go when nothing else reads them)
  std::size_t nodes_created = 0;
  // For a rule that never fired: the attempt that got furthest, where, and why it stopped.
  std::string closest_at;
  std::size_t closest_depth = 0;
  std::string closest_why;
};

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
  std::map<std::string, std::size_t> folded;  // op → nodes folded into constants
  std::size_t identities_bypassed = 0;        // Identity of a constant, read through
  std::size_t dead_nodes_removed = 0;
  std::size_t initializers_removed = 0;

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
    out += std::string(any ? ", " : " ") + n.op + " (" + n.rewrite + ") x" +
           std::to_string(n.count);
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
  out += "; removed " + std::to_string(r.dead_nodes_removed) + " dead nodes, " +
         std::to_string(r.initializers_removed) + " initializers; " + std::to_string(r.passes) +
         (r.passes == 1 ? " pass" : " passes") + (r.fixed_point ? "" : " (bound reached)");
  return out;
}

// Several lines for a person: the summary's facts, and with `explain` every rule that did not
// fire with its closest partial match.
inline std::string to_string(const report& r, bool explain = false) {
  std::string out = "converted for " + r.backend + ": " + std::to_string(r.nodes_before) +
                    " nodes -> " + std::to_string(r.nodes_after) + " nodes in " +
                    std::to_string(r.passes) + (r.passes == 1 ? " pass" : " passes") +
                    (r.fixed_point ? "" : " (stopped at the pass bound)") + "\n";
  for (const auto& rule : r.rules) {
    if (rule.fired) {
      out += "  rule " + rule.name + ": fired " + std::to_string(rule.fired) + "x, matched " +
             std::to_string(rule.nodes_matched) + " nodes, made " +
             std::to_string(rule.nodes_created) + "\n";
    } else if (explain) {
      out += "  rule " + rule.name + ": never fired";
      if (rule.closest_at.empty())
        out += " (no node of its root op)\n";
      else
        out += "; closest at " + rule.closest_at + " (" + std::to_string(rule.closest_depth) +
               (rule.closest_depth == 1 ? " op matched): " : " ops matched): ") +
               rule.closest_why + "\n";
    }
  }
  for (const auto& n : r.node_rewrites)
    out += "  node rewrite " + n.op + " (" + n.rewrite + "): " + std::to_string(n.count) + "x\n";
  for (const auto& [op, n] : r.folded)
    out += "  folded " + op + ": " + std::to_string(n) + "x\n";
  if (r.identities_bypassed)
    out += "  identities of constants read through: " + std::to_string(r.identities_bypassed) +
           "\n";
  out += "  removed " + std::to_string(r.dead_nodes_removed) + " dead nodes and " +
         std::to_string(r.initializers_removed) + " unused initializers\n";
  return out;
}

}  // namespace retarget::convert

#endif  // RETARGET_CONVERT_REPORT_HPP
