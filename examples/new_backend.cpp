// A new backend, step by step, as in "How to support new backends" (seed 003): toyengine, an
// engine with a file format of its own that runs element-wise models (Add, Mul, Relu,
// Sigmoid) on the CPU. It has a param, a manager that checks its environment, converts an
// ONNX file to its format and builds an inference wrapper, a console tool generated from the
// param, and a deploy config section.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <retarget/retarget.hpp>
#include <sstream>

namespace rb = retarget::backend;
namespace rx = retarget::onnx;
namespace ops = retarget::ops;

// 1. The backend tag.
struct toyengine : retarget::backend_tag<"toyengine"> {};

// 2. The param: each field with its help text; the file name gets ".toy" when it has none.
struct toyengine_param {
  rb::field<std::string, "The working directory."> work_dir{"."};
  rb::file_field<".toy", "File name of the serialized model; .toy is added when missing.">
      file_name{"end2end"};
};
BOOST_DESCRIBE_STRUCT(toyengine_param, (), (work_dir, file_name))

// 3. The wrapper: toyengine's runtime. Its file is one node a line, "Op out in0 [in1]", and
// one constant a line, "const name v0 v1 ...".
class toyengine_wrapper {
 public:
  explicit toyengine_wrapper(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw retarget::error("toyengine: cannot open " + file.string());
    for (std::string line; std::getline(in, line);) {
      std::istringstream words(line);
      std::string op;
      words >> op;
      if (op == "const") {
        std::string name;
        words >> name;
        for (float v; words >> v;) constants_[name].push_back(v);
      } else if (op == "output") {
        words >> output_;
      } else {
        node n{op, {}, {}};
        words >> n.output;
        for (std::string i; words >> i;) n.inputs.push_back(i);
        nodes_.push_back(n);
      }
    }
  }

  rb::tensor_map run(const rb::tensor_map& inputs) {
    std::map<std::string, std::vector<float>> values = constants_;
    rx::dims_t dims;
    for (const auto& [name, t] : inputs) {
      const auto* p = reinterpret_cast<const float*>(t.proto().raw_data().data());
      values[name].assign(p, p + t.proto().raw_data().size() / sizeof(float));
      dims = t.dims();
    }
    for (const auto& n : nodes_) {
      const auto& a = values.at(n.inputs.at(0));
      std::vector<float> out(a.size());
      for (std::size_t i = 0; i < a.size(); ++i) {
        // A one-element second operand is a scalar; otherwise operands have the same size.
        const auto b = [&] {
          const auto& v = values.at(n.inputs.at(1));
          return v.size() == 1 ? v[0] : v[i];
        };
        if (n.op == "Add")
          out[i] = a[i] + b();
        else if (n.op == "Mul")
          out[i] = a[i] * b();
        else if (n.op == "Relu")
          out[i] = std::max(a[i], 0.0f);
        else if (n.op == "Sigmoid")
          out[i] = 1.0f / (1.0f + std::exp(-a[i]));
        else
          throw retarget::error("toyengine: no kernel for " + n.op);
      }
      values[n.output] = std::move(out);
    }
    const auto& y = values.at(output_);
    return {{output_, rx::tensor::of(y, dims)}};
  }

 private:
  struct node {
    std::string op, output;
    std::vector<std::string> inputs;
  };
  std::vector<node> nodes_;
  std::map<std::string, std::vector<float>> constants_;
  std::string output_;
};

// 4. The manager: environment, conversion, wrapper, config.
struct toyengine_manager {
  using backend = toyengine;
  using param = toyengine_param;

  static bool is_available() { return true; }
  static std::string version() { return "toyengine 1.0"; }
  static std::string check_env() {
    return "toyengine runs in process; kernels: Add, Mul, Relu, Sigmoid";
  }
  static rb::file_list model_files(const param& p) {
    return {std::filesystem::path(*p.work_dir) / p.file_name.resolved()};
  }

  // Converts ONNX to toyengine's format, refusing ops it has no kernel for.
  static rb::file_list to_backend(const std::filesystem::path& onnx_file, const param& p) {
    const auto model = rx::load(onnx_file);
    std::ostringstream out;
    for (const auto& n : model.graph().node()) {
      if (n.op_type() == "Constant") {
        const rx::tensor t(n.attribute(0).t());
        out << "const " << n.output(0);
        const auto* v = reinterpret_cast<const float*>(t.proto().raw_data().data());
        for (std::size_t i = 0; i < t.proto().raw_data().size() / sizeof(float); ++i)
          out << " " << v[i];
        out << "\n";
        continue;
      }
      if (n.op_type() != "Add" && n.op_type() != "Mul" && n.op_type() != "Relu" &&
          n.op_type() != "Sigmoid")
        throw retarget::error("toyengine: cannot convert " + n.op_type() + " (node " + n.name() +
                              ")");
      out << n.op_type() << " " << n.output(0);
      for (const auto& i : n.input()) out << " " << i;
      out << "\n";
    }
    out << "output " << model.graph().output(0).name() << "\n";
    const auto target = model_files(p).front();
    std::filesystem::create_directories(target.parent_path());
    std::ofstream(target) << out.str();
    return {target};
  }
  static toyengine_wrapper build_wrapper(const rb::file_list& files, const param&) {
    return toyengine_wrapper(files.at(0));
  }
  static param param_from_config(const boost::json::value& j, const std::string& where) {
    return rb::from_json<param>(j, where);
  }
};

using managers = rb::manager_list<toyengine_manager>;

int main() {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("retarget-toyengine-" + std::to_string(::getpid()));

  // Export a model for toyengine: sigmoid(relu(x) * 2 + 1).
  const auto model = [](const retarget::trace::tensor<toyengine>& x) {
    return ops::sigmoid(ops::relu(x) * 2.0 + 1.0);
  };
  auto exported = retarget::export_onnx<toyengine>(model, {{"x", rx::dtype::f32, {4}}});
  fs::create_directories(dir);
  rx::save(exported.model, dir / "model.onnx");

  // The param from a deploy config's backend_config, then conversion and inference.
  const auto cfg = boost::json::parse(R"({"type": "toyengine", "work_dir": ")" + dir.string() +
                                      R"(", "file_name": "net"})");
  const auto p = toyengine_manager::param_from_config(cfg, "backend_config");
  const auto files = toyengine_manager::to_backend(dir / "model.onnx", p);
  auto wrapper = toyengine_manager::build_wrapper(files, p);
  const auto out = wrapper.run({{"x", rx::tensor::of<float>({-1, 0, 1, 2}, {4})}});
  const auto* y = reinterpret_cast<const float*>(out.at("output").proto().raw_data().data());
  std::printf("converted to %s\ny = [%.4f, %.4f, %.4f, %.4f]\n", files[0].filename().c_str(), y[0],
              y[1], y[2], y[3]);

  // The console tool, generated from the param.
  std::ostringstream help;
  rb::backend_console<managers>({"backend", "toyengine", "convert", "--help"}, help);
  std::printf("%s", help.str().c_str());

  bool ok = files[0].filename() == "net.toy";
  const float x[] = {-1, 0, 1, 2};
  for (int i = 0; i < 4; ++i)
    ok = ok && std::abs(y[i] - 1 / (1 + std::exp(-(std::max(x[i], 0.0f) * 2 + 1)))) < 1e-6;
  fs::remove_all(dir);
  std::printf(ok ? "all checks passed\n" : "CHECK FAILED\n");
  return ok ? 0 : 1;
}
