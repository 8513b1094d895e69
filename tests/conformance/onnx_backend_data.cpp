// Conformance against the ONNX backend test data (Debian's libonnx-testdata): every model is
// loaded, rebuilt node by node through the runtime-name path (node_spec and g.emit), and
// must come out with every node equal to the original's and pass ONNX's checker and strict
// shape inference.
//
//   retarget_conformance [DATA_ROOT [EXPECTED_FAILURES]]
//
// DATA_ROOT defaults to /usr/share/libonnx-testdata/data; every model.onnx under it is a
// case, named by its folder relative to DATA_ROOT ("node/test_abs"). EXPECTED_FAILURES lists
// the cases that cannot pass, one "case  # reason" a line. Exit status: 0 when every failure
// is listed and every listed case fails, 1 otherwise, 2 on bad arguments, 77 (ctest's skip)
// when DATA_ROOT does not exist.
#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <retarget/ir.hpp>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace rx = retarget::ir;

constexpr int exit_skip = 77;

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

std::vector<rx::dim> dims_of(const onnx::TensorShapeProto& shape) {
  std::vector<rx::dim> out;
  for (const auto& d : shape.dim()) {
    if (d.has_dim_value())
      out.emplace_back(d.dim_value());
    else if (d.has_dim_param())
      out.emplace_back(d.dim_param());
    else
      out.emplace_back();
  }
  return out;
}

// Rebuilds the model at `file` through the graph builder; throws on the first difference
// or error.
void rebuild(const fs::path& file) {
  const rx::model original = rx::load(file);
  const auto& source = original.graph();
  // A model whose nodes are all of other domains (the training ops) may import no opset of
  // the default domain; a graph always has one, and any will do for it.
  const auto opset = original.opset();
  rx::graph g(opset.value_or(rx::default_opset));  // refuses an opset it cannot emit, naming it
  for (const auto& import : original.proto().opset_import())
    if (!import.domain().empty() && import.domain() != "ai.onnx")
      g.set_domain_version(import.domain(), static_cast<int>(import.version()));
  g.set_name(source.name());

  std::set<std::string> input_names;
  for (const auto& in : source.input()) {
    // Tensors through the dtype-and-dims form that exporters use; the rest (sequences,
    // optionals, maps) as the TypeProto they are.
    if (in.type().has_tensor_type() && in.type().tensor_type().has_shape()) {
      const auto& type = in.type().tensor_type();
      g.input(in.name(), static_cast<rx::dtype>(type.elem_type()), dims_of(type.shape()));
    } else {
      g.input(in.name(), in.type());
    }
    input_names.insert(in.name());
  }
  if (source.sparse_initializer_size() > 0)
    throw retarget::error("the graph has sparse initializers, which the builder cannot declare");
  for (const auto& init : source.initializer()) {
    // An initializer that is also a graph input is that input's default value (the usual
    // form before IR version 4, and required by the checker there), not a constant: it is
    // added to the graph as it is, beside the input g.input declared.
    if (input_names.count(init.name()))
      *g.proto().add_initializer() = init;
    else
      g.initializer(init.name(), rx::tensor(init));
  }

  for (int i = 0; i < source.node_size(); ++i) {
    const auto& node = source.node(i);
    rx::node_spec spec;
    spec.op_type = node.op_type();
    // Passed on only when the node has the field: some exporters write an empty domain.
    if (node.has_domain()) spec.domain = node.domain();
    for (const auto& name : node.input())
      spec.inputs.push_back(name.empty() ? rx::value{} : g.find(name));
    spec.attributes.assign(node.attribute().begin(), node.attribute().end());
    spec.outputs.assign(node.output().begin(), node.output().end());
    spec.name = node.name();
    spec.doc_string = node.doc_string();
    g.emit(std::move(spec));

    const auto& rebuilt = g.proto().node(g.proto().node_size() - 1);
    google::protobuf::util::MessageDifferencer differencer;
    std::string differences;
    differencer.ReportDifferencesToString(&differences);
    if (!differencer.Compare(node, rebuilt))
      throw retarget::error("node " + std::to_string(i) + " (" + node.op_type() +
                            ") differs from the original: " + differences);
  }

  for (const auto& out : source.output()) {
    // A graph output needs a type, and a tensor one a shape; where inference could not tell
    // them, the original's declared type stands in (the checker holds the two consistent).
    const rx::value v = g.find(out.name());
    const auto& type = v.type();
    const bool known = type.has_tensor_type()
                           ? type.tensor_type().has_shape()
                           : type.value_case() != onnx::TypeProto::VALUE_NOT_SET;
    if (known || !out.has_type())
      g.output(v);
    else
      g.output(v, {}, out.type());
  }
  rx::model_info info;
  info.ir_version = original.proto().ir_version();
  rx::make_model(std::move(g), info).check();
}

int run(const fs::path& root, std::map<std::string, expectation> expected) {
  std::vector<std::string> cases;
  for (const auto& entry : fs::recursive_directory_iterator(root))
    if (entry.is_regular_file() && entry.path().filename() == "model.onnx")
      cases.push_back(entry.path().parent_path().lexically_relative(root).generic_string());
  std::sort(cases.begin(), cases.end());

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
            << " unexpected passes\n";
  std::cout << passed << " passed, " << failed << " failed" << std::endl;
  const bool honest = unexpected_failures == 0 && unexpected_passes == 0 && unknown == 0;
  return honest && !cases.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 3) {
    std::cerr << "usage: retarget_conformance [DATA_ROOT [EXPECTED_FAILURES]]\n";
    return 2;
  }
  const fs::path root = argc > 1 ? argv[1] : "/usr/share/libonnx-testdata/data";
  if (!fs::is_directory(root)) {
    std::cerr << "retarget_conformance: no test data at " << root.string()
              << " (install libonnx-testdata); skipped\n";
    return exit_skip;
  }
  try {
    std::map<std::string, expectation> expected;
    if (argc > 2) expected = read_expected_failures(argv[2]);
    return run(root, std::move(expected));
  } catch (const std::exception& e) {
    std::cerr << "retarget_conformance: " << e.what() << '\n';
    return 2;
  }
}
