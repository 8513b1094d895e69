// How plan_opset and to_opset find opset adapters: every opset_adapter<Op, From, To> declared
// for a step where Op's schema can change is probed, as node rewrites are, so declaring the
// specialization is the whole registration; adapters listed in the Extra list of plan_opset
// and to_opset are added to those.
#ifndef RETARGET_CONVERT_DETAIL_OPSET_REGISTRY_HPP
#define RETARGET_CONVERT_DETAIL_OPSET_REGISTRY_HPP

#include <algorithm>
#include <array>
#include <boost/mp11/list.hpp>
#include <cstddef>
#include <optional>
#include <retarget/convert/node.hpp>
#include <retarget/convert/node_rewrite.hpp>
#include <retarget/convert/opset_adapter.hpp>
#include <retarget/core/fixed_string.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/schema.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retarget::convert::detail {

// One adapter, as the converter calls it. The shipped adapters take the graph as `auto& g`:
// their bodies (checked g.op calls) are compiled only where a conversion is, not in every unit
// that includes the opset headers.
struct adapter_entry {
  std::string_view op;
  int from, to;
  bool keeps_op;
  std::optional<std::string> (*refuses)(const node&, const input_facts&);
  std::vector<ir::value> (*call)(ir::graph&, const node&);
};

template <class A>
struct adapter_traits;
template <fixed_string Op, int From, int To>
struct adapter_traits<opset_adapter<Op, From, To>> {
  using A = opset_adapter<Op, From, To>;
  static_assert(
      !requires { typename A::retarget_undeclared; },
      "retarget: an opset_adapter listed for to_opset is not declared (specialize "
      "opset_adapter<Op, From, To> with a static call(ir::graph&, const node_of<Op>&))");
  static constexpr adapter_entry entry() {
    return {std::string_view(Op),
            From,
            To,
            [] {
              if constexpr (requires { A::keeps_op; })
                return A::keeps_op;
              else
                return true;
            }(),
            [](const node& n, const input_facts& in) -> std::optional<std::string> {
              if constexpr (requires { A::refuses(node_of<Op>(n), in); })
                return A::refuses(node_of<Op>(n), in);
              else
                return std::nullopt;
            },
            [](ir::graph& g, const node& n) { return as_outputs(A::call(g, node_of<Op>(n))); }};
  }
};

// A step of an op (its index in default_domain_ops) that may need an adapter.
struct opset_step {
  std::size_t op;
  int from, to;
};

// The steps where an op's schema can change, from the generated schema table: down from each
// opset from the op's first schema to its last, up into each but the first (no node of the op
// exists below its first). A step where the schema does not change is never asked for.
template <class Visit>
constexpr void for_each_candidate_step(Visit visit) {
  for (std::size_t op = 0; op < default_domain_ops.size(); ++op) {
    const auto [first_version, last_version] = ir::onnx_op_versions(default_domain_ops[op]);
    const int first = std::max(first_version, ir::min_opset + 1);
    const int last = std::min(last_version, ir::max_opset);
    for (int v = first; v <= last; ++v) {
      visit(opset_step{op, v, v - 1});
      if (v > first_version) visit(opset_step{op, v - 1, v});
    }
  }
}

// A variable template, so that it is computed where a plan or a conversion is instantiated,
// not in every unit that includes the opset headers.
template <class = void>
inline constexpr auto candidate_steps = [] {
  constexpr std::size_t count = [] {
    std::size_t n = 0;
    for_each_candidate_step([&](opset_step) { ++n; });
    return n;
  }();
  std::array<opset_step, count> out{};
  std::size_t i = 0;
  for_each_candidate_step([&](opset_step s) { out[i++] = s; });
  return out;
}();

// Deferred is always void; it makes candidate_steps<Deferred> dependent, so that the steps are
// computed where a table is instantiated, not where these templates are defined.
template <class Deferred>
struct deferred {
  using type = void;
};

template <std::size_t I, class Deferred = void>
using candidate_adapter =
    opset_adapter<op_name_at<candidate_steps<Deferred>[I].op>, candidate_steps<Deferred>[I].from,
                  candidate_steps<Deferred>[I].to>;

template <std::size_t I, class Deferred = void>
inline constexpr bool declared_at = !requires {
  typename candidate_adapter<I, Deferred>::retarget_undeclared;
};

// The probed adapters and the Extra ones, instantiated where a plan or conversion is, after
// the unit's declarations.
template <class Extra>
struct adapter_table;
template <class... Es>
struct adapter_table<boost::mp11::mp_list<Es...>> {
  using steps_of = typename deferred<boost::mp11::mp_list<Es...>>::type;
  static constexpr auto declared = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<bool, sizeof...(I)>{declared_at<I, steps_of>...};
  }
  (std::make_index_sequence<candidate_steps<steps_of>.size()>{});
  static constexpr std::size_t declared_count =
      static_cast<std::size_t>(std::count(declared.begin(), declared.end(), true));
  static constexpr auto declared_steps = [] {
    std::array<std::size_t, declared_count> out{};
    std::size_t k = 0;
    for (std::size_t i = 0; i < declared.size(); ++i)
      if (declared[i]) out[k++] = i;
    return out;
  }();
  static constexpr auto entries = []<std::size_t... K>(std::index_sequence<K...>) {
    return std::array<adapter_entry, sizeof...(K) + sizeof...(Es)>{
        adapter_traits<candidate_adapter<declared_steps[K], steps_of>>::entry()...,
        adapter_traits<Es>::entry()...};
  }
  (std::make_index_sequence<declared_count>{});
};

template <class Extra>
const adapter_entry* find_adapter(std::string_view op, int from, int to) {
  for (const auto& e : adapter_table<Extra>::entries)
    if (e.op == op && e.from == from && e.to == to) return &e;
  return nullptr;
}

}  // namespace retarget::convert::detail

#endif  // RETARGET_CONVERT_DETAIL_OPSET_REGISTRY_HPP
