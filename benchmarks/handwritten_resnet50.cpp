// The limits for exporting ResNet-50: programs that fill the ModelProto retarget writes (the
// same nodes, attributes, initializers and names) directly with protobuf and write it to a
// file, with no tracing, no checks and no shape inference. Their weights are the folded ones,
// ready in buffers before the clock starts, as a converter holding them would have them.
//
//   benchmark_handwritten_resnet50 OUT_DIR RUNS [naive|zerocopy]
// naive (the default) copies every weight into the proto and serializes it through an
// ofstream, as a first program would. zerocopy is the floor: the graph is serialized without
// its weights and each weight goes from its buffer to the file untouched, the whole file in
// one writev(2); ONNX reads the same model from both files. Prints one JSON line, as
// benchmark_export_resnet50 does.
#include <fcntl.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>
#include <onnx/onnx_pb.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct weights {
  std::string name;
  std::vector<std::int64_t> dims;
  std::vector<float> values;
};

// The conv layers in the order the exporter meets them, each with its folded weight and bias.
struct conv_layer {
  weights w, b;
  std::int64_t kernel, stride, padding;
};

std::vector<float> random_values(std::size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-0.05f, 0.05f);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

conv_layer make_conv(const std::string& conv, const std::string& bn, std::int64_t in,
                     std::int64_t out, std::int64_t k, std::int64_t stride, std::int64_t padding,
                     std::mt19937& rng) {
  return {{conv + ".weight",
           {out, in, k, k},
           random_values(static_cast<std::size_t>(out * in * k * k), rng)},
          {bn + ".bias", {out}, random_values(static_cast<std::size_t>(out), rng)},
          k,
          stride,
          padding};
}

struct block {
  conv_layer a, b, c;
  bool has_downsample = false;
  conv_layer downsample;
};

struct resnet50_weights {
  conv_layer stem;
  std::vector<block> blocks;
  weights fc_w, fc_b;
};

resnet50_weights make_weights() {
  std::mt19937 rng(7);
  resnet50_weights r;
  r.stem = make_conv("conv1", "bn1", 3, 64, 7, 2, 3, rng);
  std::int64_t in = 64;
  const std::int64_t widths[] = {64, 128, 256, 512}, counts[] = {3, 4, 6, 3};
  for (int layer = 0; layer < 4; ++layer)
    for (std::int64_t i = 0; i < counts[layer]; ++i) {
      const std::string n = "layer" + std::to_string(layer + 1) + "." + std::to_string(i);
      const std::int64_t w = widths[layer], stride = i == 0 && layer > 0 ? 2 : 1;
      block b;
      b.a = make_conv(n + ".conv1", n + ".bn1", in, w, 1, 1, 0, rng);
      b.b = make_conv(n + ".conv2", n + ".bn2", w, w, 3, stride, 1, rng);
      b.c = make_conv(n + ".conv3", n + ".bn3", w, w * 4, 1, 1, 0, rng);
      if (stride != 1 || in != w * 4) {
        b.has_downsample = true;
        b.downsample =
            make_conv(n + ".downsample.0", n + ".downsample.1", in, w * 4, 1, stride, 0, rng);
      }
      r.blocks.push_back(std::move(b));
      in = w * 4;
    }
  r.fc_w = {"fc.weight", {1000, 2048}, random_values(2048 * 1000, rng)};
  r.fc_b = {"fc.bias", {1000}, random_values(1000, rng)};
  return r;
}

// Fills the model as retarget's export names it: nodes "<Op>_<n>", outputs named as nodes.
// A weight the zero-copy writer leaves out of the proto: its tensor without raw data, and
// the buffer that holds the data.
struct pending_weight {
  onnx::TensorProto tensor;
  const weights* values;
};

class builder {
 public:
  // With `pending`, initializers are kept out of the graph, their data not copied.
  builder(onnx::ModelProto& m, std::vector<pending_weight>* pending)
      : graph_(m.mutable_graph()), pending_(pending) {}

  void initializer(const weights& w) {
    onnx::TensorProto* t = pending_ ? &pending_->emplace_back().tensor : graph_->add_initializer();
    t->set_name(w.name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (auto d : w.dims) t->add_dims(d);
    if (pending_)
      pending_->back().values = &w;
    else
      t->set_raw_data(w.values.data(), w.values.size() * sizeof(float));
  }
  static void ints(onnx::NodeProto* n, const char* name, std::vector<std::int64_t> values) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INTS);
    for (auto v : values) a->add_ints(v);
  }
  static void integer(onnx::NodeProto* n, const char* name, std::int64_t value) {
    auto* a = n->add_attribute();
    a->set_name(name);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(value);
  }
  onnx::NodeProto* node(const char* op, std::vector<std::string> inputs,
                        const std::string& output = {}) {
    auto* n = graph_->add_node();
    const std::string name = std::string(op) + "_" + std::to_string(counter_++);
    for (auto& i : inputs) n->add_input(std::move(i));
    n->add_output(output.empty() ? name : output);
    n->set_name(name);
    n->set_op_type(op);
    return n;
  }
  std::string conv(const std::string& x, const conv_layer& c) {
    initializer(c.b);
    initializer(c.w);
    auto* n = node("Conv", {x, c.w.name, c.b.name});
    ints(n, "dilations", {1, 1});
    integer(n, "group", 1);
    ints(n, "kernel_shape", {c.kernel, c.kernel});
    ints(n, "pads", {c.padding, c.padding, c.padding, c.padding});
    ints(n, "strides", {c.stride, c.stride});
    return n->output(0);
  }
  std::string unary(const char* op, const std::string& x) { return node(op, {x})->output(0); }

 private:
  onnx::GraphProto* graph_;
  std::vector<pending_weight>* pending_;
  int counter_ = 0;
};

void tensor_type(onnx::ValueInfoProto* v, const std::string& name, std::vector<std::int64_t> dims) {
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(onnx::TensorProto::FLOAT);
  for (auto d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}

// Protobuf merges a second occurrence of a message field into the first, so the graph's
// initializers may follow the rest of the model as a second `graph` field. Their small parts
// (tags, lengths, each tensor's name, type and dims) are serialized into `headers`; the file is
// the model, then each header followed by its weight bytes straight from the buffer.
void write_zero_copy(const onnx::ModelProto& m, const std::vector<pending_weight>& pending,
                     const std::filesystem::path& path) {
  using google::protobuf::internal::WireFormatLite;
  using google::protobuf::io::CodedOutputStream;
  const auto tag_size = [](int field, std::size_t length) {
    return CodedOutputStream::VarintSize32(
               WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED)) +
           CodedOutputStream::VarintSize64(length);
  };
  const auto put_tag = [](std::string& out, int field, std::size_t length) {
    std::uint8_t buffer[16];
    std::uint8_t* end = CodedOutputStream::WriteVarint32ToArray(
        WireFormatLite::MakeTag(field, WireFormatLite::WIRETYPE_LENGTH_DELIMITED), buffer);
    end = CodedOutputStream::WriteVarint64ToArray(length, end);
    out.append(reinterpret_cast<const char*>(buffer), static_cast<std::size_t>(end - buffer));
  };
  constexpr int graph_field = onnx::ModelProto::kGraphFieldNumber;
  constexpr int initializer_field = onnx::GraphProto::kInitializerFieldNumber;
  constexpr int raw_data_field = onnx::TensorProto::kRawDataFieldNumber;

  std::string model = m.SerializeAsString();
  std::vector<std::size_t> bytes(pending.size()), tensor_sizes(pending.size());
  std::size_t graph_size = 0;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    bytes[i] = pending[i].values->values.size() * sizeof(float);
    tensor_sizes[i] =
        pending[i].tensor.ByteSizeLong() + tag_size(raw_data_field, bytes[i]) + bytes[i];
    graph_size += tag_size(initializer_field, tensor_sizes[i]) + tensor_sizes[i];
  }
  put_tag(model, graph_field, graph_size);
  std::vector<std::string> headers(pending.size());
  std::vector<iovec> parts{{model.data(), model.size()}};
  for (std::size_t i = 0; i < pending.size(); ++i) {
    put_tag(headers[i], initializer_field, tensor_sizes[i]);
    pending[i].tensor.AppendToString(&headers[i]);
    put_tag(headers[i], raw_data_field, bytes[i]);
    parts.push_back({headers[i].data(), headers[i].size()});
    parts.push_back({const_cast<float*>(pending[i].values->values.data()), bytes[i]});
  }

  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) throw std::runtime_error("cannot write " + path.string());
  // writev may stop short, and takes at most IOV_MAX parts a call: go on from where it stopped.
  std::size_t next = 0;
  while (next < parts.size()) {
    const int count = static_cast<int>(std::min<std::size_t>(parts.size() - next, IOV_MAX));
    const ssize_t written = ::writev(fd, parts.data() + next, count);
    if (written < 0) {
      ::close(fd);
      throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
    }
    auto left = static_cast<std::size_t>(written);
    while (next < parts.size() && left >= parts[next].iov_len) left -= parts[next++].iov_len;
    if (left > 0) {
      parts[next].iov_base = static_cast<char*>(parts[next].iov_base) + left;
      parts[next].iov_len -= left;
    }
  }
  ::close(fd);
}

void export_model(const resnet50_weights& r, const std::filesystem::path& path, bool zero_copy) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("handwritten");
  m.add_opset_import()->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("main");
  tensor_type(g->add_input(), "input", {1, 3, 224, 224});
  std::vector<pending_weight> pending;
  builder b(m, zero_copy ? &pending : nullptr);
  auto y = b.conv("input", r.stem);
  y = b.unary("Relu", y);
  auto* pool = b.node("MaxPool", {y});
  b.integer(pool, "ceil_mode", 0);
  b.ints(pool, "dilations", {1, 1});
  b.ints(pool, "kernel_shape", {3, 3});
  b.ints(pool, "pads", {1, 1, 1, 1});
  b.ints(pool, "strides", {2, 2});
  y = pool->output(0);
  for (const auto& blk : r.blocks) {
    const auto main =
        b.conv(b.unary("Relu", b.conv(b.unary("Relu", b.conv(y, blk.a)), blk.b)), blk.c);
    const auto shortcut = blk.has_downsample ? b.conv(y, blk.downsample) : y;
    y = b.unary("Relu", b.node("Add", {main, shortcut})->output(0));
  }
  y = b.unary("Flatten", b.unary("GlobalAveragePool", y));
  b.integer(g->mutable_node(g->node_size() - 1), "axis", 1);
  b.initializer(r.fc_w);
  b.initializer(r.fc_b);
  b.integer(b.node("Gemm", {y, "fc.weight", "fc.bias"}, "output"), "transB", 1);
  tensor_type(g->add_output(), "output", {1, 1000});

  if (zero_copy) {
    write_zero_copy(m, pending, path);
    return;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!m.SerializeToOstream(&out)) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 4 ? argv[3] : "naive";
  if ((argc != 3 && argc != 4) || (mode != "naive" && mode != "zerocopy")) {
    std::fprintf(stderr, "usage: %s OUT_DIR RUNS [naive|zerocopy]\n", argv[0]);
    return 2;
  }
  const bool zero_copy = mode == "zerocopy";
  const std::filesystem::path out = std::filesystem::path(argv[1]) / ("resnet50_" + mode + ".onnx");
  const int runs = std::atoi(argv[2]);
  const auto weights = make_weights();
  std::vector<double> times;
  for (int i = 0; i < runs + 1; ++i) {
    const auto start = std::chrono::steady_clock::now();
    export_model(weights, out, zero_copy);
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  onnx::ModelProto check;
  {
    std::ifstream in(out, std::ios::binary);
    check.ParseFromIstream(&in);
  }
  std::printf("{\"peer\": \"%s\", \"first\": %.6f, \"times\": [",
              zero_copy ? "zerocopy" : "handwritten", times[0]);
  for (std::size_t i = 1; i < times.size(); ++i) std::printf("%s%.6f", i > 1 ? ", " : "", times[i]);
  std::printf("], \"nodes\": %d, \"file_bytes\": %ju}\n", check.graph().node_size(),
              static_cast<std::uintmax_t>(std::filesystem::file_size(out)));
}
