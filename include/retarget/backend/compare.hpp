// Engines checked against one another: a model run on a reference engine (or a reference
// model, such as the original of a converted one) and on others, on the same inputs, each
// output compared element by element; and, when they differ, a bisection that exposes the
// intermediate values as outputs and finds the first node, in the model's (topological)
// order, whose output diverges.
//
//   using namespace retarget::backend;
//   const auto feeds = retarget::ir::sample_inputs(retarget::ir::load("m.onnx"), {}, 0);
//   const auto c = compare<retarget::backends::shipped>(
//       {"onnxruntime", "m.onnx"}, {{"opencv_dnn", "m.onnx"}}, feeds, {.atol = 1e-4});
//   if (!c.passes()) {
//     const auto b = bisect<retarget::backends::shipped>({"onnxruntime", "m.onnx"},
//                                                        {"opencv_dnn", "m.onnx"}, feeds, {});
//     // b.first: the node, its op, its inputs' errors and its own
//   }
//
// An engine that cannot give some intermediate value (it folded the node away, or fused it
// into another) fails to run the model that asks for it; the values asked for are then split
// in halves until each value it refuses is found, reported and left out.
#ifndef RETARGET_BACKEND_COMPARE_HPP
#define RETARGET_BACKEND_COMPARE_HPP

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <retarget/backend/manager.hpp>
#include <retarget/backend/pipeline.hpp>
#include <retarget/core/config.hpp>
#include <retarget/core/error.hpp>
#include <retarget/ir/exposed_values.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/model_view.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <retarget/ir/topology.hpp>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace retarget::backend {

// An element passes when |actual - expected| <= atol + rtol * |expected|.
struct tolerance {
  double atol = 1e-4;
  double rtol = 1e-3;
};

// One engine on one model file, or a pipeline (`engine` then names its parts' engines:
// "opencv_dnn+onnxruntime").
struct run_target {
  std::string engine;
  std::filesystem::path model;

  // "opencv_dnn on model.onnx"
  std::string label() const { return engine + " on " + model.filename().string(); }
};

struct output_comparison {
  std::string name;
  ir::tensor_difference difference;
};

struct engine_comparison {
  run_target target;
  std::string failure;  // why the engine could not run the model; "" when it ran
  std::vector<output_comparison> outputs;

  bool passes() const {
    if (!failure.empty()) return false;
    for (const auto& o : outputs)
      if (!o.difference.passes()) return false;
    return true;
  }
};

struct comparison {
  run_target reference;
  std::vector<engine_comparison> candidates;

  bool passes() const {
    for (const auto& c : candidates)
      if (!c.passes()) return false;
    return true;
  }
};

// What a comparison is doing, for a status line: the run starting, its number from 1, and how
// many runs there are in all (0 in a bisection, which makes as many as it needs).
struct compare_progress {
  run_target target;
  std::size_t run = 0, runs = 0;
};
using compare_progress_fn = std::function<void(const compare_progress&)>;

// Runs the model on the engine named `engine` of Managers, or a pipeline file (.json) on the
// engines its parts name; the engines' files go to `scratch`.
// retarget::error when the engine is unknown, not available here, or fails.
template <class Managers>
tensor_map run_model(const run_target& target, const tensor_map& inputs,
                     const std::filesystem::path& scratch) {
  if (is_pipeline_file(target.model))  // its parts name their own engines
    return run_pipeline<Managers>(read_pipeline(target.model), target.model, inputs, scratch);
  return Managers::visit(target.engine, [&](auto manager) {
    using M = decltype(manager);
    typename M::param param;
    param.work_dir = scratch.string();
    return run_on_engine<M>(target.model, param, inputs);
  });
}

// Each expected output against the actual one of the same name; one the engine did not give
// is incomparable.
RETARGET_LAZY_DECL std::vector<output_comparison> compare_outputs(const tensor_map& actual,
                                                                  const tensor_map& expected,
                                                                  tolerance tol);

namespace detail {

// The engine's words without retarget's prefix, on one line.
RETARGET_LAZY_DECL std::string one_line_reason(const std::exception& e);

}  // namespace detail

// Runs the reference, then each candidate, on the same inputs. The reference must run; a
// candidate that cannot is a failed comparison, with the engine's reason. on_progress, when
// given, hears of each run as it starts.
template <class Managers>
comparison compare(const run_target& reference, const std::vector<run_target>& candidates,
                   const tensor_map& inputs, tolerance tol,
                   const compare_progress_fn& on_progress = {}) {
  scratch_folder scratch(std::filesystem::temp_directory_path(), "retarget-compare");
  comparison c;
  c.reference = reference;
  const auto runs = candidates.size() + 1;
  if (on_progress) on_progress({reference, 1, runs});
  const auto expected = run_model<Managers>(reference, inputs, scratch.path() / "reference");
  int k = 0;
  for (const auto& target : candidates) {
    auto& e = c.candidates.emplace_back();
    e.target = target;
    if (on_progress) on_progress({target, static_cast<std::size_t>(k) + 2, runs});
    try {
      const auto actual = run_model<Managers>(target, inputs, scratch.path() / std::to_string(k++));
      e.outputs = compare_outputs(actual, expected, tol);
    } catch (const std::exception& failure) {
      e.failure = detail::one_line_reason(failure);
    }
  }
  return c;
}

// A value of the bisection: its difference where both runs gave it, else why not.
struct value_report {
  std::string name;
  std::optional<ir::tensor_difference> difference;
  std::string note;      // "graph input", "weight", "not given by opencv_dnn (why)", ...
  std::string producer;  // the node that makes it: "node 3 'gate' (Sigmoid)"; "" for others
};

struct divergence {
  int node = 0;  // its index in the candidate model's graph
  std::string node_name, op;
  std::vector<value_report> inputs, outputs;
};

struct bisection {
  run_target reference, candidate;
  std::size_t values = 0;    // values the candidate's nodes make
  std::size_t compared = 0;  // of those, compared with the reference
  std::size_t runs = 0;      // models each engine was asked to run
  // Values an engine would not give, with the engine and its reason.
  struct refusal {
    std::string value, engine, why;
  };
  std::vector<refusal> refused;
  std::vector<std::string> unmatched;  // values of the candidate the reference model lacks
  std::optional<divergence> first;     // nullopt: no compared value diverges
};

namespace detail {

// The model with the inferred types of its intermediate values, where ONNX can infer them; a
// model its checker refuses is taken as it is. Mapped weights stay mapped: the models that
// expose its values share them, and saving streams them.
RETARGET_LAZY_DECL ir::model with_value_types(ir::model m);

// Runs `m` with `names` among its outputs; when the engine fails, the names are split in
// halves until each refused one is found. Every value given lands in `got`.
template <class Managers>
void run_exposing(const ir::model& m, const std::string& engine, std::span<const std::string> names,
                  const tensor_map& inputs, const std::filesystem::path& scratch, tensor_map& got,
                  bisection& b, const compare_progress_fn& on_progress) {
  if (names.empty()) return;
  const auto file = scratch / ("exposed-" + std::to_string(b.runs++) + ".onnx");
  if (on_progress) on_progress({{engine, file}, b.runs, 0});
  try {
    ir::save(ir::exposing(m, names), file);
    auto values = run_model<Managers>({engine, file}, inputs, scratch / "files");
    for (const auto& name : names)
      if (!values.contains(name)) b.refused.push_back({name, engine, "not among its outputs"});
    got.merge(values);
    return;
  } catch (const std::exception& e) {
    if (names.size() == 1) {
      b.refused.push_back({names.front(), engine, one_line_reason(e)});
      return;
    }
  }
  const auto half = names.size() / 2;
  run_exposing<Managers>(m, engine, names.first(half), inputs, scratch, got, b, on_progress);
  run_exposing<Managers>(m, engine, names.subspan(half), inputs, scratch, got, b, on_progress);
}

// The values the candidate's nodes make that the reference's make too, in the candidate's
// order; the others go to b.unmatched, and b.values counts both.
RETARGET_LAZY_DECL std::vector<std::string> values_of_both(const ir::model_view& reference,
                                                           const ir::model_view& candidate,
                                                           bisection& b);

// What the bisection says of each value of the candidate: its difference where both runs
// gave it, else why not.
class value_reporter {
 public:
  RETARGET_COMPILED_DECL value_reporter(const ir::model_view& candidate, const tensor_map& expected,
                                        const tensor_map& actual, const bisection& b,
                                        tolerance tol);

  RETARGET_COMPILED_DECL value_report operator()(const std::string& name) const;

 private:
  const ir::model_view& candidate_;
  const tensor_map& expected_;
  const tensor_map& actual_;
  tolerance tol_;
  std::map<std::string, std::string> refused_by_;
  std::set<std::string> unmatched_;
};

// Each node's outputs reported, counting the compared ones in b; the first node with an
// output that diverges becomes b.first, with its inputs reported too.
RETARGET_LAZY_DECL void find_first_divergence(const ir::model_view& candidate,
                                              const value_reporter& report, bisection& b);

}  // namespace detail

// Finds the first node of the candidate's model whose output diverges from the same value
// (by name) of the reference run. Both runs must give the model's outputs (see compare);
// retarget::error when either cannot run the model at all.
template <class Managers>
bisection bisect(const run_target& reference, const run_target& candidate, const tensor_map& inputs,
                 tolerance tol, const compare_progress_fn& on_progress = {}) {
  scratch_folder scratch(std::filesystem::temp_directory_path(), "retarget-bisect");
  bisection b;
  b.reference = reference;
  b.candidate = candidate;
  const auto candidate_model = detail::with_value_types(ir::load(candidate.model));
  const bool same_model = std::filesystem::equivalent(reference.model, candidate.model);
  std::optional<ir::model> other_model;  // the reference's, when it is another file
  if (!same_model) other_model = detail::with_value_types(ir::load(reference.model));
  const ir::model& reference_model = other_model ? *other_model : candidate_model;
  const ir::model_view candidate_view(candidate_model, {.infer_types = false});
  const ir::model_view reference_view(reference_model, {.infer_types = false});
  const auto names = detail::values_of_both(reference_view, candidate_view, b);

  // Each engine runs the model as it is first: a failure there is not about exposing values.
  for (const auto* t : {&reference, &candidate}) try {
      (void)run_model<Managers>(*t, inputs, scratch.path() / "plain");
    } catch (const std::exception& e) {
      throw error("retarget: bisect: " + t->label() +
                  " does not run: " + detail::one_line_reason(e));
    }

  tensor_map expected, actual;
  detail::run_exposing<Managers>(reference_model, reference.engine, names, inputs, scratch.path(),
                                 expected, b, on_progress);
  detail::run_exposing<Managers>(candidate_model, candidate.engine, names, inputs, scratch.path(),
                                 actual, b, on_progress);
  detail::find_first_divergence(
      candidate_view, detail::value_reporter(candidate_view, expected, actual, b, tol), b);
  return b;
}

}  // namespace retarget::backend

#if defined(RETARGET_COMPILED_DEFINITIONS)
#include <retarget/backend/detail/compare_impl.hpp>
#endif

#endif  // RETARGET_BACKEND_COMPARE_HPP
