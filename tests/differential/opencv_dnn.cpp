// Differential testing of the opencv_dnn conversion on random valid models (generator.hpp):
//   (a) the converted model must give what the original gives on ONNX Runtime;
//   (b) where `check --backend opencv_dnn` names no node of the converted model, OpenCV must give
//       what ONNX Runtime gives on the original.
//
//   retarget_differential [--seed N] [--models N] [--seconds S] [--keep DIR] [--report FILE]
//                         [--seeds-of DIR] [--forms broadcast [--every K]]
//
// Model i is built from seed N + i, so `--seed K --models 1` replays model K alone;
// --seeds-of replays the seeds a folder's minimized models name (seed-K-*.onnx: the findings
// kept in tests/data/differential, which must now pass). --forms broadcast runs, instead of
// random models, every form of a stored constant beside a computed tensor (forms.hpp), or every
// K-th of them with --every K (inputs drawn from the form's index as from a seed). --seconds
// stops starting new models after S seconds (a budget, not a check). Inputs are drawn in
// [-2, 2]; a model whose reference (every value ONNX Runtime computes in it, intermediate ones
// too) is not finite or exceeds 1e6 in magnitude is discarded and counted, never called a
// mismatch, as is one ONNX Runtime refuses as written.
//
// Tolerance, per output: |a - e| <= 1e-5 + 1e-4 max|e| for every element. Relative to the
// largest expected value, not to each element's: engines sum in other orders, and a small
// element that comes out of a large sum carries the sum's rounding.
//
// A mismatch is minimized: the graph is cut at earlier values and nodes are bypassed, greedily,
// while the same kind of mismatch persists; the smallest model is saved in --keep (a .onnx and a
// .txt line: seed, ops, what differed). The report ends the run; exit 0 only without mismatches,
// 77 when ONNX Runtime is missing (1 in strict mode, tests/support/strict.hpp).
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <regex>
#include <retarget/backends/onnxruntime.hpp>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/convert/convert.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/exposed_values.hpp>
#include <retarget/ir/model_file.hpp>
#include <retarget/ir/sample_inputs.hpp>
#include <retarget/ir/tensor_file.hpp>
#include <retarget/ir/tensor_stats.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "differential/forms.hpp"
#include "differential/generator.hpp"
#include "support/opencv_child.hpp"
#include "support/strict.hpp"

namespace fs = std::filesystem;
namespace ir = retarget::ir;
namespace diff = retarget_test::differential;
using retarget::backends::opencv_dnn;
using tensor_map = retarget::backend::tensor_map;

namespace {

// A model's verdict. A mismatch's kind is what the minimizer keeps.
struct verdict {
  enum class is { ok, discarded, refused, mismatch } what = is::ok;
  std::string kind;    // mismatch: "opencv-values", ...; discarded or refused: the reason
  std::string detail;  // mismatch: where and how it differs
  bool ran_opencv = false;
  double converted_rel = 0, opencv_rel = 0;  // largest relative error among passing outputs
};

// Where `got` is not `expected` within the tolerance, or "" when it is; rel gets
// max|a - e| / max|e|.
std::string differs(const ir::tensor& got, const ir::tensor& expected, double& rel) {
  if (got.dims() != expected.dims())
    return "dims " + ir::format_dims(got.dims()) + ", expected " + ir::format_dims(expected.dims());
  const auto a = ir::values_as_double(got);
  const auto e = ir::values_as_double(expected);
  double scale = 0;
  for (const double v : e) scale = std::max(scale, std::abs(v));
  double worst = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    const double d = std::abs(a[i] - e[i]);
    if (!(d <= worst)) worst = d, at = i;  // a NaN given is the worst
  }
  rel = scale > 0 ? worst / scale : worst;
  if (worst <= 1e-5 + 1e-4 * scale) return {};
  std::ostringstream out;
  out << "element " << at << " is " << a[at] << ", expected " << e[at] << " (max |e| " << scale
      << ", rel error " << std::setprecision(2) << rel << ")";
  return out.str();
}

// Where in its source an engine's error was raised ("onnx_importer.cpp:1040"), or its first
// words: two failures of one kind, whatever node or shape they name.
std::string where_in_source(const std::string& error) {
  static const std::regex place(R"([A-Za-z_]+\.(cpp|hpp):[0-9]+)");
  static const std::regex node(R"(Node \[([A-Za-z]+)@)");  // the importer's catch-all names the op
  std::smatch m, op;
  std::string out = std::regex_search(error, m, place) ? m.str() : error.substr(0, error.find(':'));
  if (std::regex_search(error, op, node)) out += " (" + op[1].str() + ")";
  return out;
}

std::string first_line(std::string text, std::size_t width = 160) {
  if (const auto nl = text.find('\n'); nl != std::string::npos) text.resize(nl);
  if (text.size() > width) text = text.substr(0, width - 3) + "...";
  return text;
}

// The reference: ONNX Runtime with its graph optimizations off, each kernel as the model writes
// it. Its optimizer fused a MatMul, a Transpose and a BatchNormalization into numbers 7x off
// (seed 1795965690: the converted model, which OpenCV and a hand computation agree on).
tensor_map run_ort(ir::model& m, const fs::path& file, const tensor_map& inputs) {
  ir::save(m, file);
  retarget::backends::onnxruntime_param p;
  p.graph_optimization = "disabled";
  auto session = retarget::backends::onnxruntime_manager::build_wrapper({file}, p);
  return session.run(inputs);
}

tensor_map inputs_for(const ir::model& m, std::uint64_t seed) {
  tensor_map out;
  for (const auto& in : ir::inputs_of(m)) {
    diff::shape_t s;
    for (const auto& d : in.shape) s.push_back(d.size);
    out.emplace(in.name, diff::generator::input_values(seed, in.name, s));
  }
  return out;
}

// Runs one model both ways and says what it found.
verdict judge(const ir::model& m, std::uint64_t seed, const fs::path& scratch) {
  verdict v;
  const auto inputs = inputs_for(m, seed);
  // The reference: ONNX Runtime on the original, every node output exposed so that a value
  // that overflows and is then squashed (Sigmoid of an infinity) is seen too.
  tensor_map reference;
  {
    auto typed = m;
    typed.infer_shapes();
    std::vector<std::string> names;
    std::map<std::string, std::string> op_of;
    for (const auto& n : typed.nodes())
      for (const auto& o : n.outputs()) names.push_back(o), op_of[o] = n.op_type();
    auto exposed = ir::exposing(typed, names);
    try {
      reference = run_ort(exposed, scratch / "reference.onnx", inputs);
    } catch (const retarget::error& e) {
      v.what = verdict::is::discarded;
      v.kind = "ONNX Runtime refuses the original: " + first_line(e.what(), 90);
      return v;
    }
    for (const auto& [name, t] : reference) {
      const auto values = ir::values_as_double(t);
      for (const double x : values)
        if (!std::isfinite(x) || std::abs(x) > 1e6) {
          v.what = verdict::is::discarded;
          v.kind = std::string(std::isfinite(x) ? "a value above 1e6" : "a non-finite value") +
                   " from " + (op_of.count(name) ? op_of[name] : name);
          return v;
        }
    }
  }
  const auto outputs = ir::outputs_of(m);
  const auto mismatch = [&](std::string kind, std::string detail) {
    v.what = verdict::is::mismatch;
    v.kind = std::move(kind);
    v.detail = std::move(detail);
    return v;
  };

  // (a) the converted model on ONNX Runtime.
  ir::model converted;
  try {
    converted = retarget::convert::convert<opencv_dnn>(m).model;
  } catch (const retarget::error& e) {
    return mismatch("convert-error", first_line(e.what()));
  }
  tensor_map got;
  try {
    got = run_ort(converted, scratch / "converted.onnx", inputs);
  } catch (const retarget::error& e) {
    return mismatch("converted-fails", "ONNX Runtime: " + first_line(e.what()));
  }
  for (const auto& o : outputs) {
    const auto it = got.find(o.name);
    if (it == got.end()) return mismatch("converted-fails", "no output '" + o.name + "'");
    double rel = 0;
    if (const auto why = differs(it->second, reference.at(o.name), rel); !why.empty())
      return mismatch(
          it->second.dims() != reference.at(o.name).dims() ? "converted-shape" : "converted-values",
          "output '" + o.name + "': " + why);
    v.converted_rel = std::max(v.converted_rel, rel);
  }

  // (b) OpenCV, where check names no node.
  const auto refused = retarget::convert::refused_nodes<opencv_dnn>(converted);
  if (refused && !refused->empty()) {
    const auto& r = refused->front();
    v.what = verdict::is::refused;
    v.kind = r.node.substr(0, r.node.find(' ')) + ": " + first_line(r.why, 110);
    return v;
  }
  v.ran_opencv = true;
  std::vector<std::string> names;
  for (const auto& o : outputs) names.push_back(o.name);
  const auto run_dir = scratch / "opencv";
  if (const auto error =
          retarget_test::run_in_child(scratch / "converted.onnx", inputs, names, run_dir);
      !error.empty())
    return mismatch(error.starts_with("crashed") || error.starts_with("no answer")
                        ? "opencv-crash"
                        : "opencv-fails at " + where_in_source(error),
                    error);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto file = run_dir / ("output_" + std::to_string(i) + ".pb");
    if (!fs::exists(file)) return mismatch("opencv-fails", "no output '" + names[i] + "'");
    const auto t = ir::read_tensor_file(file);
    double rel = 0;
    if (const auto why = differs(t, reference.at(names[i]), rel); !why.empty())
      return mismatch(t.dims() != reference.at(names[i]).dims() ? "opencv-shape" : "opencv-values",
                      "output '" + names[i] + "': " + why);
    v.opencv_rel = std::max(v.opencv_rel, rel);
  }
  return v;
}

std::vector<std::string> op_list(const ir::model& m) {
  std::vector<std::string> ops;
  for (const auto& n : m.nodes()) ops.push_back(std::string(n.op_type()));
  return ops;
}

std::string joined(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

// The smallest model, cut and bypassed from m, that still gives the same kind of mismatch.
// Each step is a strictly smaller model, so it ends; at most `budget` models are judged.
ir::model minimized(ir::model m, std::uint64_t seed, const verdict& found, const fs::path& scratch,
                    verdict& last) {
  int budget = 60;
  const auto same = [&](const ir::model& candidate) {
    if (budget-- <= 0) return false;
    try {
      const auto v = judge(candidate, seed, scratch);
      if (v.what != verdict::is::mismatch || v.kind != found.kind) return false;
      last = v;
      return true;
    } catch (const std::exception&) {
      return false;
    }
  };
  const auto attempt = [&](std::vector<std::string> outputs,
                           const std::map<std::string, std::string>& bypass) {
    try {
      auto candidate = diff::rebuild(m, std::move(outputs), bypass);
      if (candidate.node_count() < m.node_count() && same(candidate)) {
        m = std::move(candidate);
        return true;
      }
    } catch (const retarget::error&) {
    }
    return false;
  };
  for (bool smaller = true; smaller && budget > 0;) {
    smaller = false;
    // Cut: one earlier value as the only output, the nodes it needs.
    for (const auto& n : m.nodes())
      if ((smaller = attempt({n.outputs().front()}, {}))) break;
    if (smaller) continue;
    // Bypass: a node's readers read one of its inputs instead (the last node first).
    const auto nodes = m.nodes();
    for (auto n = nodes.rbegin(); !smaller && n != nodes.rend(); ++n) {
      if (n->outputs().size() != 1) continue;
      for (const auto& in : n->inputs())
        if (!in.empty() && (smaller = attempt(m.output_names(), {{n->outputs().front(), in}})))
          break;
    }
  }
  return m;
}

struct totals {
  int tried = 0, built = 0, ran_opencv = 0, refused_models = 0;
  std::map<std::string, int> discarded, refusals, generated;
  double converted_rel = 0, opencv_rel = 0;
  struct finding {
    std::uint64_t seed;
    fs::path file;
    std::string line;
  };
  std::vector<finding> mismatches;
  std::vector<std::string> generator_errors;
};

std::string report_of(const totals& t, std::uint64_t first_seed, double seconds) {
  std::ostringstream out;
  const auto discarded = [&] {
    int n = 0;
    for (const auto& [_, c] : t.discarded) n += c;
    return n;
  }();
  out << "retarget_differential: seeds " << first_seed << ".." << first_seed + t.tried - 1 << ", "
      << std::fixed << std::setprecision(0) << seconds << " s\n";
  out << "models tried: " << t.tried << " (built " << t.built << ")\n";
  out << "discarded (reference not usable): " << discarded << "\n";
  for (const auto& [why, n] : t.discarded) out << "  " << n << "  " << why << "\n";
  out << "check --backend opencv_dnn refused: " << t.refused_models << "; top reasons:\n";
  std::vector<std::pair<int, std::string>> top;
  for (const auto& [why, n] : t.refusals) top.emplace_back(-n, why);
  std::sort(top.begin(), top.end());
  for (std::size_t i = 0; i < top.size() && i < 8; ++i)
    out << "  " << -top[i].first << "  " << top[i].second << "\n";
  out << "ran on OpenCV: " << t.ran_opencv << "\n";
  out << std::scientific << std::setprecision(1)
      << "largest relative error that passed: converted on ONNX Runtime " << t.converted_rel
      << ", OpenCV " << t.opencv_rel << " (tolerance 1e-5 + 1e-4 max|e|)\n";
  out << "op coverage (times drawn):";
  std::vector<std::string> never;
  int column = 0;
  for (const auto op : diff::known_ops) {
    const auto it = t.generated.find(std::string(op));
    if (it == t.generated.end()) {
      never.emplace_back(op);
      continue;
    }
    out << (column++ % 8 == 0 ? "\n  " : "  ") << op << " " << it->second;
  }
  out << "\nnever drawn: " << (never.empty() ? "none" : joined(never)) << "\n";
  if (!t.generator_errors.empty()) {
    out << "generator errors: " << t.generator_errors.size() << "\n";
    for (const auto& e : t.generator_errors) out << "  " << e << "\n";
  }
  out << "mismatches: " << t.mismatches.size() << "\n";
  for (const auto& f : t.mismatches)
    out << "  " << f.file.filename().string() << ": " << first_line(f.line, 300) << "\n";
  if (!t.mismatches.empty())
    out << "(in " << t.mismatches.front().file.parent_path().string()
        << "; each .txt beside its model says it whole)\n";
  return out.str();
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t seed = 1;
  long models = -1;
  double seconds = 0;
  fs::path keep = RETARGET_DIFFERENTIAL_KEEP_DIR;
  std::optional<fs::path> report_file;
  std::vector<std::uint64_t> listed;   // --seeds-of
  std::vector<diff::generated> forms;  // --forms
  long every = 1;
  for (int i = 1; i < argc; i += 2) {
    const std::string flag = argv[i];
    if (i + 1 == argc) {
      std::cerr << "retarget_differential: " << flag << " needs a value\n";
      return 2;
    }
    const std::string value = argv[i + 1];
    try {
      if (flag == "--seed")
        seed = std::stoull(value);
      else if (flag == "--models")
        models = std::stol(value);
      else if (flag == "--seconds")
        seconds = std::stod(value);
      else if (flag == "--keep")
        keep = value;
      else if (flag == "--report")
        report_file = value;
      else if (flag == "--forms") {
        if (value != "broadcast") throw std::runtime_error("the one sweep is 'broadcast'");
        forms = diff::broadcast_forms();
      } else if (flag == "--every") {
        every = std::stol(value);
        if (every < 1) throw std::runtime_error("K is 1 or more");
      } else if (flag == "--seeds-of") {
        for (const auto& e : fs::directory_iterator(value)) {
          const auto name = e.path().filename().string();
          if (name.starts_with("seed-") && e.path().extension() == ".onnx")
            listed.push_back(std::stoull(name.substr(5)));
        }
        std::sort(listed.begin(), listed.end());
        listed.erase(std::unique(listed.begin(), listed.end()), listed.end());
        if (listed.empty()) throw std::runtime_error("no seed-K-*.onnx there");
        seed = listed.front();
        models = static_cast<long>(listed.size());
      } else {
        std::cerr << "retarget_differential: unknown option " << flag
                  << "\nusage: retarget_differential [--seed N] [--models N] [--seconds S] "
                     "[--keep DIR] [--report FILE] [--seeds-of DIR] "
                     "[--forms broadcast [--every K]]\n";
        return 2;
      }
    } catch (const std::runtime_error& e) {  // --seeds-of: no such folder or model; --forms
      std::cerr << "retarget_differential: " << flag << " " << value << ": " << e.what() << "\n";
      return 2;
    } catch (const std::logic_error&) {
      std::cerr << "retarget_differential: " << flag << " takes a number, not '" << value << "'\n";
      return 2;
    }
  }
  if (!forms.empty()) {  // the sweep's every K-th form, numbered as seeds are
    seed = 0;
    models = (static_cast<long>(forms.size()) + every - 1) / every;
  }
  if (models < 0 && seconds <= 0) models = 40;
  if (!retarget::backends::onnxruntime_manager::is_available())
    return retarget_test::skip_status("ONNX Runtime",
                                      retarget::backends::onnxruntime_manager::check_env());

  const auto scratch =
      fs::temp_directory_path() / ("retarget-differential-" + std::to_string(getpid()));
  fs::create_directories(scratch);
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  totals t;
  for (long i = 0; (models < 0 || i < models) && (seconds <= 0 || elapsed() < seconds); ++i) {
    const auto s = !forms.empty()   ? static_cast<std::uint64_t>(i * every)
                   : listed.empty() ? seed + static_cast<std::uint64_t>(i)
                                    : listed[static_cast<std::size_t>(i)];
    ++t.tried;
    std::optional<diff::generated> made;
    try {
      made = forms.empty() ? diff::generator(s).build() : forms[static_cast<std::size_t>(s)];
    } catch (const std::exception& e) {
      t.generator_errors.push_back("seed " + std::to_string(s) + ": " + first_line(e.what()));
      continue;
    }
    ++t.built;
    for (const auto& op : made->ops) ++t.generated[op];
    verdict v;
    try {
      v = judge(made->model, s, scratch);
    } catch (const std::exception& e) {
      v.what = verdict::is::mismatch;
      v.kind = "harness-error";
      v.detail = first_line(e.what());
    }
    t.ran_opencv += v.ran_opencv;
    t.converted_rel = std::max(t.converted_rel, v.converted_rel);
    t.opencv_rel = std::max(t.opencv_rel, v.opencv_rel);
    if (v.what == verdict::is::discarded) ++t.discarded[v.kind];
    if (v.what == verdict::is::refused) ++t.refused_models, ++t.refusals[v.kind];
    if (v.what != verdict::is::mismatch) continue;

    verdict last = v;
    auto small = minimized(made->model, s, v, scratch, last);
    fs::create_directories(keep);
    auto stem = (forms.empty() ? "seed-" : "form-") + std::to_string(s) + "-" + v.kind;
    std::replace_if(
        stem.begin(), stem.end(), [](char c) { return !std::isalnum(c) && c != '-'; }, '-');
    const auto file = keep / (stem + ".onnx");
    ir::save(small, file);
    const auto line = (forms.empty() ? "seed " : "form ") + std::to_string(s) + ", opset " +
                      std::to_string(made->opset) + ", " + std::to_string(small.node_count()) +
                      " of " + std::to_string(made->model.node_count()) + " nodes [" +
                      joined(op_list(small)) + "]: " + last.kind + ": " + last.detail;
    std::ofstream(keep / (stem + ".txt")) << line << "\n";
    std::cout << "mismatch: " << line << "\n  saved " << file.string() << "\n" << std::flush;
    t.mismatches.push_back({s, file, line});
  }
  fs::remove_all(scratch);

  const auto report = report_of(t, seed, elapsed());
  std::cout << report;
  if (report_file) std::ofstream(*report_file) << report;
  return t.mismatches.empty() && t.generator_errors.empty() ? 0 : 1;
}
