// Conformance against the ONNX backend test data (Debian's libonnx-testdata): every model is
// imported with retarget::convert::import, which rebuilds it through the runtime-name path
// (g.input, g.initializer, node_spec and g.emit, g.output), its If/Loop/Scan bodies rebuilt the
// same way as subgraphs of the graph (g.subgraph); the whole rebuilt model must equal the original
// (the ModelProto field by field: ir_version, producer name and version, doc_string, metadata,
// functions, opset imports as a set, and the graph: inputs and outputs with their types,
// initializers, every node in order, subgraph bodies) and pass ONNX's checker and strict shape
// inference.
//
//   retarget_conformance [DATA_ROOT [EXPECTED_FAILURES [CASES]]]
//
// DATA_ROOT defaults to /usr/share/libonnx-testdata/data; every model.onnx under it is a
// case, named by its folder relative to DATA_ROOT ("node/test_abs"). EXPECTED_FAILURES lists
// the cases that cannot pass, one "case  # reason" a line. CASES, when given, is how many
// cases the data must hold: a partial or missing package fails rather than passing on fewer.
// Exit status: 0 when every failure is listed, every listed case fails and the count is
// right, 1 otherwise, 2 on bad arguments; when DATA_ROOT does not exist, 77 (ctest's skip),
// or 1 in strict mode (tests/support/strict.hpp).
#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <retarget/convert/convert.hpp>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/strict.hpp"

namespace {

namespace fs = std::filesystem;
namespace rx = retarget::ir;

// Subgraph bodies the emitter rebuilt, over all models: reported, so that a run that rebuilt
// none (the bodies copied after all) would show.
std::size_t subgraphs_rebuilt = 0;

struct expectation {
  std::string reason;
  bool found = false;  // the case exists under the data root
};

std::string trim(std::string_view s) {
  constexpr std::string_view space = " \t\r\n";
  const auto first = s.find_first_not_of(space);
  if (first == std::string_view::npos) return {};
  return std::string(s.substr(first, s.find_last_not_of(space) - first + 1));
}

// Messages of ONNX's checker and of protobuf's differencer run over several lines; a failure
// is reported on one.
std::string one_line(std::string_view s) {
  std::string out;
  for (const char c : trim(s)) {
    if (c == '\n')
      out += " | ";
    else if (c != '\r')
      out += c;
  }
  return out;
}

// "case  # reason" lines; '#' starts a comment, blank lines are ignored.
std::map<std::string, expectation> read_expected_failures(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw retarget::error("cannot read " + file.string());
  std::map<std::string, expectation> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto hash = line.find('#');
    const std::string name = trim(std::string_view(line).substr(0, hash));
    if (name.empty()) continue;
    const std::string reason =
        hash == std::string::npos ? std::string() : trim(std::string_view(line).substr(hash + 1));
    if (reason.empty())
      throw retarget::error(file.string() + ":" + std::to_string(number) + ": '" + name +
                            "' has no '# reason'");
    if (!out.emplace(name, expectation{reason}).second)
      throw retarget::error(file.string() + ":" + std::to_string(number) + ": '" + name +
                            "' is listed twice");
  }
  return out;
}

// The differences of two messages, or an empty string when they are equal.
std::string differences(const google::protobuf::Message& original,
                        const google::protobuf::Message& rebuilt) {
  google::protobuf::util::MessageDifferencer differencer;
  std::string report;
  differencer.ReportDifferencesToString(&report);
  if (differencer.Compare(original, rebuilt)) return {};
  return report.empty() ? std::string("(differs)") : report;
}

void require_equal(const google::protobuf::Message& original,
                   const google::protobuf::Message& rebuilt, const std::string& what) {
  if (const auto d = differences(original, rebuilt); !d.empty())
    throw retarget::error(what + " differs from the original: " + d);
}

void require_count(int original, int rebuilt, const std::string& what) {
  if (original != rebuilt)
    throw retarget::error(what + ": the original has " + std::to_string(original) +
                          ", the rebuilt " + std::to_string(rebuilt));
}

// Subgraph bodies in a graph (and in theirs), for the count the report shows.
std::size_t count_subgraphs(const onnx::GraphProto& g) {
  std::size_t n = 0;
  for (const auto& node : g.node())
    for (const auto& a : node.attribute()) {
      if (a.has_g()) n += 1 + count_subgraphs(a.g());
      for (const auto& body : a.graphs()) n += 1 + count_subgraphs(body);
    }
  return n;
}

// The whole of two main graphs, part by part so that a failure names the part; subgraph
// bodies are compared within their nodes' attributes. A last comparison of the whole catches
// what the parts leave out (the doc_string, value_info).
void compare_graphs(const onnx::GraphProto& original, const onnx::GraphProto& rebuilt) {
  if (original.name() != rebuilt.name())
    throw retarget::error("graph name '" + rebuilt.name() + "', the original's is '" +
                          original.name() + "'");
  require_count(original.input_size(), rebuilt.input_size(), "graph inputs");
  for (int i = 0; i < original.input_size(); ++i)
    require_equal(original.input(i), rebuilt.input(i), "graph input " + std::to_string(i));
  require_count(original.initializer_size(), rebuilt.initializer_size(), "initializers");
  for (int i = 0; i < original.initializer_size(); ++i)
    require_equal(original.initializer(i), rebuilt.initializer(i),
                  "initializer " + std::to_string(i) + " (" + original.initializer(i).name() + ")");
  require_count(original.node_size(), rebuilt.node_size(), "nodes");
  for (int i = 0; i < original.node_size(); ++i)
    require_equal(original.node(i), rebuilt.node(i),
                  "node " + std::to_string(i) + " (" + original.node(i).op_type() + ")");
  require_count(original.output_size(), rebuilt.output_size(), "graph outputs");
  for (int i = 0; i < original.output_size(); ++i)
    require_equal(original.output(i), rebuilt.output(i), "graph output " + std::to_string(i));
  require_equal(original, rebuilt, "the graph");
}

// The opset imports, in any order: the builder lists the standard domain first.
void compare_opset_imports(const onnx::ModelProto& original, const onnx::ModelProto& rebuilt) {
  const auto imports = [](const onnx::ModelProto& m) {
    std::map<std::string, std::int64_t> out;
    for (const auto& o : m.opset_import()) out[o.domain()] = o.version();
    return out;
  };
  const auto text = [](const std::map<std::string, std::int64_t>& m) {
    std::string out;
    for (const auto& [d, v] : m)
      out += (out.empty() ? "" : ", ") + (d.empty() ? "''" : d) + " " + std::to_string(v);
    return "{" + out + "}";
  };
  const auto a = imports(original), b = imports(rebuilt);
  if (a != b || original.opset_import_size() != rebuilt.opset_import_size())
    throw retarget::error("opset imports " + text(b) + ", the original's are " + text(a));
}

// The whole of two models: the graph and the opset imports first, so that a failure names the
// part, then every field of the ModelProto (ir_version, producer, doc_string, metadata,
// functions, training info, ...), the opset imports compared as a set.
void compare_models(const onnx::ModelProto& original, const onnx::ModelProto& rebuilt) {
  compare_graphs(original.graph(), rebuilt.graph());
  compare_opset_imports(original, rebuilt);
  google::protobuf::util::MessageDifferencer differencer;
  differencer.TreatAsSet(onnx::ModelProto::descriptor()->FindFieldByName("opset_import"));
  std::string report;
  differencer.ReportDifferencesToString(&report);
  if (!differencer.Compare(original, rebuilt))
    throw retarget::error("the model differs from the original: " +
                          (report.empty() ? std::string("(differs)") : report));
}

// Imports the model at `file` (retarget::convert::import: every node through the checked
// emitter, nothing rewritten), compares the whole of it with the original, and runs ONNX's
// checker on it; throws on the first difference or error.
void rebuild(const fs::path& file) {
  const rx::model original = rx::load(file);
  // The rebuilt model shares its weights (import moves none); they are put back to compare.
  rx::model rebuilt = retarget::convert::import(original);
  rebuilt.materialize();
  subgraphs_rebuilt += count_subgraphs(original.graph());
  compare_models(original.proto(), rebuilt.proto());
  rebuilt.check();
}

// The comparison must see every field of a model: each change below of a model equal to itself
// must fail it, and reordering the opset imports must not. Throws when one goes unseen.
void check_the_comparison(const onnx::ModelProto& model) {
  const auto fails = [&](const char* what, auto change) {
    onnx::ModelProto changed = model;
    change(changed);
    try {
      compare_models(model, changed);
    } catch (const retarget::error&) {
      return;
    }
    throw retarget::error(std::string("the comparison does not see a change of ") + what);
  };
  compare_models(model, model);
  fails("ir_version", [](auto& m) { m.set_ir_version(m.ir_version() + 1); });
  fails("producer_name", [](auto& m) { m.set_producer_name(m.producer_name() + "x"); });
  fails("producer_version", [](auto& m) { m.set_producer_version(m.producer_version() + "x"); });
  fails("doc_string", [](auto& m) { m.set_doc_string(m.doc_string() + "x"); });
  fails("model_version", [](auto& m) { m.set_model_version(m.model_version() + 1); });
  fails("metadata_props", [](auto& m) {
    auto* p = m.add_metadata_props();
    p->set_key("k");
    p->set_value("v");
  });
  fails("functions", [](auto& m) {
    auto* f = m.add_functions();
    f->set_name("f");
    f->set_domain("local");
  });
  fails("an opset import", [](auto& m) {
    auto* o = m.add_opset_import();
    o->set_domain("local");
    o->set_version(1);
  });
  fails("an opset version",
        [](auto& m) { m.mutable_opset_import(0)->set_version(m.opset_import(0).version() + 1); });
  onnx::ModelProto reordered = model;
  auto* o = reordered.add_opset_import();
  o->set_domain("local");
  o->set_version(1);
  onnx::ModelProto reordered_too = reordered;
  reordered_too.mutable_opset_import()->SwapElements(0, reordered_too.opset_import_size() - 1);
  compare_models(reordered, reordered_too);
}

int run(const fs::path& root, std::map<std::string, expectation> expected,
        std::optional<std::size_t> pinned) {
  std::vector<std::string> cases;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.is_regular_file() && entry.path().filename() == "model.onnx")
      cases.push_back(entry.path().parent_path().lexically_relative(root).generic_string());
  std::sort(cases.begin(), cases.end());
  if (!cases.empty()) check_the_comparison(rx::load(root / cases.front() / "model.onnx").proto());

  std::size_t passed = 0, expected_failures = 0, unexpected_failures = 0, unexpected_passes = 0;
  for (const auto& name : cases) {
    const auto listed = expected.find(name);
    if (listed != expected.end()) listed->second.found = true;
    std::string failure;
    try {
      rebuild(root / name / "model.onnx");
    } catch (const std::exception& e) {
      failure = one_line(e.what());
      if (failure.empty()) failure = "(an exception without a message)";
    }
    if (failure.empty()) {
      ++passed;
      if (listed != expected.end()) {
        ++unexpected_passes;
        std::cout << "XPASS " << name << ": passes, but is listed as failing ("
                  << listed->second.reason << ")\n";
      }
    } else if (listed != expected.end()) {
      ++expected_failures;
      std::cout << "XFAIL " << name << ": " << failure << "  [" << listed->second.reason << "]\n";
    } else {
      ++unexpected_failures;
      std::cout << "FAIL  " << name << ": " << failure << '\n';
    }
  }

  // A listed case that is not in the data would never show as an unexpected pass.
  std::size_t unknown = 0;
  for (const auto& [name, e] : expected)
    if (!e.found) {
      ++unknown;
      std::cout << "ERROR " << name << ": listed as an expected failure, but there is no " << name
                << "/model.onnx under " << root.string() << '\n';
    }

  const std::size_t failed = cases.size() - passed;
  const double percent =
      cases.empty() ? 0.0 : 100.0 * static_cast<double>(passed) / static_cast<double>(cases.size());
  std::cout << std::fixed << std::setprecision(2) << percent << "% of " << cases.size()
            << " models pass; " << expected_failures << " expected failures, "
            << unexpected_failures << " unexpected failures, " << unexpected_passes
            << " unexpected passes; " << subgraphs_rebuilt << " subgraph bodies rebuilt\n";
  std::cout << passed << " passed, " << failed << " failed" << std::endl;
  bool complete = !cases.empty();
  if (pinned && cases.size() != *pinned) {
    complete = false;
    std::cout << "ERROR " << cases.size() << " models under " << root.string() << ", not the "
              << *pinned << " the test data holds: a missing or partial package\n";
  }
  const bool honest = unexpected_failures == 0 && unexpected_passes == 0 && unknown == 0;
  return honest && complete ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 4) {
    std::cerr << "usage: retarget_conformance [DATA_ROOT [EXPECTED_FAILURES [CASES]]]\n";
    return 2;
  }
  const fs::path root = argc > 1 ? argv[1] : "/usr/share/libonnx-testdata/data";
  if (!fs::is_directory(root))
    return retarget_test::skip_status(
        "the ONNX backend test data (libonnx-testdata)",
        "retarget_conformance: no test data at " + root.string() + " (install libonnx-testdata)");
  try {
    std::map<std::string, expectation> expected;
    if (argc > 2) expected = read_expected_failures(argv[2]);
    std::optional<std::size_t> pinned;
    if (argc > 3) pinned = static_cast<std::size_t>(std::stoul(argv[3]));
    return run(root, std::move(expected), pinned);
  } catch (const std::exception& e) {
    std::cerr << "retarget_conformance: " << e.what() << '\n';
    return 2;
  }
}
