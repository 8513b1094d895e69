// Tutorial 08: a new backend.
//
// Seed 003 ("How to support new backends") adds an engine to MMDeploy in six steps: a param,
// a manager that checks the environment, conversion of the ONNX file to the engine's format,
// an inference wrapper, a console tool, and a deploy config. Here are the same steps in C++ for
// toyengine, a small engine of our own: it reads a text format of its own (".toy"), runs
// element-wise float32 models on the CPU with NumPy's broadcasting, and has kernels for eight
// ops. The program exports PyTorch's op references and seed 004's my_add for it, converts,
// runs and compares them with PyTorch; it drives the same manager through its generated console
// tool and through a deploy config.
//
// Given arguments, the program is that console tool:
//   example_08_new_backend backend toyengine check
//   example_08_new_backend backend toyengine convert --help
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iterator>
#include <map>
#include <retarget/ir/proto.hpp>  // the engine's converter reads the ONNX model's own messages
#include <retarget/retarget.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "tutorial.hpp"

namespace bk = retarget::backends;
namespace fs = std::filesystem;
namespace ops = retarget::ops;
namespace rb = retarget::backend;
namespace rx = retarget::ir;
using retarget::trace::tensor;

// 1. The backend's tag: its name, and the backends whose rewrites it takes when it has none of
// its own (none: toyengine falls back to the default rewrites only). It is what MMDeploy's
// Backend enum value is, and the type that exports, rewrites and managers are keyed on.
struct toyengine : retarget::backend_tag<"toyengine"> {};

// 2. The param: every field with its help text, which becomes the --help of the console tool;
// the member initializers are the defaults. The file name gets ".toy" when it has none.
struct toyengine_param {
  retarget::options::field<std::string, "The working directory: where the .toy file goes.">
      work_dir{"."};
  retarget::options::file_field<".toy",
                                "File name of the serialized model; .toy is added when missing.">
      file_name{"end2end"};
  retarget::options::field<std::int64_t,
                           "Significant digits of the constants written, 1 to 9 (9 is exact).">
      digits{9};
};
BOOST_DESCRIBE_STRUCT(toyengine_param, (), (work_dir, file_name, digits))

// 3. Conversion. A .toy file is text, one statement a line:
//   toyengine 1                     the format and its version
//   input a 1 3 4 4                 a graph input and its dims (? for a dynamic one)
//   const c 0 2                     a constant: its name, rank, dims, then its values
//   Mul t c a                       a node: op, output, inputs
//   output y                        a graph output
// toyengine has a kernel for each op below; a model with any other op, or any tensor that is
// not float32, is refused with the node or the tensor named.
namespace toy {

inline constexpr std::string_view unary_ops[] = {"Neg", "Relu", "Sigmoid", "Tanh"};
inline constexpr std::string_view binary_ops[] = {"Add", "Div", "Mul", "Sub"};

inline bool is_one_of(std::string_view op, const auto& list) {
  return std::find(std::begin(list), std::end(list), op) != std::end(list);
}
inline std::string kernel_names() {
  std::vector<std::string_view> all(std::begin(unary_ops), std::end(unary_ops));
  all.insert(all.end(), std::begin(binary_ops), std::end(binary_ops));
  std::sort(all.begin(), all.end());
  std::string out;
  for (auto op : all) out += (out.empty() ? "" : " ") + std::string(op);
  return out;
}

inline void write_constant(std::ostream& out, const std::string& name, const rx::tensor& t,
                           int digits) {
  if (t.type() != rx::dtype::f32)
    throw retarget::error("retarget: toyengine: constant '" + name + "' is " +
                          std::string(rx::to_string(t.type())) + "; toyengine runs float32 only");
  const auto dims = t.dims();
  out << "const " << name << " " << dims.size();
  for (auto d : dims) out << " " << d;
  out << std::setprecision(digits);
  for (float v : tutorial::floats(t)) out << " " << v;
  out << "\n";
}

// The conversion itself, with the arguments it needs (MMDeploy's to_backend, whose arguments are
// the backend's business); the manager calls it with its param's fields.
inline void convert(const rx::model& model, const fs::path& target, int digits) {
  const auto& graph = model.graph();
  std::ostringstream out;
  out << "toyengine 1\n";
  for (const auto& init : graph.initializer())
    write_constant(out, init.name(), rx::tensor(init), digits);
  for (const auto& input : graph.input()) {
    const bool is_weight =
        std::any_of(graph.initializer().begin(), graph.initializer().end(),
                    [&](const auto& init) { return init.name() == input.name(); });
    if (is_weight) continue;
    const auto& type = input.type().tensor_type();
    if (type.elem_type() != static_cast<int>(rx::dtype::f32))
      throw retarget::error("retarget: toyengine: input '" + input.name() +
                            "' is not float32; toyengine runs float32 only");
    out << "input " << input.name();
    for (const auto& d : type.shape().dim())
      out << " " << (d.has_dim_value() ? std::to_string(d.dim_value()) : std::string("?"));
    out << "\n";
  }
  for (const auto& node : graph.node()) {
    const std::string& op = node.op_type();
    if (node.domain().empty() && op == "Constant") {
      if (node.attribute_size() != 1 || node.attribute(0).name() != "value")
        throw retarget::error("retarget: toyengine: Constant node '" + node.name() +
                              "' is not given as a tensor 'value'");
      write_constant(out, node.output(0), rx::tensor(node.attribute(0).t()), digits);
      continue;
    }
    const bool unary = is_one_of(op, unary_ops), binary = is_one_of(op, binary_ops);
    if (!node.domain().empty() || (!unary && !binary))
      throw retarget::error("retarget: toyengine: cannot convert node '" + node.name() +
                            "': no kernel for " +
                            (node.domain().empty() ? "" : node.domain() + "::") + op +
                            " (toyengine has " + kernel_names() + ")");
    if (node.input_size() != (unary ? 1 : 2) || node.output_size() != 1)
      throw retarget::error("retarget: toyengine: node '" + node.name() + "' (" + op +
                            ") has inputs or outputs toyengine does not take");
    out << op << " " << node.output(0);
    for (const auto& in : node.input()) out << " " << in;
    out << "\n";
  }
  for (const auto& output : graph.output()) out << "output " << output.name() << "\n";

  fs::create_directories(target.parent_path());
  std::ofstream file(target);
  if (!(file << out.str()))
    throw retarget::error("retarget: toyengine: cannot write " + target.string());
}

}  // namespace toy

// 4. The wrapper: toyengine's runtime. It loads a .toy file, and run() takes and gives named
// tensors, as MMDeploy's wrapper's forward() takes and gives a dict of tensors.
class toyengine_wrapper {
 public:
  explicit toyengine_wrapper(const fs::path& file) {
    std::ifstream in(file);
    std::string header;
    if (!std::getline(in, header) || header != "toyengine 1")
      throw retarget::error("retarget: toyengine: " + file.string() + " is not a .toy file");
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      std::string kind, name;
      words >> kind >> name;
      if (kind == "input") {
        std::vector<std::int64_t>& dims = inputs_[name];
        for (std::string d; words >> d;) dims.push_back(d == "?" ? -1 : std::stoll(d));
      } else if (kind == "const") {
        value& v = constants_[name];
        std::size_t rank = 0;
        words >> rank;
        v.dims.resize(rank);
        for (auto& d : v.dims) words >> d;
        for (float x; words >> x;) v.data.push_back(x);
        if (static_cast<std::int64_t>(v.data.size()) != rx::element_count(v.dims))
          throw retarget::error("retarget: toyengine: constant '" + name + "' of " + file.string() +
                                " has the wrong number of values");
      } else if (kind == "output") {
        outputs_.push_back(name);
      } else {
        node n{kind, name, {}};
        for (std::string i; words >> i;) n.inputs.push_back(i);
        nodes_.push_back(std::move(n));
      }
    }
  }

  rb::tensor_map run(const rb::tensor_map& feeds) const {
    std::map<std::string, value> values = constants_;
    for (const auto& [name, dims] : inputs_) {
      const auto found = feeds.find(name);
      if (found == feeds.end())
        throw retarget::error("retarget: toyengine: input '" + name + "' is missing");
      const rx::tensor& t = found->second;
      const auto given = t.dims();
      bool fits = t.type() == rx::dtype::f32 && given.size() == dims.size();
      for (std::size_t i = 0; fits && i < dims.size(); ++i)
        fits = dims[i] < 0 || dims[i] == given[i];
      if (!fits)
        throw retarget::error("retarget: toyengine: input '" + name + "' must be float32 of dims " +
                              rx::format_dims(dims) + ", not " +
                              std::string(rx::to_string(t.type())) + " " + rx::format_dims(given));
      values[name] = {given, tutorial::floats(t)};
    }
    for (const auto& n : nodes_) {
      const value& a = values.at(n.inputs.at(0));
      if (n.inputs.size() == 1)
        values[n.output] = {a.dims, map(a.data, unary(n.op))};
      else
        values[n.output] = broadcast(a, values.at(n.inputs.at(1)), binary(n.op));
    }
    rb::tensor_map out;
    for (const auto& name : outputs_) {
      const value& v = values.at(name);
      out.emplace(name, rx::tensor::of(v.data, v.dims));
    }
    return out;
  }

 private:
  struct value {
    rx::dims_t dims;
    std::vector<float> data;
  };
  struct node {
    std::string op, output;
    std::vector<std::string> inputs;
  };

  static std::function<float(float)> unary(const std::string& op) {
    if (op == "Neg") return [](float x) { return -x; };
    if (op == "Relu") return [](float x) { return std::max(x, 0.0f); };
    if (op == "Sigmoid") return [](float x) { return 1.0f / (1.0f + std::exp(-x)); };
    if (op == "Tanh") return [](float x) { return std::tanh(x); };
    throw retarget::error("retarget: toyengine: no kernel for " + op);
  }
  static std::function<float(float, float)> binary(const std::string& op) {
    if (op == "Add") return std::plus<float>();
    if (op == "Sub") return std::minus<float>();
    if (op == "Mul") return std::multiplies<float>();
    if (op == "Div") return std::divides<float>();
    throw retarget::error("retarget: toyengine: no kernel for " + op);
  }
  static std::vector<float> map(const std::vector<float>& x, const std::function<float(float)>& f) {
    std::vector<float> y(x.size());
    std::transform(x.begin(), x.end(), y.begin(), f);
    return y;
  }

  // NumPy's broadcasting, as ONNX's element-wise ops have it: dims align on the right, and a
  // dim of 1 (or a missing one) repeats to the other operand's size.
  static value broadcast(const value& a, const value& b,
                         const std::function<float(float, float)>& f) {
    const std::size_t rank = std::max(a.dims.size(), b.dims.size());
    const auto padded = [&](const rx::dims_t& d) {
      rx::dims_t out(rank - d.size(), 1);
      out.insert(out.end(), d.begin(), d.end());
      return out;
    };
    const auto da = padded(a.dims), db = padded(b.dims);
    value out{rx::dims_t(rank), {}};
    for (std::size_t i = 0; i < rank; ++i) {
      if (da[i] != db[i] && da[i] != 1 && db[i] != 1)
        throw retarget::error("retarget: toyengine: dims " + rx::format_dims(a.dims) + " and " +
                              rx::format_dims(b.dims) + " do not broadcast");
      out.dims[i] = std::max(da[i], db[i]);
    }
    // Each operand's step per output dim: 0 where it repeats.
    const auto steps = [&](const rx::dims_t& d) {
      rx::dims_t s(rank, 0);
      std::int64_t stride = 1;
      for (std::size_t i = rank; i-- > 0; stride *= d[i]) s[i] = d[i] == 1 ? 0 : stride;
      return s;
    };
    const auto sa = steps(da), sb = steps(db);
    out.data.resize(static_cast<std::size_t>(rx::element_count(out.dims)));
    rx::dims_t index(rank, 0);
    for (float& y : out.data) {
      std::int64_t ia = 0, ib = 0;
      for (std::size_t i = 0; i < rank; ++i) ia += index[i] * sa[i], ib += index[i] * sb[i];
      y = f(a.data[static_cast<std::size_t>(ia)], b.data[static_cast<std::size_t>(ib)]);
      for (std::size_t i = rank; i-- > 0 && ++index[i] == out.dims[i];) index[i] = 0;
    }
    return out;
  }

  std::map<std::string, rx::dims_t> inputs_;
  std::map<std::string, value> constants_;
  std::vector<node> nodes_;
  std::vector<std::string> outputs_;
};

// 5. The manager: the entry to everything about toyengine. Its members are what MMDeploy's
// manager has: is_available / get_version / check_env, get_model_files, to_backend_from_param,
// build_wrapper_from_param and build_param_from_config.
struct toyengine_manager {
  using backend = toyengine;
  using param = toyengine_param;

  // toyengine is compiled into the program: always there.
  static bool is_available() { return true; }
  static std::string version() { return "toyengine 1.0 (.toy format 1)"; }
  static std::string check_env() {
    return "runs in process, on the CPU, float32 only\nkernels: " + toy::kernel_names();
  }
  static rb::file_list model_files(const param& p) {
    return {fs::path(*p.work_dir) / p.file_name.resolved()};
  }
  // A value the param's type cannot rule out: the error names the field.
  static std::string problem(const param& p) {
    if (*p.digits < 1 || *p.digits > 9)
      return "is " + std::to_string(*p.digits) + ", out of the range 1 to 9";
    return {};
  }
  static rb::file_list to_backend(const fs::path& onnx_file, const param& p) {
    if (const auto what = problem(p); !what.empty())
      throw retarget::error("retarget: toyengine: digits " + what);
    const auto target = model_files(p).front();
    toy::convert(rx::load(onnx_file), target, static_cast<int>(*p.digits));
    return {target};
  }
  static toyengine_wrapper build_wrapper(const rb::file_list& files, const param&) {
    if (files.size() != 1) throw retarget::error("retarget: toyengine runs one .toy file");
    return toyengine_wrapper(files.front());
  }
  // Its section of a deploy config, backend_config; `where` is that section's JSON path.
  static param param_from_config(const boost::json::value& j, const std::string& where) {
    auto p = retarget::options::from_json<param>(j, where);
    if (const auto what = problem(p); !what.empty())
      throw retarget::options::json_error(where + ".digits", what);
    return p;
  }
};
static_assert(rb::Manager<toyengine_manager> && rb::Wrapper<toyengine_wrapper>);

// Registration: a manager list, which checks each manager at compile time and finds one by
// name at run time. toyengine sits next to the shipped backends.
using managers = rb::manager_list<toyengine_manager, bk::onnxruntime_manager, bk::tensorrt_manager>;

// 6. A rewrite for the new backend. ops::hardswish exports as ONNX's HardSwish, which toyengine
// has no kernel for; for toyengine it is written with kernels it has:
// x * relu6(x + 3) / 6, where relu6(y) = relu(y) - relu(y - 6).
template <>
struct retarget::function_rewrite<ops::hardswish_fn, toyengine> {
  template <class B>
  static tensor<B> call(const auto&, const tensor<B>& x) {
    const auto from_zero = ops::relu(x + 3.0);  // named, so the nodes come in this order
    const auto from_six = ops::relu(x - 3.0);
    return x * (from_zero - from_six) / 6.0;
  }
};

// Exports a model for toyengine, converts it and runs it on PyTorch's op reference `name`
// (tests/data/ops/NAME/in0.pb ... out0.pb).
template <std::size_t N, class Model>
bool check_op(const tutorial::work_dir& dir, const std::string& name, const Model& model) {
  retarget::input_spec specs[N];
  rb::tensor_map feeds;
  for (std::size_t i = 0; i < N; ++i) {
    auto t = tutorial::load("ops/" + name + "/in" + std::to_string(i) + ".pb");
    specs[i] = {"in" + std::to_string(i), t.type(), {}};
    for (auto d : t.dims()) specs[i].shape.emplace_back(d);
    feeds.emplace(specs[i].name, std::move(t));
  }
  auto exported = retarget::export_onnx<toyengine>(model, specs);
  exported.model.check();
  rx::save(exported.model, dir / (name + ".onnx"));

  toyengine_param p;
  p.work_dir = (dir / "ops").string();
  p.file_name = name;
  const auto files = toyengine_manager::to_backend(dir / (name + ".onnx"), p);
  const auto out = toyengine_manager::build_wrapper(files, p).run(feeds).at("output");
  const std::string label = name + " (" + tutorial::op_types(exported.model) + ")";
  const bool ok =
      tutorial::compare(label.c_str(), out, tutorial::load("ops/" + name + "/out0.pb"), 1e-6);
  if (!exported.report.empty())
    std::printf("  rewrites: %s\n", tutorial::rewrites(exported).c_str());
  return ok;
}

// The error of a call that must fail; empty if it did not.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

// A text with the paths that change from machine to machine shown short: the work dir as
// <work>, the reference data as tests/data.
std::string shown(std::string text, const tutorial::work_dir& dir) {
  const std::pair<std::string, std::string> paths[] = {
      {dir.path().string(), "<work>"}, {tutorial::data("").string(), "tests/data/"}};
  for (const auto& [path, name] : paths)
    for (auto at = text.find(path); at != std::string::npos; at = text.find(path, at + name.size()))
      text.replace(at, path.size(), name);
  return text;
}

int main(int argc, char** argv) {
  if (argc > 1) return rb::backend_main<managers>(argc, argv);  // the console tool
  const tutorial::work_dir dir("tutorial-08");
  bool ok = true;

  // The manager: its environment check, and where its files go by default.
  std::printf(
      "== the manager of %s\nis_available(): %s\nversion(): %s\ncheck_env(): %s\n"
      "model_files(param{}): %s\n",
      std::string(toyengine::name).c_str(), toyengine_manager::is_available() ? "true" : "false",
      toyengine_manager::version().c_str(), toyengine_manager::check_env().c_str(),
      toyengine_manager::model_files({}).front().c_str());
  ok = ok && toyengine_manager::model_files({}).front() == "./end2end.toy";

  // Conversion and inference, checked op by op against PyTorch: each op reference is exported
  // for toyengine, converted to a .toy file and run by the wrapper. silu exports as Sigmoid and
  // Mul; hardswish goes through toyengine's rewrite.
  std::printf("\n== conversion and inference, against PyTorch's op references\n");
  using T = tensor<toyengine>;
  ok = check_op<2>(dir, "add", [](const T& a, const T& b) { return a + b; }) && ok;
  ok = check_op<1>(dir, "add_scalar", [](const T& a) { return a + 2.5; }) && ok;
  ok = check_op<2>(dir, "sub", [](const T& a, const T& b) { return a - b; }) && ok;
  ok = check_op<1>(dir, "rsub_scalar", [](const T& a) { return 1.0 - a; }) && ok;
  ok = check_op<2>(dir, "mul", [](const T& a, const T& b) { return a * b; }) && ok;
  ok = check_op<2>(dir, "div", [](const T& a, const T& b) { return a / b; }) && ok;
  ok = check_op<1>(dir, "neg", [](const T& a) { return -a; }) && ok;
  ok = check_op<1>(dir, "relu", [](const T& x) { return ops::relu(x); }) && ok;
  ok = check_op<1>(dir, "sigmoid", [](const T& x) { return ops::sigmoid(x); }) && ok;
  ok = check_op<1>(dir, "tanh", [](const T& x) { return ops::tanh(x); }) && ok;
  ok = check_op<1>(dir, "silu", [](const T& x) { return ops::silu(x); }) && ok;
  ok = check_op<1>(dir, "hardswish", [](const T& x) { return ops::hardswish(x); }) && ok;

  // What toyengine cannot run is refused at conversion, with the node named: softmax, and
  // hardswish as exported for onnxruntime (ONNX's HardSwish, no rewrite).
  const retarget::input_spec x_spec[] = {{"x", rx::dtype::f32, {2, 3}}};
  rx::save(retarget::export_onnx<toyengine>(
               [](const T& x) { return ops::softmax(x, std::int64_t{1}); }, x_spec)
               .model,
           dir / "softmax.onnx");
  rx::save(retarget::export_onnx<bk::onnxruntime>(
               [](const tensor<bk::onnxruntime>& x) { return ops::hardswish(x); }, x_spec)
               .model,
           dir / "hardswish_onnxruntime.onnx");
  for (const char* file : {"softmax.onnx", "hardswish_onnxruntime.onnx"}) {
    toyengine_param p;
    p.work_dir = (dir / "refused").string();
    const auto error = error_of([&] { toyengine_manager::to_backend(dir / file, p); });
    std::printf("%s: %s\n", file, error.empty() ? "converted  <-- MISMATCH" : error.c_str());
    ok = ok && !error.empty() && !fs::exists(toyengine_manager::model_files(p).front());
  }

  // The console tool, generated from the managers and their params: what `retarget backend`
  // does for the shipped backends, and what this program does given arguments.
  std::printf("\n== the console tool\n");
  const retarget::input_spec my_add_inputs[] = {{"a", rx::dtype::f32, {1, 3, 4, 4}},
                                                {"b", rx::dtype::f32, {1, 3, 4, 4}}};
  const auto my_add = [](const auto& a, const auto& b) { return 2.0 * a + b; };  // seed 004's
  rx::save(retarget::export_onnx<toyengine>(my_add, my_add_inputs).model, dir / "my_add.onnx");
  const auto console = [&](std::vector<std::string> args) {
    std::string line = "$ retarget";
    for (const auto& a : args) line += " " + a;
    std::printf("%s\n", shown(line, dir).c_str());
    std::ostringstream out;
    int status = 1;
    const auto error = error_of([&] { status = rb::backend_console<managers>(args, out); });
    std::printf("%s%s", shown(out.str(), dir).c_str(), shown(error, dir).c_str());
    std::printf(error.empty() ? "" : "\n");
    return error.empty() ? status : 1;
  };
  const std::string work = (dir / "cli").string();
  ok = console({"backend", "toyengine", "check"}) == 0 && ok;
  ok = console({"backend", "toyengine", "convert", "--help"}) == 0 && ok;
  ok = console({"backend", "toyengine", "convert", "--onnx-path", (dir / "my_add.onnx").string(),
                "--work-dir", work, "--file-name", "my_add"}) == 0 &&
       ok;
  std::ifstream toy_file(fs::path(work) / "my_add.toy");
  const std::string toy_text{std::istreambuf_iterator<char>(toy_file), {}};
  std::printf("<work>/cli/my_add.toy:\n%s", toy_text.c_str());
  ok = console({"backend", "toyengine", "run", "--input",
                "a=" + tutorial::data("tutorials/06_a.pb").string(), "--input",
                "b=" + tutorial::data("tutorials/06_b.pb").string(), "--work-dir", work,
                "--file-name", "my_add", "--output-dir", work}) == 0 &&
       ok;
  const auto reference = tutorial::load("tutorials/06_output.pb");
  ok = tutorial::compare("output.pb", retarget::ir::read_tensor_file(fs::path(work) / "output.pb"),
                         reference, 1e-6) &&
       ok;
  ok = console({"backend", "toyengine", "convert", "--onnx-path", "my_add.onnx", "--digits",
                "twelve"}) != 0 &&
       ok;
  ok = console({"backend", "toyengin", "check"}) != 0 && ok;

  // The deploy config: a base for the backend, and a task config that inherits it, as seed
  // 003's `backend_config = dict(type='newengine')`. The deploy flow finds the manager by the
  // config's backend name, exports as onnx_config says, converts, runs and verifies.
  std::printf("\n== the deploy config\n");
  fs::create_directories(dir / "configs/_base_/backends");
  fs::create_directories(dir / "configs/elementwise");
  const std::string backend_base = R"({
  "backend_config": {"type": "toyengine", "digits": 9}
}
)";
  const std::string task_config = R"({
  "_base_": ["../_base_/backends/toyengine.json"],
  "codebase_config": {"type": "tutorial", "task": "Elementwise"},
  "onnx_config": {"opset_version": 13, "input_names": ["a", "b"], "save_file": "my_add.onnx"},
  "backend_config": {"file_name": "my_add"}
}
)";
  std::ofstream(dir / "configs/_base_/backends/toyengine.json") << backend_base;
  std::ofstream(dir / "configs/elementwise/my_add_toyengine.json") << task_config;
  std::printf(
      "configs/_base_/backends/toyengine.json:\n%sconfigs/elementwise/my_add_toyengine.json:\n%s",
      backend_base.c_str(), task_config.c_str());

  const auto cfg =
      retarget::config::load_deploy_config(dir / "configs/elementwise/my_add_toyengine.json");
  const rb::tensor_map feeds = {{"a", tutorial::load("tutorials/06_a.pb")},
                                {"b", tutorial::load("tutorials/06_b.pb")}};
  // What a deploy tool does for any manager: the backend named in the config picks it.
  const auto deploy = [&](auto manager) {
    using M = decltype(manager);
    retarget::input_spec specs[2];
    std::size_t i = 0;
    for (const auto& [name, t] : feeds) {
      specs[i] = retarget::config::input_spec_for(cfg, i, 2, t.type(), t.dims());
      ++i;
    }
    auto exported = retarget::export_onnx<typename M::backend>(
        my_add, specs, cfg, retarget::config::export_options_for(cfg));
    exported.model.check();
    const auto onnx_file = dir / "deploy" / *cfg.onnx.save_file;
    fs::create_directories(onnx_file.parent_path());
    rx::save(exported.model, onnx_file);

    auto p = cfg.backend_param<M>();
    p.work_dir = (dir / "deploy").string();
    const auto files = M::to_backend(onnx_file, p);
    std::printf("deploy %s: backend %s (%s), opset %lld, %s -> %s\n",
                cfg.document.file().filename().c_str(), cfg.backend.c_str(), M::version().c_str(),
                static_cast<long long>(*cfg.onnx.opset_version), onnx_file.filename().c_str(),
                files.front().filename().c_str());
    auto wrapper = M::build_wrapper(files, p);
    return tutorial::compare("  run", wrapper.run(feeds).at("output"), reference, 1e-6) &&
           files.front().filename() == "my_add.toy";
  };
  ok = managers::visit(cfg.backend, deploy) && ok;
  ok = ok && *cfg.backend_param<toyengine_manager>().digits == 9;  // from the base

  // A mistake in the backend's section is reported with the file and the JSON path, whether the
  // param's type rules it out or the manager does.
  for (const char* value : {R"("nine")", "12"}) {
    std::ofstream(dir / "configs/elementwise/my_add_toyengine.json")
        << R"({"_base_": ["../_base_/backends/toyengine.json"], "backend_config": {"digits": )"
        << value << "}}";
    const auto error = error_of([&] {
      retarget::config::load_deploy_config(dir / "configs/elementwise/my_add_toyengine.json")
          .backend_param<toyengine_manager>();
    });
    std::printf("digits %s: %s\n", value,
                error.empty() ? "accepted  <-- MISMATCH" : shown(error, dir).c_str());
    ok = ok && !error.empty();
  }
  return tutorial::finish(ok);
}
