// Concurrent exports: 8 threads, 50 exports each, over a mix of models and backends; every
// output is byte for byte the one the same export gives when run alone. Exports share no state
// (each has its own session), and saves of the same file from several threads leave one whole
// file and nothing else.
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <functional>
#include <retarget/backends/tensorrt.hpp>
#include <retarget/retarget.hpp>
#include <span>
#include <stdexcept>
#include <string_view>
#include <thread>

#include "reliability/common.hpp"
#include "support/srcnn.hpp"

namespace {

namespace bk = retarget::backends;
namespace nn = retarget::nn;
namespace ops = retarget::ops;
namespace rx = retarget::ir;
namespace fs = std::filesystem;
template <class B>
using tensor = retarget::trace::tensor<B>;

// A small transformer-style block: Linear, LayerNorm, GELU, Linear.
struct mlp : retarget::rewritable_module<mlp, "MLP"> {
  nn::Linear fc1{"fc1", 16, 32};
  nn::LayerNorm norm{"norm", {32}};
  nn::GELU act;
  nn::Linear fc2{"fc2", 32, 8};
  mlp() {
    std::vector<float> w(32 * 16);
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i % 7) * 0.125f - 0.375f;
    fc1.weight.assign(std::span<const float>(w));
  }
  template <class B>
  tensor<B> forward(const tensor<B>& x) const {
    return fc2(act(norm(fc1(x))));
  }
};

// Convolution, batch norm, pooling, and a 1-D repeat (tensorrt rewrites it).
struct conv_net : retarget::rewritable_module<conv_net, "ConvNet"> {
  nn::Conv2d conv{"conv", 3, 8, {3, 3}, {.padding = {1}}};
  nn::BatchNorm2d bn{"bn", 8};
  nn::ReLU relu;
  nn::MaxPool2d pool{{.kernel_size = {2}}};
  template <class B>
  std::array<tensor<B>, 2> forward(const tensor<B>& x, const tensor<B>& v) const {
    return {pool(relu(bn(conv(x)))), ops::repeat(v, ops::ints{3})};
  }
};

// The bytes rx::save writes for the model: deterministic serialization, of a copy that holds
// the weights.
std::string bytes_of(rx::model m) {
  m.materialize();
  std::string out;
  google::protobuf::io::StringOutputStream stream(&out);
  google::protobuf::io::CodedOutputStream coded(&stream);
  coded.SetSerializationDeterministic(true);
  m.proto().SerializeToCodedStream(&coded);
  coded.Trim();
  return out;
}

struct models {
  tutorial::srcnn srcnn;
  mlp block;
  conv_net net;
};

template <class B>
std::vector<std::function<rx::model()>> exports_for(const models& m) {
  return {
      [&] {
        return retarget::export_onnx<B>(m.srcnn, {{"input", rx::dtype::f32, {1, 3, "h", "w"}}})
            .model;
      },
      [&] {
        return retarget::export_onnx<B>(m.block, {{"x", rx::dtype::f32, {"batch", 16}}}).model;
      },
      [&] {
        return retarget::export_onnx<B>(
                   m.net, {{"x", rx::dtype::f32, {2, 3, 8, 8}}, {"v", rx::dtype::f32, {5}}},
                   retarget::no_config{}, {.opset = 13})
            .model;
      },
  };
}

std::vector<std::function<rx::model()>> all_exports(const models& m) {
  std::vector<std::function<rx::model()>> out;
  for (auto list : {exports_for<bk::onnxruntime>(m), exports_for<bk::opencv_dnn>(m),
                    exports_for<bk::tensorrt>(m), exports_for<bk::tensorrt10>(m)})
    out.insert(out.end(), list.begin(), list.end());
  return out;
}

TEST(Concurrency, EightThreadsOfFiftyExportsEqualTheSequentialRun) {
  const models m;
  const auto exports = all_exports(m);
  std::vector<std::string> expected;
  for (const auto& e : exports) expected.push_back(bytes_of(e()));
  // The mix really is mixed: no two (model, backend) pairs give the same bytes but the ones
  // whose backend has no rewrite for that model.
  EXPECT_NE(expected[2], expected[8]);  // conv_net: onnxruntime vs tensorrt (repeat rewritten)

  constexpr int threads = 8, per_thread = 50;
  std::vector<std::vector<std::pair<std::size_t, std::string>>> results(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < per_thread; ++i) {
        const auto which = static_cast<std::size_t>(t * 5 + i * 7) % exports.size();
        results[static_cast<std::size_t>(t)].emplace_back(which, bytes_of(exports[which]()));
      }
    });
  for (auto& t : pool) t.join();

  int compared = 0;
  for (int t = 0; t < threads; ++t)
    for (const auto& [which, bytes] : results[static_cast<std::size_t>(t)]) {
      EXPECT_EQ(bytes, expected[which]) << "thread " << t << ", export " << which;
      ++compared;
    }
  EXPECT_EQ(compared, threads * per_thread);
}

// A custom schema reaches ONNX's registry the first time a graph uses it, possibly while other
// exports read that registry. Here one thread registers 2,000 new schemas, half of them in new
// domains, while seven emit ops of a registered custom domain and of the standard one.
TEST(Concurrency, RegisteringSchemasWhileOthersEmit) {
  static constexpr rx::op_schema seed[] = {{.domain = "com.retarget.stress", .name = "Seed"}};
  rx::register_schemas(seed);
  constexpr int fresh_count = 2000;
  std::deque<std::string> strings;  // the schemas' names and domains point into it
  std::vector<rx::op_schema> fresh;
  for (int i = 0; i < fresh_count; ++i) {
    const auto& domain = i % 2 == 0
                             ? std::string_view("com.retarget.stress")
                             : strings.emplace_back("com.retarget.stress" + std::to_string(i));
    fresh.push_back({.domain = domain, .name = strings.emplace_back("Fresh" + std::to_string(i))});
  }

  std::atomic<bool> registering{true};
  std::atomic<int> emitted{0};
  std::vector<std::string> failures(7);
  std::vector<std::thread> readers;
  for (std::size_t t = 0; t < failures.size(); ++t)
    readers.emplace_back([&, t] {
      try {
        do {
          rx::graph g(17);
          g.set_domain_version("com.retarget.stress", 1);
          auto x = g.input("x", rx::dtype::f32, {2, 3});
          auto y = g.op("Relu", g.op(retarget::runtime_op("com.retarget.stress::Seed"), x));
          if (y.dtype() != rx::dtype::f32)
            throw std::logic_error("Seed's output is not typed like its input");
          ++emitted;
        } while (registering);
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  for (const auto& s : fresh) rx::register_schemas(std::span(&s, 1));
  registering = false;
  for (auto& t : readers) t.join();

  for (std::size_t t = 0; t < failures.size(); ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
  EXPECT_GE(emitted.load(), 7);
  // Every schema registered meanwhile is there for the next graph.
  rx::graph g(17);
  auto x = g.input("x", rx::dtype::f32, {2, 3});
  for (const auto& s : fresh) {
    g.set_domain_version(std::string(s.domain), 1);
    EXPECT_EQ(
        g.op(retarget::runtime_op(std::string(s.domain) + "::" + std::string(s.name)), x).dtype(),
        rx::dtype::f32);
  }
}

class ConcurrentSaves : public reliability::scratch_folder {};

TEST_F(ConcurrentSaves, EachThreadItsOwnFileWithExternalData) {
  const models m;
  const auto exports = all_exports(m);
  std::vector<std::string> expected;
  for (const auto& e : exports) expected.push_back(bytes_of(e()));
  std::atomic<int> mismatches{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&, t] {
      const auto path = dir_ / ("thread-" + std::to_string(t) + ".onnx");
      for (int i = 0; i < 6; ++i) {
        const auto which = static_cast<std::size_t>(t + i * 3) % exports.size();
        auto model = exports[which]();
        rx::save(model, path, {.external_data_threshold = 256});
        if (bytes_of(rx::load(path)) != expected[which]) ++mismatches;
      }
    });
  for (auto& t : pool) t.join();
  EXPECT_EQ(mismatches.load(), 0);
  for (const auto& f : files()) EXPECT_EQ(f.find(".tmp"), std::string::npos) << f;
}

TEST_F(ConcurrentSaves, TheSameFileFromEightThreadsEndsWhole) {
  const models m;
  auto model =
      retarget::export_onnx<bk::onnxruntime>(m.srcnn, {{"input", rx::dtype::f32, {1, 3, 16, 16}}})
          .model;
  const auto path = dir_ / "srcnn.onnx";
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&] {
      rx::model copy = model;  // save lends a model's weights to the writer: one model per thread
      for (int i = 0; i < 5; ++i) rx::save(copy, path, {.external_data_threshold = 1024});
    });
  for (auto& t : pool) t.join();
  EXPECT_EQ(files(), (std::vector<std::string>{"srcnn.onnx", "srcnn.onnx.data"}));
  EXPECT_EQ(bytes_of(rx::load(path)), bytes_of(model));
}

}  // namespace
