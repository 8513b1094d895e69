// retarget compare: one model on several engines, or a model against another (the original of
// a converted one), on the same inputs; each output's error, and with --bisect the first node
// that diverges.
#ifndef RETARGET_TOOL_DETAIL_COMPARE_COMMAND_HPP
#define RETARGET_TOOL_DETAIL_COMPARE_COMMAND_HPP

#include <algorithm>
#include <retarget/backend/compare.hpp>
#include <retarget/ir/dims.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/tool/detail/common.hpp>
#include <sstream>

namespace retarget::tool::detail {

namespace rb = retarget::backend;
namespace ir = retarget::ir;

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, separator);) out.push_back(item);
  return out;
}

// "1x3x224x224"
inline ir::dims_t parse_shape(const std::string& name, const std::string& text) {
  ir::dims_t dims;
  for (const auto& d : split(text, 'x')) {
    const auto dim = retarget::options::parse_text<std::int64_t>(d);
    if (!dim || *dim < 0)
      throw usage_error("retarget: --shape " + name + "=" + text +
                        ": dims are numbers joined by 'x', as in 1x3x224x224");
    dims.push_back(*dim);
  }
  return dims;
}

// "max abs 1.2e-01  max rel 3.4e-01  at [0, 2, 5, 1]"
inline std::string describe(const ir::tensor_difference& d) {
  if (!d.incomparable.empty()) return "cannot compare: " + d.incomparable;
  std::string out = "max abs " + scientific(d.max_abs) + "  max rel " + scientific(d.max_rel) +
                    "  at " + ir::format_dims(d.worst);
  if (d.non_finite)
    out += "  non-finite " + std::to_string(d.non_finite) + " (first at " +
           ir::format_dims(d.first_non_finite) + ")";
  if (d.outside)
    out += "  " + std::to_string(d.outside) + " of " + std::to_string(d.count) + " outside";
  return out;
}

inline std::string verdict(const ir::tensor_difference& d) { return d.passes() ? "pass" : "FAIL"; }

inline void print_values(std::ostream& out, std::string_view heading,
                         const std::vector<rb::value_report>& values) {
  out << "    " << heading << ":\n";
  for (const auto& v : values) {
    out << "      " << (v.name.empty() ? "(absent)" : v.name) << ": ";
    if (v.difference)
      out << describe(*v.difference) << "  " << verdict(*v.difference) << "\n";
    else  // a value not compared: where it comes from, for the search to go on by hand
      out << v.note << (v.producer.empty() ? "" : "; made by " + v.producer) << "\n";
  }
}

inline void print_bisection(const rb::bisection& b, std::ostream& out) {
  out << "bisect " << b.candidate.label() << " against " << b.reference.label() << ": "
      << b.compared << " of " << b.values << " values compared, " << b.runs << " runs\n";
  for (const auto& r : b.refused)
    out << "  skipped " << r.value << ": " << r.engine << " does not give it (" << r.why << ")\n";
  if (!b.unmatched.empty())
    out << "  " << b.unmatched.size() << " values of " << b.candidate.model.filename().string()
        << " have no value of the same name in " << b.reference.model.filename().string()
        << " and are not compared\n";
  if (!b.first) {
    out << "  no compared value diverges";
    out << (b.refused.empty() && b.unmatched.empty()
                ? "\n"
                : ": the divergence is in a value that was not compared\n");
    return;
  }
  const auto& d = *b.first;
  out << "  first divergent node: node " << d.node
      << (d.node_name.empty() ? "" : " '" + d.node_name + "'") << " (" << d.op << ")\n";
  print_values(out, "inputs", d.inputs);
  print_values(out, "outputs", d.outputs);
}

// The inputs every engine is given: from --input files where given, with --shape's dims and
// generated from the seed for the rest. A reference model must take exactly these.
inline rb::tensor_map compare_inputs(const compare_options& o, const ir::model& model,
                                     const fs::path& model_path, const ir::model* reference_model) {
  const auto wanted = ir::inputs_of(model);
  const auto given = read_inputs(model, model_path, o.input.value, "compare");
  std::map<std::string, ir::dims_t> shapes;
  for (const auto& item : o.shape.value) {
    const auto [name, text] = name_and_value(item, "--shape", "1x3x224x224");
    (void)input_named(wanted, name, "--shape", model_path);
    if (given.contains(name))
      throw usage_error("retarget: input '" + name + "' is given both by --input and --shape");
    shapes.emplace(name, parse_shape(name, text));
  }
  const auto feeds = [&] {
    try {
      return ir::sample_inputs(model, shapes, std::uint64_t(o.seed), given);
    } catch (const retarget::error& e) {  // a dynamic dim without --shape, a shape that misfits
      throw usage_error(prefixed("compare: " + model_path.string(), e));
    }
  }();
  if (reference_model)
    for (const auto& in : ir::inputs_of(*reference_model)) {
      const auto feed = feeds.find(in.name);
      if (feed == feeds.end())
        throw retarget::error("retarget: compare: " + *o.against.value + " takes an input '" +
                              in.name + "' that " + model_path.string() + " does not");
      if (const auto why = ir::mismatch(in, feed->second); !why.empty())
        throw retarget::error("retarget: compare: the inputs of " + model_path.string() +
                              " do not fit " + *o.against.value + ": " + why);
    }
  return feeds;
}

template <class Managers>
int compare(const compare_options& o, arguments& args, std::ostream& out) {
  const auto engines = split(o.backends, ',');
  const auto& against = o.against.value;
  const rb::tolerance tol{o.atol, o.rtol};
  const fs::path model_path = one_model<compare_options>(args);
  for (const auto& e : engines)
    if (e.empty()) throw usage_error("retarget: --backends lists an empty name");
  if (engines.size() < 2 && !against)
    throw usage_error(
        "retarget: compare needs two engines (--backends onnxruntime,opencv_dnn) or a reference "
        "model (--against OTHER.onnx)");
  for (const auto& e : engines) Managers::visit(e, [](auto) {});  // unknown names, at once
  // A pipeline (retarget convert --partition) runs on its parts' engines, against the
  // original on the one engine named.
  const bool pipeline = rb::is_pipeline_file(model_path);
  if (pipeline && (!against || engines.size() != 1))
    throw usage_error("retarget: compare " + model_path.string() +
                      ": a pipeline is compared with its original: --against ORIGINAL.onnx "
                      "--backends ENGINE (the engine that runs the original)");
  const auto p = pipeline ? std::optional(rb::read_pipeline(model_path)) : std::nullopt;
  if (p)
    for (const auto& part : p->parts) Managers::visit(part.engine, [](auto) {});

  // A pipeline takes the inputs of its original.
  const auto model = open_model(pipeline ? fs::path(*against) : model_path, false);
  const auto reference_model =
      against && !pipeline ? std::optional(open_model(*against, false)) : std::nullopt;
  const auto feeds = compare_inputs(o, model, pipeline ? fs::path(*against) : model_path,
                                    reference_model ? &*reference_model : nullptr);
  std::string described;
  for (const auto& [name, t] : feeds)
    described += (described.empty() ? "" : ", ") + name + " " + std::string(to_string(t.type())) +
                 " " + ir::format_dims(t.dims());

  const rb::run_target reference{engines.front(), against ? fs::path(*against) : model_path};
  std::vector<rb::run_target> candidates;
  if (p)
    candidates.push_back({rb::engines_of(*p), model_path});
  else
    for (std::size_t i = against ? 0 : 1; i < engines.size(); ++i)
      candidates.push_back({engines[i], model_path});

  out << "reference: " << reference.label() << "\ninputs: " << described
      << (o.input.value.size() == ir::inputs_of(model).size()
              ? ""
              : " (generated: seed " + std::to_string(std::uint64_t(o.seed)) + ")")
      << "\n";
  // On a terminal, which run is going on: an engine may take seconds to load a model.
  status_line shown;
  const rb::compare_progress_fn on_progress =
      shown.on_terminal() ? rb::compare_progress_fn([&](const rb::compare_progress& p) {
        shown.show("compare: " + p.target.label() + " (run " + std::to_string(p.run) +
                       (p.runs ? " of " + std::to_string(p.runs) : std::string()) + ")",
                   true);
      })
                          : rb::compare_progress_fn();
  const auto result = [&] {
    try {
      return rb::compare<Managers>(reference, candidates, feeds, tol, on_progress);
    } catch (const retarget::error& e) {
      throw retarget::error(
          prefixed("compare: the reference, " + reference.label() + ", does not run", e));
    }
  }();
  shown.clear();
  std::size_t passed = 0;
  for (const auto& c : result.candidates) {
    out << c.target.label() << ":";
    if (!c.failure.empty()) {
      out << " does not run: " << c.failure << "\n";
      continue;
    }
    out << "\n";
    for (const auto& o : c.outputs)
      out << "  " << o.name << ": " << describe(o.difference) << "  " << verdict(o.difference)
          << "\n";
    passed += c.passes();
  }
  out << passed << " of " << result.candidates.size() << " engines agree with the reference (atol "
      << scientific(tol.atol) << ", rtol " << scientific(tol.rtol) << ")\n";
  if (o.bisect && pipeline) out << "--bisect does not look inside a pipeline's parts\n";
  if (o.bisect && !pipeline)
    for (const auto& c : result.candidates) {
      if (c.passes() || !c.failure.empty()) continue;
      const auto b = rb::bisect<Managers>(reference, c.target, feeds, tol, on_progress);
      shown.clear();
      print_bisection(b, out);
    }
  return result.passes() ? 0 : 1;
}

}  // namespace retarget::tool::detail

#endif  // RETARGET_TOOL_DETAIL_COMPARE_COMMAND_HPP
