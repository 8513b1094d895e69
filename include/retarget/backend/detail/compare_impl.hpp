// The definitions of backend/compare.hpp's functions that no engine's type decides: inline
// header-only, compiled once into retarget::compiled otherwise.
#ifndef RETARGET_BACKEND_DETAIL_COMPARE_IMPL_HPP
#define RETARGET_BACKEND_DETAIL_COMPARE_IMPL_HPP

#include <exception>
#include <retarget/backend/compare.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/ir/topology.hpp>
#include <string>
#include <utility>
#include <vector>

namespace retarget::backend {

RETARGET_LAZY_DEF std::vector<output_comparison> compare_outputs(const tensor_map& actual,
                                                                 const tensor_map& expected,
                                                                 tolerance tol) {
  std::vector<output_comparison> out;
  for (const auto& [name, e] : expected) {
    auto& o = out.emplace_back();
    o.name = name;
    if (const auto a = actual.find(name); a != actual.end())
      o.difference = ir::difference(a->second, e, tol.atol, tol.rtol);
    else
      o.difference.incomparable = "no output '" + name + "'";
  }
  return out;
}

namespace detail {

RETARGET_LAZY_DEF std::string one_line_reason(const std::exception& e) {
  std::string what(retarget::reason_of(e));
  for (auto& c : what)
    if (c == '\n') c = ' ';
  return what;
}

RETARGET_LAZY_DEF ir::model with_value_types(ir::model m) {
  try {
    m.infer_shapes();
  } catch (const error&) {
  }
  return m;
}

RETARGET_LAZY_DEF std::vector<std::string> values_of_both(const ir::model_view& reference,
                                                          const ir::model_view& candidate,
                                                          bisection& b) {
  std::vector<std::string> names;
  for (int i = 0; i < candidate.node_count(); ++i)
    for (const auto& o : candidate.at(i).outputs()) {
      if (o.empty()) continue;
      ++b.values;
      (reference.producer(o) >= 0 ? names : b.unmatched).push_back(o);
    }
  return names;
}

RETARGET_COMPILED_DECL value_reporter::value_reporter(const ir::model_view& candidate,
                                                      const tensor_map& expected,
                                                      const tensor_map& actual, const bisection& b,
                                                      tolerance tol)
    : candidate_(candidate), expected_(expected), actual_(actual), tol_(tol) {
  for (const auto& r : b.refused)
    refused_by_.emplace(r.value, "not given by " + r.engine + " (" + r.why + ")");
  unmatched_.insert(b.unmatched.begin(), b.unmatched.end());
}

RETARGET_COMPILED_DECL value_report value_reporter::operator()(const std::string& name) const {
  value_report r;
  r.name = name;
  if (const int p = candidate_.producer(name); p >= 0)
    r.producer = ir::node_place(candidate_.node(p), p);
  const auto a = actual_.find(name);
  const auto e = expected_.find(name);
  if (name.empty())
    r.note = "absent";
  else if (candidate_.is_initializer(name))
    r.note = "weight";
  else if (candidate_.is_graph_input(name))
    r.note = "graph input, the same for both";
  else if (a != actual_.end() && e != expected_.end())
    r.difference = ir::difference(a->second, e->second, tol_.atol, tol_.rtol);
  else if (const auto why = refused_by_.find(name); why != refused_by_.end())
    r.note = why->second;
  else if (unmatched_.contains(name))
    r.note = "the reference model has no value of that name";
  else
    r.note = "not compared";
  return r;
}

RETARGET_LAZY_DEF void find_first_divergence(const ir::model_view& candidate,
                                             const value_reporter& report, bisection& b) {
  for (int i = 0; i < candidate.node_count(); ++i) {
    const auto node = candidate.at(i);
    divergence d;
    bool diverges = false;
    for (const auto& o : node.outputs()) {
      if (o.empty()) continue;
      auto r = report(o);
      if (r.difference) {
        ++b.compared;
        diverges = diverges || !r.difference->passes();
      }
      d.outputs.push_back(std::move(r));
    }
    if (!diverges || b.first) continue;
    d.node = i;
    d.node_name = node.name();
    d.op = node.op_type();
    for (const auto& in : node.inputs()) d.inputs.push_back(report(in));
    b.first = std::move(d);
  }
}

}  // namespace detail

}  // namespace retarget::backend

#endif  // RETARGET_BACKEND_DETAIL_COMPARE_IMPL_HPP
