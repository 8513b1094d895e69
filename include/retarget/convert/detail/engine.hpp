// The conversion engine apart from any backend: the passes (rebuild, fold, cleanup) and their
// loop. A backend adds its rules and node rewrites through backend_hooks, which convert<B>
// makes where it is called; the engine itself is compiled once into retarget::compiled when
// that is linked, and is inline otherwise.
#ifndef RETARGET_CONVERT_DETAIL_ENGINE_HPP
#define RETARGET_CONVERT_DETAIL_ENGINE_HPP

#include <cstddef>
#include <optional>
#include <retarget/convert/detail/pattern_match.hpp>
#include <retarget/convert/node.hpp>
#include <retarget/convert/options.hpp>
#include <retarget/convert/report.hpp>
#include <retarget/core/config.hpp>
#include <retarget/core/rewrite_log.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/node_view.hpp>
#include <retarget/ir/topology.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace retarget::convert::detail {

// Records which node rewrites ran, for the report.
struct node_log {
  std::vector<node_rewrite_record>* records;
  std::size_t fired = 0;
  std::vector<std::size_t> order;  // the record of each firing, to forget the latest ones
  void record(rewrite_kind, std::string_view target, std::string_view, std::string_view rewrite) {
    ++fired;
    for (std::size_t i = 0; i < records->size(); ++i)
      if ((*records)[i].op == target && (*records)[i].rewrite == rewrite) {
        ++(*records)[i].count;
        order.push_back(i);
        return;
      }
    records->push_back({std::string(target), std::string(rewrite), 1});
    order.push_back(records->size() - 1);
  }
  // Forgets the firings after the first `keep` (a rewrite that ended at the origin). A record
  // those firings created is the last of the list, and goes with them.
  void forget(std::size_t keep) {
    while (fired > keep) {
      const std::size_t index = order.back();
      order.pop_back();
      --fired;
      if (--(*records)[index].count == 0 && index + 1 == records->size()) records->pop_back();
    }
  }
};

// A node as the backend's rules see it, with the report their records go to.
struct rule_site {
  ir::graph& g;
  ir::node_view node;
  const std::vector<ir::value>& inputs;
  report& r;
  const options& o;
  const reader_count* readers;  // how many nodes read a value, once all are rebuilt
};

// A rule that fired: its outputs, for the node's.
struct rule_firing {
  std::vector<ir::value> outputs;
  std::string_view rule;
};

// A pattern rule as the engine tries it: its pattern as data, and the two functions compiled
// for it (convert.hpp's entry_of<R>).
struct rule_entry {
  std::string_view name;
  pattern_data pattern;
  std::size_t captures = 0;
  // The approximation the rule is (its `using approximation = tag;`), "" for an exact rule: it
  // runs only when options::approximations names it, and marks the nodes it makes.
  std::string_view approximation;
  // Whether the match passes the rule's condition; on a no, it may say why. Null: none.
  bool (*condition)(const match_data&, std::string& why) = nullptr;
  // The root's outputs, from the replacement the rule emitted into the graph.
  std::vector<ir::value> (*replace)(ir::graph&, const match_data&) = nullptr;
};

// What a backend adds to the engine.
struct backend_hooks {
  std::string_view backend;
  std::span<const rule_entry> rules;        // tried in order: the first that fires takes the node
  std::span<const std::size_t> by_root_op;  // the rules' indices, by root op, in order within one
  // The node rebuilt through its op's node rewrite (the origin emits it unchanged).
  std::vector<ir::value> (*rewrite_node)(const options&, node_log&, ir::graph&, const node&);
};

// The conversion of `source` with the backend's hooks (convert<B> calls it).
RETARGET_LAZY_DECL result convert_with(ir::model source, const options& o,
                                       const backend_hooks& hooks);

}  // namespace retarget::convert::detail

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/convert/detail/engine_impl.hpp>
#endif

#endif  // RETARGET_CONVERT_DETAIL_ENGINE_HPP
