// retarget::convert::evaluate, checked against ONNX Runtime: each case is a one-node model
// whose inputs are graph inputs, run on ONNX Runtime with seeded inputs, and evaluated on the
// same inputs, stored as raw_data and again in the typed fields (float_data, int64_data, ...).
// Every op evaluate() handles is compared (EveryOpIsComparedWithOnnxRuntime), integers past
// their range among the inputs, and float64 at float64's precision.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <retarget/convert/evaluate.hpp>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>  // the tests read the protos they check
#include <set>
#include <string>
#include <vector>

#include "support/ort.hpp"
#include "support/scratch_folder.hpp"

namespace {

namespace rx = retarget::ir;
namespace cv = retarget::convert;
namespace fs = std::filesystem;
using namespace retarget::literals;
using rx::dtype;
using rx::tensor;
using i64 = std::int64_t;
using i32 = std::int32_t;

constexpr i64 int64_max = std::numeric_limits<i64>::max();
constexpr i64 int64_min = std::numeric_limits<i64>::min();

// An AttributeProto from a literal: attr("axis"_i = 1).
template <class A>
onnx::AttributeProto attr(const A& a) {
  onnx::AttributeProto p;
  a.write(p);
  return p;
}

// Seeded inputs: the same numbers on every run.
std::mt19937& engine() {
  static std::mt19937 e(20261123);
  return e;
}
tensor random_f32(rx::dims_t dims, float low = -3, float high = 3) {
  std::uniform_real_distribution<float> d(low, high);
  std::vector<float> v(static_cast<std::size_t>(rx::element_count(dims)));
  for (auto& x : v) x = d(engine());
  return tensor::of(v, std::move(dims));
}
tensor random_f64(rx::dims_t dims, double low = -3, double high = 3) {
  std::uniform_real_distribution<double> d(low, high);
  std::vector<double> v(static_cast<std::size_t>(rx::element_count(dims)));
  for (auto& x : v) x = d(engine());
  return tensor::of(v, std::move(dims));
}
template <class T>
tensor random_int(rx::dims_t dims, i64 low, i64 high) {
  std::uniform_int_distribution<i64> d(low, high);
  std::vector<T> v(static_cast<std::size_t>(rx::element_count(dims)));
  for (auto& x : v) x = static_cast<T>(d(engine()));
  return tensor::of(v, std::move(dims));
}
tensor random_bool(rx::dims_t dims) {
  std::bernoulli_distribution d(0.5);
  std::vector<bool> v(static_cast<std::size_t>(rx::element_count(dims)));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = d(engine());
  std::vector<std::uint8_t> bytes(v.begin(), v.end());
  return tensor::from_raw(dtype::boolean, std::move(dims), std::as_bytes(std::span(bytes)));
}
tensor ints(std::vector<i64> v) { return tensor::of(v, {static_cast<i64>(v.size())}); }

// The same tensor with its values in the typed field ONNX gives its type, not in raw_data.
onnx::TensorProto typed_fields(const tensor& t) {
  auto p = t.header();
  const auto& raw = t.proto().raw_data();
  const auto each = [&]<class T>(T, auto add) {
    for (std::size_t i = 0; i < raw.size(); i += sizeof(T)) {
      T v;
      std::memcpy(&v, raw.data() + i, sizeof(T));
      add(v);
    }
  };
  switch (t.type()) {
    case dtype::f32:
      each(float{}, [&](float v) { p.add_float_data(v); });
      break;
    case dtype::f64:
      each(double{}, [&](double v) { p.add_double_data(v); });
      break;
    case dtype::i64:
      each(i64{}, [&](i64 v) { p.add_int64_data(v); });
      break;
    case dtype::i32:
      each(i32{}, [&](i32 v) { p.add_int32_data(v); });
      break;
    case dtype::i8:
      each(std::int8_t{}, [&](std::int8_t v) { p.add_int32_data(v); });
      break;
    case dtype::u8:
    case dtype::boolean:
      each(std::uint8_t{}, [&](std::uint8_t v) { p.add_int32_data(v); });
      break;
    default:
      ADD_FAILURE() << "no typed form for " << rx::to_string(t.type());
  }
  return p;
}

bool is_float(dtype t) { return t == dtype::f32 || t == dtype::f64; }

// The ops whose float result IEEE 754 rounds exactly (or that compute nothing): a float64
// result of theirs is compared exactly. The others (Pow, means, sums and products, whose order
// of additions may differ) within 1e-12 relative at float64.
bool exact_at_float64(const std::string& op) {
  static const std::set<std::string> exact = {"Identity",
                                              "Cast",
                                              "Gather",
                                              "GatherND",
                                              "ScatterND",
                                              "ScatterElements",
                                              "Unsqueeze",
                                              "Squeeze",
                                              "Concat",
                                              "Slice",
                                              "Reshape",
                                              "Flatten",
                                              "Transpose",
                                              "Expand",
                                              "Tile",
                                              "Where",
                                              "ConstantOfShape",
                                              "Add",
                                              "Sub",
                                              "Mul",
                                              "Div",
                                              "Mod",
                                              "Neg",
                                              "Abs",
                                              "Sqrt",
                                              "Reciprocal",
                                              "Floor",
                                              "Ceil",
                                              "Min",
                                              "Max",
                                              "ReduceMax",
                                              "ReduceMin"};
  return exact.count(op) > 0;
}

// Both results of a case: equal for integers and bools (bit for bit); for floats NaN where the
// reference has NaN, the same infinities, and otherwise within 1e-6 relative at float32, and
// at float64 equal (exact_at_float64) or within 1e-12 relative.
void expect_same(const tensor& reference, const tensor& folded, const std::string& op,
                 const std::string& what) {
  ASSERT_EQ(folded.type(), reference.type()) << what;
  ASSERT_EQ(folded.dims(), reference.dims()) << what << ": " << rx::format_dims(folded.dims())
                                             << " against " << rx::format_dims(reference.dims());
  const auto expected = ort::values_of(reference);
  if (is_float(reference.type())) {
    const auto got = ort::values_of(folded);
    double scale = 1;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (std::isfinite(expected[i])) {
        scale = std::max(scale, std::abs(expected[i]));
        continue;
      }
      EXPECT_TRUE(std::isnan(expected[i]) ? std::isnan(got[i]) : got[i] == expected[i])
          << what << ": [" << i << "] is " << got[i] << ", not " << expected[i];
    }
    double worst = 0;
    for (std::size_t i = 0; i < expected.size(); ++i)
      if (std::isfinite(expected[i])) worst = std::max(worst, std::abs(got[i] - expected[i]));
    if (reference.type() == dtype::f64 && exact_at_float64(op))
      EXPECT_EQ(worst, 0) << what << ": float64, exact";
    else if (reference.type() == dtype::f64)
      EXPECT_LE(worst, 1e-12 * scale) << what << ": float64";
    else
      EXPECT_LE(worst, 1e-6 * scale) << what;
  } else {
    // Compared as bytes: int64 values beyond 2^53 stay exact.
    EXPECT_EQ(folded.proto().raw_data(), reference.proto().raw_data()) << what;
  }
}

// The ops each test of the suite `evaluate` compares with ONNX Runtime. Each test checks, as
// it ends, that it compared these (no more, no fewer), and EveryOpIsComparedWithOnnxRuntime
// that together they are evaluate()'s ops: an op added to the evaluator fails it until a test
// compares it.
const std::map<std::string, std::set<std::string>>& compared_by_test() {
  static const std::map<std::string, std::set<std::string>> table = {
      {"Identity", {"Identity"}},
      {"Cast", {"Cast"}},
      {"Shape", {"Shape"}},
      {"Size", {"Size"}},
      {"GatherNegativeIndicesAndAxes", {"Gather"}},
      {"GatherNDNegativeIndices", {"GatherND"}},
      {"ScatterNDNegativeIndices", {"ScatterND"}},
      {"ScatterNDReductionRepeatedIndices", {"ScatterND"}},
      {"ScatterElementsAxes", {"ScatterElements"}},
      {"ScatterElementsReductionRepeatedIndices", {"ScatterElements"}},
      {"Unsqueeze", {"Unsqueeze"}},
      {"SqueezeAtOpsets11And13", {"Squeeze"}},
      {"Concat", {"Concat"}},
      {"SliceNegativeAndClampedIndices", {"Slice"}},
      {"SliceNegativeSteps", {"Slice"}},
      {"SliceAttributesBeforeOpset10", {"Slice"}},
      {"ReshapeZeroAndMinusOne", {"Reshape"}},
      {"Flatten", {"Flatten"}},
      {"Transpose", {"Transpose"}},
      {"ExpandBroadcastsBothWays", {"Expand"}},
      {"Tile", {"Tile"}},
      {"ConstantOfShape", {"ConstantOfShape"}},
      {"Range", {"Range"}},
      {"Where", {"Where"}},
      {"Comparisons", {"Equal", "Greater", "Less"}},
      {"Logic", {"And", "Not", "Or"}},
      {"AddSubMulBroadcast", {"Add", "Mul", "Sub"}},
      {"IntegerOverflowWraps", {"Add", "Mul", "Sub"}},
      {"DivIntegerSigns", {"Div"}},
      {"ModSigns", {"Mod"}},
      {"NegAbs", {"Abs", "Neg"}},
      {"NegAbsOfTheSmallestInteger", {"Abs", "Neg"}},
      {"SqrtReciprocalFloorCeil", {"Ceil", "Floor", "Reciprocal", "Sqrt"}},
      {"Pow", {"Pow"}},
      {"MinMaxVariadic", {"Max", "Min"}},
      {"Float64", {"Add", "Sub", "Mul", "Div", "Neg", "ReduceSum", "ReduceMean", "ReduceProd"}},
      {"ReduceKeepdims", {"ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd"}},
      {"ReduceSumAxes", {"ReduceSum"}},
      {"ReduceSumAndProdOverflow", {"ReduceMean", "ReduceProd", "ReduceSum"}},
      {"ReduceAxesInputAtOpset18", {"ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd"}},
  };
  return table;
}

class evaluate : public support::scratch_folder_test {
 protected:
  void TearDown() override {
    support::scratch_folder_test::TearDown();
    if (HasFailure()) return;
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const auto it = compared_by_test().find(test);
    ASSERT_NE(it, compared_by_test().end()) << "compared_by_test() does not list " << test;
    EXPECT_EQ(compared_, it->second) << "the ops " << test << " compares with ONNX Runtime";
  }

  // A one-node model of op at opset whose inputs are graph inputs (std::nullopt: an absent
  // optional input), run on ONNX Runtime and folded by evaluate(); both must agree.
  void check(const std::string& op, int opset, const std::vector<std::optional<tensor>>& inputs,
             std::vector<onnx::AttributeProto> attributes = {}) {
    SCOPED_TRACE(op + " at opset " + std::to_string(opset));
    rx::graph g(opset);
    rx::node_spec spec;
    spec.op_type = op;
    spec.outputs = {"y"};
    spec.attributes = std::move(attributes);
    std::map<std::string, fs::path> feeds;
    // Trailing absent inputs are left out of the node (ONNX Runtime's Squeeze-13 refuses an
    // empty name for its axes); evaluate() still gets them as nullptr.
    auto given = inputs.size();
    while (given > 0 && !inputs[given - 1]) --given;
    for (std::size_t i = 0; i < given; ++i) {
      if (!inputs[i]) {
        spec.inputs.emplace_back();
        continue;
      }
      const auto name = "x" + std::to_string(i);
      const auto dims = inputs[i]->dims();
      spec.inputs.push_back(
          g.input(name, inputs[i]->type(), std::vector<rx::dim>(dims.begin(), dims.end())));
      feeds[name] = dir_ / (name + ".pb");
      rx::write_tensor_file(feeds[name], *inputs[i]);
    }
    const auto y = g.emit(std::move(spec)).front();
    const auto node = g.proto().node(0);
    g.output(y);
    auto m = rx::make_model(std::move(g));
    compare(node, opset, inputs, ort::run(m, dir_ / "ort", feeds).at("y"));
  }

  // A case evaluate() must leave to the runtime (nullopt), which ONNX Runtime still runs.
  void check_left_to_runtime(const std::string& op, int opset,
                             const std::vector<std::optional<tensor>>& inputs,
                             std::vector<onnx::AttributeProto> attributes = {}) {
    left_to_runtime_ = true;
    check(op, opset, inputs, std::move(attributes));
    left_to_runtime_ = false;
  }

  // The same with the model built by hand: for opset 18, which the graph builder's ONNX 1.12
  // does not know.
  void check_opset18(const std::string& op, const std::vector<std::optional<tensor>>& inputs,
                     std::vector<onnx::AttributeProto> attributes = {}) {
    SCOPED_TRACE(op + " at opset 18");
    onnx::ModelProto proto;
    proto.set_ir_version(8);
    auto* import = proto.add_opset_import();
    import->set_domain("");
    import->set_version(18);
    auto* graph = proto.mutable_graph();
    graph->set_name("opset18");
    auto* node = graph->add_node();
    node->set_op_type(op);
    node->add_output("y");
    for (auto& a : attributes) *node->add_attribute() = std::move(a);
    std::map<std::string, fs::path> feeds;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const auto name = inputs[i] ? "x" + std::to_string(i) : std::string();
      node->add_input(name);
      if (!inputs[i]) continue;
      auto* in = graph->add_input();
      in->set_name(name);
      auto* type = in->mutable_type()->mutable_tensor_type();
      type->set_elem_type(static_cast<int>(inputs[i]->type()));
      for (auto d : inputs[i]->dims()) type->mutable_shape()->add_dim()->set_dim_value(d);
      feeds[name] = dir_ / (name + ".pb");
      rx::write_tensor_file(feeds[name], *inputs[i]);
    }
    auto* out = graph->add_output();
    out->set_name("y");
    out->mutable_type()->mutable_tensor_type()->set_elem_type(
        inputs.front() ? static_cast<int>(inputs.front()->type()) : 1);
    rx::model m(proto);
    compare(*node, 18, inputs, ort::run(m, dir_ / "ort", feeds).at("y"));
  }

 private:
  std::set<std::string> compared_;
  bool left_to_runtime_ = false;

  void compare(const onnx::NodeProto& node, int opset,
               const std::vector<std::optional<tensor>>& inputs, const tensor& reference) {
    std::vector<onnx::TensorProto> typed;
    typed.reserve(inputs.size());
    std::vector<const onnx::TensorProto*> raw_inputs, typed_inputs;
    for (const auto& t : inputs) {
      raw_inputs.push_back(t ? &t->proto() : nullptr);
      if (t) typed.push_back(typed_fields(*t));
      typed_inputs.push_back(t ? &typed.back() : nullptr);
    }
    ASSERT_TRUE(cv::can_evaluate(node.op_type()));
    for (const auto* form : {&raw_inputs, &typed_inputs}) {
      const auto what = form == &raw_inputs ? "inputs as raw_data" : "inputs in typed fields";
      const auto folded = cv::evaluate(node, opset, *form);
      if (left_to_runtime_) {
        EXPECT_FALSE(folded) << what << ": folded, and ONNX Runtime gives "
                             << ::testing::PrintToString(ort::values_of(reference));
        continue;
      }
      compared_.insert(node.op_type());
      ASSERT_TRUE(folded) << what << ": evaluate() gave nullopt";
      ASSERT_EQ(folded->size(), 1u) << what;
      EXPECT_EQ(folded->front().proto().name(), "y") << what;
      EXPECT_TRUE(folded->front().has_raw_data() || rx::element_count(folded->front().dims()) == 0)
          << what;
      expect_same(reference, folded->front(), node.op_type(), what);
    }
  }
};

// ---- Shapes and data movement ----

TEST_F(evaluate, Identity) {
  check("Identity", 17, {random_f32({2, 3})});
  check("Identity", 17, {random_bool({4})});
}

TEST_F(evaluate, Cast) {
  const auto to = [](dtype t) { return attr("to"_i = static_cast<i64>(t)); };
  check("Cast", 13, {random_f32({3, 4}, -100, 100)}, {to(dtype::i64)});
  check("Cast", 13, {random_f32({3, 4}, -100, 100)}, {to(dtype::i32)});
  check("Cast", 13, {random_f32({3, 4}, 0, 255)}, {to(dtype::u8)});
  check("Cast", 13, {random_f32({3, 4}, -128, 127)}, {to(dtype::i8)});
  check("Cast", 13, {random_f32({3, 4})}, {to(dtype::boolean)});
  check("Cast", 13, {random_f64({3, 4}, -1e6, 1e6)}, {to(dtype::f32)});
  check("Cast", 13, {random_f32({3, 4})}, {to(dtype::f64)});
  check("Cast", 13, {random_int<i64>({3, 4}, -(i64{1} << 40), i64{1} << 40)}, {to(dtype::i32)});
  check("Cast", 13, {random_int<i64>({3, 4}, -1000, 1000)}, {to(dtype::f32)});
  check("Cast", 13, {random_int<i32>({3, 4}, -2, 2)}, {to(dtype::boolean)});
  check("Cast", 13, {random_bool({5})}, {to(dtype::f32)});
  check("Cast", 13, {random_int<std::uint8_t>({5}, 0, 255)}, {to(dtype::i64)});
  check("Cast", 13, {random_int<std::int8_t>({5}, -128, 127)}, {to(dtype::f32)});
  check("Cast", 13, {random_int<i64>({5}, -300, 300)}, {to(dtype::u8)});
  check("Cast", 9, {random_int<i64>({5}, -9, 9)}, {to(dtype::i64)});
}

TEST_F(evaluate, Shape) {
  check("Shape", 13, {random_f32({2, 3, 4})});
  check("Shape", 15, {random_int<i64>({2, 3, 4, 5}, 0, 9)},
        {attr("start"_i = 1), attr("end"_i = -1)});
  check("Shape", 15, {random_f32({2, 3})}, {attr("start"_i = -5)});
}

TEST_F(evaluate, Size) {
  check("Size", 13, {random_f32({2, 3, 4})});
  check("Size", 13, {random_int<i32>({}, 0, 9)});
}

TEST_F(evaluate, GatherNegativeIndicesAndAxes) {
  check("Gather", 13, {random_f32({3, 4, 5}), ints({-1, 0, 2, -4})}, {attr("axis"_i = 1)});
  check("Gather", 13, {random_int<i64>({3, 4}, -9, 9), random_int<i32>({2, 2}, -4, 3)},
        {attr("axis"_i = -1)});
  check("Gather", 13, {random_f32({3, 4}), tensor::scalar<i64>(-2)});
  check("Gather", 11, {random_bool({4, 2}), ints({3, 0})});
  check("Gather", 13, {ints({2, 3, 64, 64}), ints({-2, -1})});
  check("Gather", 13, {random_int<std::uint8_t>({4, 3}, 0, 255), ints({1, -1})},
        {attr("axis"_i = 1)});
}

// Index tuples of int64: ints2({{0, -1}, {2, 1}}) is [2, 2].
tensor ints2(const std::vector<std::vector<i64>>& rows) {
  std::vector<i64> v;
  for (const auto& r : rows) v.insert(v.end(), r.begin(), r.end());
  return tensor::of(
      v, {static_cast<i64>(rows.size()), rows.empty() ? 0 : static_cast<i64>(rows.front().size())});
}

TEST_F(evaluate, GatherNDNegativeIndices) {
  check("GatherND", 11, {random_f32({3, 4, 5}), ints2({{0, -1}, {2, 1}})});
  check("GatherND", 12, {random_int<i64>({3, 4}, -99, 99), ints2({{-3, 3}, {1, -4}, {2, 0}})},
        {attr("batch_dims"_i = 0)});
  check("GatherND", 13, {random_bool({2, 3}), ints2({{1}, {0}, {-2}})});
  check("GatherND", 13,
        {random_int<std::uint8_t>({2, 2, 3}, 0, 255),
         tensor::of(std::vector<i64>{1, 0, -1, -1}, {2, 1, 2})});
  check("GatherND", 13, {random_f64({4, 2}), ints2({{3}, {-1}, {3}})});  // repeated
}

TEST_F(evaluate, ScatterNDNegativeIndices) {
  check("ScatterND", 11, {random_f32({4, 5}), ints2({{-1}, {1}}), random_f32({2, 5})});
  check("ScatterND", 13,
        {random_int<i64>({2, 3, 4}, -99, 99), ints2({{0, -1}, {1, 0}}),
         random_int<i64>({2, 4}, -99, 99)});
  check("ScatterND", 13, {random_f32({3, 3}), ints2({{0, 0}, {-1, 2}, {1, -2}}), random_f32({3})});
  check(
      "ScatterND", 13,
      {random_bool({3, 2}), tensor::of(std::vector<i64>{2, 0}, {2, 1, 1}), random_bool({2, 1, 2})});
  check("ScatterND", 16,
        {random_int<std::int8_t>({5}, -128, 127), ints2({{4}, {-5}}),
         random_int<std::int8_t>({2}, -128, 127)},
        {attr("reduction"_s = "none")});
}

TEST_F(evaluate, ScatterNDReductionRepeatedIndices) {
  const auto rows = ints2({{0}, {2}, {0}, {-4}, {3}});  // row 0 three times
  check("ScatterND", 16, {random_f32({4, 3}), rows, random_f32({5, 3})},
        {attr("reduction"_s = "add")});
  check("ScatterND", 16, {random_int<i32>({4, 3}, -99, 99), rows, random_int<i32>({5, 3}, -99, 99)},
        {attr("reduction"_s = "add")});
  check("ScatterND", 16, {random_f64({4, 3}), rows, random_f64({5, 3})},
        {attr("reduction"_s = "mul")});
  check("ScatterND", 16,
        {random_int<i64>({2, 3}, -9, 9), ints2({{1, -1}, {1, 2}, {0, 0}, {-1, 2}}),
         random_int<i64>({4}, -9, 9)},
        {attr("reduction"_s = "mul")});
  check("ScatterND", 16,
        {tensor::vector<i32>({2147483647, 5}), ints2({{0}, {0}}), tensor::vector<i32>({1, 1})},
        {attr("reduction"_s = "add")});
}

TEST_F(evaluate, ScatterElementsAxes) {
  check("ScatterElements", 11,
        {random_f32({3, 4}), ints2({{0, -1, 2, 1}, {2, 0, -3, -1}}), random_f32({2, 4})});
  check("ScatterElements", 13,
        {random_int<i64>({2, 5}, -99, 99), tensor::of(std::vector<i32>{1, -1, 0, -5, 2, 3}, {2, 3}),
         random_int<i64>({2, 3}, -99, 99)},
        {attr("axis"_i = -1)});
  check("ScatterElements", 13,
        {random_bool({4, 5}), ints2({{3, 0, -1}, {1, 2, 0}}), random_bool({2, 3})},
        {attr("axis"_i = 1)});
  check("ScatterElements", 16,
        {random_f32({2, 3, 2}), tensor::of(std::vector<i64>{-1, 0, 1, 2}, {1, 2, 2}),
         random_f32({1, 2, 2})},
        {attr("axis"_i = 1), attr("reduction"_s = "none")});
}

TEST_F(evaluate, ScatterElementsReductionRepeatedIndices) {
  const auto rows = random_int<i64>({5, 4}, -3, 2);  // each column hits some row again
  check("ScatterElements", 16, {random_f32({3, 4}), rows, random_f32({5, 4})},
        {attr("reduction"_s = "add")});
  check("ScatterElements", 16,
        {random_int<i64>({3, 4}, -99, 99), rows, random_int<i64>({5, 4}, -99, 99)},
        {attr("reduction"_s = "add")});
  check("ScatterElements", 16,
        {random_int<i32>({3, 4}, -9, 9), rows, random_int<i32>({5, 4}, -9, 9)},
        {attr("reduction"_s = "mul")});
  check("ScatterElements", 16,
        {random_f64({4, 3}), ints2({{0, -3, 0, 1, -1}, {2, 2, -1, 0, 1}}), random_f64({2, 5})},
        {attr("axis"_i = -1), attr("reduction"_s = "mul")});
}

TEST_F(evaluate, Unsqueeze) {
  check("Unsqueeze", 11, {random_f32({3, 4})}, {attr("axes"_i = {0, -1})});
  check("Unsqueeze", 13, {random_f32({3, 4}), ints({1, -1})});
  check("Unsqueeze", 13, {tensor::scalar<i64>(7), ints({0})});
}

TEST_F(evaluate, SqueezeAtOpsets11And13) {
  check("Squeeze", 11, {random_f32({1, 3, 1, 4})}, {attr("axes"_i = {-2})});
  check("Squeeze", 11, {random_f32({1, 3, 1, 4})});
  check("Squeeze", 13, {random_f32({1, 3, 1, 4}), ints({0, -2})});
  check("Squeeze", 13, {random_int<i64>({1, 3, 1}, -5, 5), std::nullopt});
}

TEST_F(evaluate, Concat) {
  check("Concat", 13, {random_f32({2, 3}), random_f32({2, 1}), random_f32({2, 4})},
        {attr("axis"_i = 1)});
  check("Concat", 13, {random_f32({2, 3, 2}), random_f32({1, 3, 2})}, {attr("axis"_i = -3)});
  check("Concat", 11, {ints({1, 3}), ints({-1}), ints({})}, {attr("axis"_i = 0)});
  check("Concat", 13,
        {random_int<std::int8_t>({2}, -128, 127), random_int<std::int8_t>({3}, -128, 127)},
        {attr("axis"_i = 0)});
}

TEST_F(evaluate, SliceNegativeAndClampedIndices) {
  const auto x = random_f32({5, 6, 7});
  check("Slice", 13, {x, ints({-4, 1}), ints({int64_max, -1}), ints({-1, 0}), ints({2, 1})});
  check("Slice", 13, {x, ints({-100}), ints({100}), ints({1}), std::nullopt});
  check("Slice", 13, {x, ints({1, 2}), ints({3, 4})});
  check("Slice", 13, {x, ints({3}), ints({1}), ints({2})});  // empty
  check("Slice", 10,
        {random_int<i64>({6}, -9, 9), random_int<i32>({1}, 1, 1), random_int<i32>({1}, 5, 5)});
}

TEST_F(evaluate, SliceNegativeSteps) {
  const auto x = random_int<i64>({5, 6}, -50, 50);
  check("Slice", 13, {x, ints({-1}), ints({int64_min}), ints({1}), ints({-1})});
  check("Slice", 13, {x, ints({100, 4}), ints({-100, 0}), ints({0, 1}), ints({-2, -3})});
  check("Slice", 13, {x, ints({1}), ints({4}), ints({0}), ints({-1})});  // empty
  check("Slice", 13, {random_f32({8}), ints({6}), ints({1}), ints({0}), ints({-3})});
}

TEST_F(evaluate, SliceAttributesBeforeOpset10) {
  check("Slice", 9, {random_f32({4, 5})},
        {attr("starts"_i = {1, -3}), attr("ends"_i = {1000, -1}), attr("axes"_i = {0, 1})});
  check("Slice", 1, {random_f32({4, 5})}, {attr("starts"_i = {0, 1}), attr("ends"_i = {2, 3})});
}

TEST_F(evaluate, ReshapeZeroAndMinusOne) {
  check("Reshape", 13, {random_f32({2, 3, 4}), ints({0, -1})});
  check("Reshape", 13, {random_f32({2, 3, 4}), ints({-1, 0, 2, 2})});
  check("Reshape", 13, {random_f32({2, 3, 4}), ints({4, 0, 2})});
  check("Reshape", 5, {random_int<i64>({6}, 0, 9), ints({3, 2})});
  check("Reshape", 14, {random_f32({0, 3}), ints({3, 0})}, {attr("allowzero"_i = 1)});
  check("Reshape", 14, {random_f32({2, 3}), ints({0, 3})}, {attr("allowzero"_i = 0)});
}

TEST_F(evaluate, Flatten) {
  check("Flatten", 13, {random_f32({2, 3, 4})});
  check("Flatten", 13, {random_f32({2, 3, 4})}, {attr("axis"_i = 0)});
  check("Flatten", 13, {random_f32({2, 3, 4})}, {attr("axis"_i = -1)});
  check("Flatten", 13, {random_int<i64>({2, 3, 4}, 0, 9)}, {attr("axis"_i = 3)});
}

TEST_F(evaluate, Transpose) {
  check("Transpose", 13, {random_f32({2, 3, 4})});
  check("Transpose", 13, {random_int<i64>({2, 3, 4}, -9, 9)}, {attr("perm"_i = {1, 2, 0})});
  check("Transpose", 13, {random_bool({3, 1, 2, 2})}, {attr("perm"_i = {3, 0, 2, 1})});
}

TEST_F(evaluate, ExpandBroadcastsBothWays) {
  check("Expand", 13, {random_f32({3, 1}), ints({2, 1, 4})});
  check("Expand", 13, {random_f32({2, 3}), ints({1, 1})});
  check("Expand", 13, {random_int<i64>({2, 1, 3}, 0, 9), ints({4, 1})});
  check("Expand", 13, {tensor::scalar<i32>(5), ints({2, 2})});
}

TEST_F(evaluate, Tile) {
  check("Tile", 13, {random_f32({2, 3}), ints({2, 3})});
  check("Tile", 13, {random_int<i64>({3}, 0, 9), ints({4})});
  check("Tile", 13, {random_bool({1, 2, 2}), ints({3, 1, 0})});
}

TEST_F(evaluate, ConstantOfShape) {
  check("ConstantOfShape", 13, {ints({2, 3})});
  check("ConstantOfShape", 13, {ints({3})}, {attr("value"_t = tensor::vector<i64>({7}))});
  check("ConstantOfShape", 13, {ints({2, 2})}, {attr("value"_t = tensor::vector<float>({-1.5f}))});
  check("ConstantOfShape", 13, {ints({})}, {attr("value"_t = tensor::vector<i32>({4}))});
}

TEST_F(evaluate, Range) {
  check("Range", 13, {tensor::scalar<i64>(0), tensor::scalar<i64>(10), tensor::scalar<i64>(3)});
  check("Range", 13, {tensor::scalar<i64>(10), tensor::scalar<i64>(4), tensor::scalar<i64>(-2)});
  check("Range", 13, {tensor::scalar<i32>(5), tensor::scalar<i32>(1), tensor::scalar<i32>(1)});
  check("Range", 13,
        {tensor::scalar<float>(0.5f), tensor::scalar<float>(3.2f), tensor::scalar<float>(0.3f)});
  check("Range", 13,
        {tensor::scalar<double>(-1), tensor::scalar<double>(1), tensor::scalar<double>(0.25)});
}

// ---- Elementwise ops, with numpy's broadcasting ----

TEST_F(evaluate, Where) {
  check("Where", 16, {random_bool({2, 1, 4}), random_f32({3, 1}), random_f32({})});
  check("Where", 16,
        {random_bool({3}), random_int<i64>({2, 3}, -9, 9), random_int<i64>({2, 1}, -9, 9)});
}

TEST_F(evaluate, Comparisons) {
  check("Equal", 13, {random_int<i64>({2, 3}, 0, 2), random_int<i64>({3}, 0, 2)});
  check("Equal", 13, {random_bool({4}), random_bool({2, 1})});
  check("Equal", 13, {tensor::vector<float>({1, 2, 3}), tensor::vector<float>({1, 0, 3})});
  check("Less", 13, {random_f32({2, 3}), random_f32({2, 1})});
  check("Less", 13, {random_int<i32>({4}, -2, 2), random_int<i32>({4}, -2, 2)});
  check("Greater", 13, {random_f64({3, 1}), random_f64({4})});
  check("Greater", 13, {random_int<i64>({4}, -2, 2), tensor::scalar<i64>(0)});
}

TEST_F(evaluate, Logic) {
  check("Not", 13, {random_bool({2, 3})});
  check("And", 13, {random_bool({2, 3}), random_bool({3})});
  check("Or", 13, {random_bool({2, 1}), random_bool({1, 3})});
}

TEST_F(evaluate, AddSubMulBroadcast) {
  check("Add", 14, {random_f32({2, 3, 4}), random_f32({4})});
  check("Add", 14, {random_int<i64>({2, 1}, -99, 99), random_int<i64>({3}, -99, 99)});
  check("Add", 14,
        {tensor::vector<i32>({2147483647, -2147483647 - 1}), tensor::vector<i32>({1, -1})});
  check("Sub", 14, {random_f64({3, 1}), random_f64({1, 4})});
  check("Sub", 14, {random_int<i32>({5}, -99, 99), tensor::scalar<i32>(7)});
  check("Mul", 14, {random_int<i32>({2, 3}, -99, 99), random_int<i32>({2, 1}, -99, 99)});
  check("Mul", 14, {random_f32({2, 3}), random_f32({})});
  check("Add", 7, {random_f32({2, 3}), random_f32({3})});
}

// Signed overflow wraps around, as ONNX Runtime's does; the evaluator computes it without UB
// (in unsigned arithmetic).
TEST_F(evaluate, IntegerOverflowWraps) {
  constexpr i32 int32_max = std::numeric_limits<i32>::max();
  constexpr i32 int32_min = std::numeric_limits<i32>::min();
  const auto a = tensor::vector<i64>(
      {int64_max, int64_min, int64_min, 3037000500, -3037000500, int64_max, 1 << 30, -1});
  const auto b = tensor::vector<i64>(
      {2, -1, int64_min, 3037000500, 3037000500, int64_max, i64{1} << 40, int64_min});
  check("Mul", 14, {a, b});
  check("Sub", 14, {a, b});
  check("Sub", 14, {b, a});
  check("Add", 14, {a, b});
  const auto c = tensor::vector<i32>({int32_max, int32_min, int32_min, 46341, -1, 65536});
  const auto d = tensor::vector<i32>({2, -1, int32_min, 46341, int32_min, 65536});
  check("Mul", 14, {c, d});
  check("Sub", 14, {c, d});
  check("Sub", 14, {d, c});
  check("Add", 14, {c, d});
}

TEST_F(evaluate, DivIntegerSigns) {
  check("Div", 14, {random_f32({2, 3}), random_f32({3}, 0.5, 2)});
  const auto a = tensor::vector<i64>({7, -7, 7, -7, 6, -6, 0, 1});
  const auto b = tensor::vector<i64>({2, 2, -2, -2, 4, -4, 3, -3});
  check("Div", 14, {a, b});
  check("Div", 14, {random_int<i32>({3, 4}, -50, 50), random_int<i32>({4}, 1, 7)});
  check("Div", 14, {random_int<i32>({3, 4}, -50, 50), random_int<i32>({4}, -7, -1)});
}

TEST_F(evaluate, ModSigns) {
  const auto a = tensor::vector<i64>({7, -7, 7, -7, 6, -6, 0, 5});
  const auto b = tensor::vector<i64>({3, 3, -3, -3, 4, 4, 3, -5});
  check("Mod", 13, {a, b});
  check("Mod", 13, {a, b}, {attr("fmod"_i = 1)});
  check("Mod", 13, {random_int<i32>({3, 4}, -50, 50), random_int<i32>({4}, 1, 7)});
  check("Mod", 13, {random_int<i32>({3, 4}, -50, 50), random_int<i32>({4}, -7, -1)},
        {attr("fmod"_i = 1)});
  check("Mod", 13, {random_f32({3, 4}, -10, 10), random_f32({4}, -3, 3)}, {attr("fmod"_i = 1)});
  check("Mod", 13, {random_f64({3}, -10, 10), tensor::scalar<double>(2.5)}, {attr("fmod"_i = 1)});
}

TEST_F(evaluate, NegAbs) {
  check("Neg", 13, {random_f32({2, 3})});
  check("Neg", 13, {random_int<i64>({5}, -9, 9)});
  check("Abs", 13, {random_f64({2, 3})});
  check("Abs", 13, {random_int<i32>({5}, -9, 9)});
}

// -INT_MIN does not fit: ONNX Runtime gives INT_MIN back, for Neg and for Abs.
TEST_F(evaluate, NegAbsOfTheSmallestInteger) {
  constexpr i32 int32_min = std::numeric_limits<i32>::min();
  constexpr i32 int32_max = std::numeric_limits<i32>::max();
  const auto wide = tensor::vector<i64>({int64_min, int64_min + 1, int64_max, -1, 0});
  const auto narrow = tensor::vector<i32>({int32_min, int32_min + 1, int32_max, -1, 0});
  for (const auto& x : {wide, narrow}) {
    check("Neg", 13, {x});
    check("Abs", 13, {x});
  }
}

TEST_F(evaluate, SqrtReciprocalFloorCeil) {
  check("Sqrt", 13, {random_f32({2, 3}, 0, 9)});
  check("Sqrt", 13, {random_f64({4}, 0, 9)});
  check("Reciprocal", 13, {random_f32({2, 3}, 0.5, 4)});
  check("Reciprocal", 13, {random_f64({4}, -4, -0.5)});
  check("Floor", 13, {random_f32({2, 3}, -5, 5)});
  check("Ceil", 13, {random_f32({2, 3}, -5, 5)});
  check("Floor", 13, {random_f64({4}, -5, 5)});
  check("Ceil", 13, {random_f64({4}, -5, 5)});
}

TEST_F(evaluate, Pow) {
  check("Pow", 15, {random_f32({2, 3}, 0.1, 3), random_f32({3}, -2, 2)});
  check("Pow", 15, {random_f32({2, 3}), tensor::scalar<float>(2)});
  check("Pow", 15, {random_f64({2, 3}, 0.1, 3), random_int<i64>({3}, -2, 3)});
  check("Pow", 15, {random_int<i64>({2, 3}, -5, 5), random_int<i64>({3}, 0, 4)});
  check("Pow", 15, {random_int<i32>({4}, 1, 5), random_f32({4}, 0, 2)});
  check("Pow", 7, {random_f32({2, 3}, 0.1, 3), random_f32({2, 3}, -2, 2)});
}

TEST_F(evaluate, MinMaxVariadic) {
  check("Max", 13, {random_f32({2, 3}), random_f32({3}), random_f32({2, 1})});
  check("Min", 13, {random_f32({2, 3}), random_f32({3}), random_f32({2, 1})});
  check("Max", 13, {random_int<i64>({4}, -9, 9), random_int<i64>({4}, -9, 9)});
  check("Min", 13, {random_int<i32>({2, 1}, -9, 9), random_int<i32>({3}, -9, 9)});
  check("Max", 13, {random_f64({3})});
}

// ---- Reductions ----

TEST_F(evaluate, ReduceKeepdims) {
  const auto x = random_f32({2, 3, 4});
  check("ReduceMax", 13, {x}, {attr("axes"_i = {1})});
  check("ReduceMax", 13, {x}, {attr("axes"_i = {1}), attr("keepdims"_i = 0)});
  check("ReduceMin", 13, {x}, {attr("axes"_i = {-1, 0}), attr("keepdims"_i = 0)});
  check("ReduceMin", 13, {random_int<i32>({3, 4}, -99, 99)});
  check("ReduceMean", 13, {x}, {attr("axes"_i = {2})});
  check("ReduceMean", 13, {x}, {attr("keepdims"_i = 0)});
  check("ReduceMean", 13, {random_int<i64>({3, 4}, -99, 99)}, {attr("axes"_i = {1})});
  check("ReduceProd", 13, {random_f32({2, 3}, 0.5, 2)}, {attr("axes"_i = {0})});
  check("ReduceProd", 13, {random_int<i64>({3, 4}, -5, 5)}, {attr("keepdims"_i = 0)});
  check("ReduceMax", 11, {random_int<i64>({3, 4}, -99, 99)}, {attr("axes"_i = {0})});
}

TEST_F(evaluate, ReduceSumAxes) {
  const auto x = random_f32({2, 3, 4});
  check("ReduceSum", 11, {x}, {attr("axes"_i = {1}), attr("keepdims"_i = 0)});
  check("ReduceSum", 11, {x});
  check("ReduceSum", 13, {x, ints({0, -1})});
  check("ReduceSum", 13, {x, ints({0, -1})}, {attr("keepdims"_i = 0)});
  check("ReduceSum", 13, {x, std::nullopt});
  check("ReduceSum", 13, {x, ints({})}, {attr("keepdims"_i = 0)});
  check("ReduceSum", 13, {x, ints({})}, {attr("noop_with_empty_axes"_i = 1)});
  check("ReduceSum", 13, {random_int<i64>({3, 4}, -99, 99), ints({1})});
  check("ReduceSum", 13, {random_int<i32>({3, 4}, -99, 99), ints({0})});
}

// Integer sums, products and means: ONNX Runtime computes them in double and saturates, so
// a result that is exact within 2^53 (and the type) is folded, and one past it is left to
// the runtime (nullopt), which ONNX Runtime still runs.
TEST_F(evaluate, ReduceSumAndProdOverflow) {
  constexpr i64 two_52 = i64{1} << 52;
  const auto sums = tensor::of<i64>({two_52, two_52, -two_52, -two_52, 1 << 26, 1 << 27}, {3, 2});
  check("ReduceSum", 13, {sums, ints({1})});
  check("ReduceMean", 13, {sums}, {attr("axes"_i = {1})});
  const auto products = tensor::of<i64>({1 << 26, 1 << 27, -(1 << 26), 1 << 27, 0, 7}, {3, 2});
  check("ReduceProd", 13, {products}, {attr("axes"_i = {1})});
  constexpr i32 int32_max = std::numeric_limits<i32>::max();
  check("ReduceSum", 13,
        {tensor::of<i32>({int32_max - 5, 5, -2, -(int32_max / 2)}, {2, 2}), ints({1})});
  check("ReduceProd", 13, {tensor::of<i32>({46340, 46340, -2, -(int32_max / 2)}, {2, 2})},
        {attr("axes"_i = {1})});

  const auto past = [](std::vector<i64> v) { return tensor::of<i64>(v, {1, 2}); };
  const auto left = [&](const std::string& op, const tensor& x) {
    if (op == "ReduceSum")
      check_left_to_runtime(op, 13, {x, ints({1})});
    else
      check_left_to_runtime(op, 13, {x}, {attr("axes"_i = {1})});
  };
  left("ReduceSum", past({int64_max, 1}));
  left("ReduceSum", past({int64_min, -1}));
  left("ReduceSum", past({i64{1} << 62, 4}));  // 2^62 + 4 on ONNX Runtime: 2^62
  left("ReduceSum", past({two_52, two_52 + 1}));
  left("ReduceSum", tensor::of<i32>({int32_max, 1}, {1, 2}));
  left("ReduceProd", past({int64_max, 2}));
  left("ReduceProd", past({int64_min, -1}));
  left("ReduceProd", past({i64{1} << 27, i64{1} << 27}));
  left("ReduceProd", tensor::of<i32>({65536, 65536}, {1, 2}));
  left("ReduceMean", past({int64_max, int64_max}));
}

// Float64 at float64's precision (expect_same): exact where IEEE 754 rounds one operation, within
// 1e-12 relative for sums, means and products.
TEST_F(evaluate, Float64) {
  const auto a = random_f64({3, 4}, -1e3, 1e3), b = random_f64({4}, 0.25, 7);
  check("Add", 14, {a, b});
  check("Sub", 14, {a, b});
  check("Mul", 14, {a, b});
  check("Div", 14, {a, b});
  check("Neg", 13, {a});
  check("ReduceSum", 13, {random_f64({8, 50}, -1e3, 1e3), ints({1})});
  check("ReduceMean", 13, {random_f64({8, 50}, -1e3, 1e3)}, {attr("axes"_i = {1})});
  check("ReduceProd", 13, {random_f64({4, 30}, 0.5, 2)}, {attr("axes"_i = {1})});
}

TEST_F(evaluate, ReduceAxesInputAtOpset18) {
  const auto x = random_f32({2, 3, 4});
  check_opset18("ReduceMax", {x, ints({1})});
  check_opset18("ReduceMin", {x, ints({-1})}, {attr("keepdims"_i = 0)});
  check_opset18("ReduceMean", {x, std::nullopt});
  check_opset18("ReduceProd", {x, ints({0, 2})}, {attr("keepdims"_i = 0)});
  check_opset18("ReduceMean", {x, ints({})}, {attr("noop_with_empty_axes"_i = 1)});
}

// ---- What evaluate() leaves to the runtime, and what it refuses ----

// A node as a converter reads it from a file.
onnx::NodeProto node_of(const std::string& op, int inputs,
                        std::vector<onnx::AttributeProto> attributes = {}) {
  onnx::NodeProto node;
  node.set_op_type(op);
  node.set_name(op + "_0");
  for (int i = 0; i < inputs; ++i) node.add_input("x" + std::to_string(i));
  node.add_output("y");
  for (auto& a : attributes) *node.add_attribute() = std::move(a);
  return node;
}

std::optional<std::vector<tensor>> fold(const onnx::NodeProto& node, int opset,
                                        const std::vector<tensor>& inputs) {
  std::vector<const onnx::TensorProto*> protos;
  for (const auto& t : inputs) protos.push_back(&t.proto());
  return cv::evaluate(node, opset, protos);
}

// The ops the tests of `evaluate` compare with ONNX Runtime are evaluate()'s, and each test
// the table names is one of the suite.
TEST(evaluate_api, EveryOpIsComparedWithOnnxRuntime) {
  std::set<std::string> compared;
  for (const auto& [test, ops] : compared_by_test()) compared.insert(ops.begin(), ops.end());
  std::set<std::string> evaluated;
  for (const auto op : cv::evaluable_ops()) evaluated.emplace(op);
  EXPECT_EQ(evaluated.size(), cv::evaluable_ops().size()) << "an op listed twice";
  for (const auto& op : evaluated)
    EXPECT_TRUE(compared.count(op))
        << "evaluate() handles " << op << ", and no test compares it with ONNX Runtime";
  for (const auto& op : compared)
    EXPECT_TRUE(evaluated.count(op)) << op << " is compared, and evaluate() does not handle it";

  std::set<std::string> tests;
  const auto* unit = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit->total_test_suite_count(); ++i) {
    const auto* suite = unit->GetTestSuite(i);
    if (std::string(suite->name()) != "evaluate") continue;
    for (int j = 0; j < suite->total_test_count(); ++j) tests.insert(suite->GetTestInfo(j)->name());
  }
  std::set<std::string> listed;
  for (const auto& [test, ops] : compared_by_test()) listed.insert(test);
  EXPECT_EQ(listed, tests) << "compared_by_test() against the tests of the suite evaluate";
}

TEST(evaluate_api, CanEvaluateListsTheOps) {
  for (const char* op : {"Identity",   "Cast",       "Shape",     "Size",      "Gather",
                         "Unsqueeze",  "Squeeze",    "Concat",    "Slice",     "Reshape",
                         "Flatten",    "Transpose",  "Expand",    "Tile",      "ConstantOfShape",
                         "Range",      "Where",      "Equal",     "Less",      "Greater",
                         "Not",        "And",        "Or",        "Add",       "Sub",
                         "Mul",        "Div",        "Mod",       "Neg",       "Abs",
                         "Sqrt",       "Reciprocal", "Pow",       "Min",       "Max",
                         "Floor",      "Ceil",       "ReduceMax", "ReduceMin", "ReduceSum",
                         "ReduceMean", "ReduceProd", "GatherND",  "ScatterND", "ScatterElements"})
    EXPECT_TRUE(cv::can_evaluate(op)) << op;
  for (const char* op : {"Conv", "Relu", "MatMul", "add", "", "Constant", "Resize"}) {
    EXPECT_FALSE(cv::can_evaluate(op)) << op;
    EXPECT_FALSE(fold(node_of(op, 1), 17, {random_f32({2})})) << op;
  }
}

TEST(evaluate_api, UnsupportedFormsGiveNullopt) {
  const auto f16 = tensor::from_raw(dtype::f16, {2}, std::as_bytes(std::span("\0\0\0\0", 4)));
  const auto to = [](dtype t) { return attr("to"_i = static_cast<i64>(t)); };
  // Element types.
  EXPECT_FALSE(fold(node_of("Add", 2), 17, {f16, f16}));
  EXPECT_FALSE(fold(node_of("Identity", 1), 17, {f16}));
  EXPECT_FALSE(fold(node_of("Cast", 1, {to(dtype::f16)}), 17, {random_f32({2})}));
  EXPECT_FALSE(fold(node_of("Sqrt", 1), 17, {ints({4})}));
  EXPECT_FALSE(fold(node_of("Add", 2), 17, {random_bool({2}), random_bool({2})}));
  EXPECT_FALSE(fold(node_of("Identity", 1), 17, {tensor::vector<std::string>({"a"})}));
  // Forms of an op.
  EXPECT_FALSE(fold(node_of("Tile", 3), 5, {random_f32({2}), ints({2}), ints({0})}));
  onnx::AttributeProto to_string_form;
  to_string_form.set_name("to");
  to_string_form.set_type(onnx::AttributeProto::STRING);
  to_string_form.set_s("FLOAT");
  EXPECT_FALSE(fold(node_of("Cast", 1, {to_string_form}), 1, {ints({1})}));
  EXPECT_FALSE(fold(node_of("Add", 2, {attr("broadcast"_i = 1), attr("axis"_i = 0)}), 6,
                    {random_f32({2, 3}), random_f32({2})}));
  auto custom = node_of("Add", 2);
  custom.set_domain("com.example");
  EXPECT_FALSE(fold(custom, 17, {random_f32({2}), random_f32({2})}));
  // Values the runtime may treat its own way.
  EXPECT_FALSE(fold(node_of("Div", 2), 17, {ints({1, 2}), ints({1, 0})}));
  EXPECT_FALSE(fold(node_of("Mod", 2), 17, {ints({1, 2}), ints({0, 1})}));
  EXPECT_FALSE(
      fold(node_of("Cast", 1, {to(dtype::i32)}), 17, {tensor::vector<float>({std::nanf(""), 1})}));
  EXPECT_FALSE(fold(node_of("Cast", 1, {to(dtype::u8)}), 17, {tensor::vector<float>({300})}));
  EXPECT_FALSE(fold(node_of("ReduceMax", 1), 17, {tensor::vector<float>({1, std::nanf("")})}));
  EXPECT_FALSE(
      fold(node_of("Max", 2), 17, {random_f32({2}), tensor::vector<float>({std::nanf(""), 1})}));
  EXPECT_FALSE(fold(node_of("ReduceMin", 1), 17, {random_f32({0, 2})}));
  // Indices out of range (ONNX Runtime fails the run), an element written twice without a
  // reduction (undefined by the spec), reductions of opset 18, batch_dims.
  const auto x = random_f32({2, 3});
  EXPECT_FALSE(fold(node_of("GatherND", 2), 17, {x, ints2({{2, 0}})}));
  EXPECT_FALSE(fold(node_of("GatherND", 2), 17, {x, ints2({{0, -4}})}));
  EXPECT_FALSE(fold(node_of("ScatterND", 3), 17, {x, ints2({{-3}}), random_f32({1, 3})}));
  EXPECT_FALSE(fold(node_of("ScatterElements", 3), 17, {x, ints2({{0, 2}}), random_f32({1, 2})}));
  EXPECT_FALSE(fold(node_of("ScatterND", 3), 17, {x, ints2({{1}, {-1}}), random_f32({2, 3})}));
  EXPECT_FALSE(
      fold(node_of("ScatterElements", 3), 17, {x, ints2({{1, 0}, {1, 1}}), random_f32({2, 2})}));
  EXPECT_FALSE(fold(node_of("ScatterND", 3, {attr("reduction"_s = "max")}), 18,
                    {x, ints2({{1}}), random_f32({1, 3})}));
  EXPECT_FALSE(fold(node_of("ScatterND", 3, {attr("reduction"_s = "add")}), 13,
                    {x, ints2({{1}}), random_f32({1, 3})}));
  EXPECT_FALSE(fold(node_of("ScatterElements", 3, {attr("reduction"_s = "add")}), 17,
                    {random_bool({2}), ints({0}), random_bool({1})}));
  EXPECT_FALSE(
      fold(node_of("GatherND", 2, {attr("batch_dims"_i = 1)}), 17, {x, ints2({{0}, {1}})}));
  // Data not in memory.
  auto external = random_f32({2});
  external.proto().set_data_location(onnx::TensorProto::EXTERNAL);
  EXPECT_FALSE(fold(node_of("Identity", 1), 17, {external}));
  // Results too large to be worth a constant.
  EXPECT_FALSE(fold(node_of("ConstantOfShape", 1), 17, {ints({1 << 20, 1 << 20})}));
}

// The message of the retarget::error that folding the node throws.
std::string refusal(const onnx::NodeProto& node, int opset, const std::vector<tensor>& inputs) {
  try {
    fold(node, opset, inputs);
  } catch (const retarget::error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(evaluate_api, InvalidInputsThrow) {
  EXPECT_EQ(refusal(node_of("Add", 2), 17, {random_f32({2, 3}), random_f32({4})}),
            "retarget: Add 'Add_0': shapes [2, 3] and [4] do not broadcast");
  EXPECT_EQ(refusal(node_of("Add", 2), 17, {random_f32({2}), ints({2, 3})}),
            "retarget: Add 'Add_0': inputs of different types, float32 and int64");
  EXPECT_EQ(refusal(node_of("Gather", 2), 17, {random_f32({2, 3}), ints({2})}),
            "retarget: Gather 'Gather_0': index 2 is out of range for axis 0 of [2, 3]");
  EXPECT_EQ(
      refusal(node_of("ScatterND", 3), 17, {random_f32({2, 3}), ints2({{0}}), random_f32({3})}),
      "retarget: ScatterND 'ScatterND_0': updates are [3], not [1, 3]");
  EXPECT_EQ(refusal(node_of("GatherND", 2), 17, {random_f32({2, 3}), ints2({{0, 1, 0}})}),
            "retarget: GatherND 'GatherND_0': indices of [1, 3] index more axes than [2, 3] has");
  EXPECT_EQ(refusal(node_of("Reshape", 2), 17, {random_f32({2, 3}), ints({4, -1})}),
            "retarget: Reshape 'Reshape_0': cannot reshape [2, 3] to [4, -1]");
  EXPECT_EQ(refusal(node_of("Squeeze", 2), 17, {random_f32({2, 1}), ints({0})}),
            "retarget: Squeeze 'Squeeze_0': axis 0 of [2, 1] is not 1");
  EXPECT_EQ(refusal(node_of("Mod", 2), 17, {random_f32({2}), random_f32({2})}),
            "retarget: Mod 'Mod_0': fmod must be 1 for floating-point inputs");
  EXPECT_EQ(refusal(node_of("Transpose", 1, {attr("perm"_i = {0, 0})}), 17, {random_f32({2, 2})}),
            "retarget: Transpose 'Transpose_0': perm [0, 0] is not a permutation of [0, 1]");
  EXPECT_EQ(refusal(node_of("Concat", 2, {attr("axis"_i = 0)}), 17,
                    {random_f32({2, 3}), random_f32({2, 4})}),
            "retarget: Concat 'Concat_0': cannot join float32 [2, 3] and float32 [2, 4] on axis 0");
  EXPECT_EQ(refusal(node_of("ReduceSum", 2), 17, {random_f32({2, 3}), ints({2})}),
            "retarget: ReduceSum 'ReduceSum_0': axis 2 is out of range for rank 2");
  EXPECT_EQ(refusal(node_of("Range", 3), 17, {ints({0}), ints({5}), ints({0})}),
            "retarget: Range 'Range_0': delta is 0");
  EXPECT_EQ(refusal(node_of("Unsqueeze", 1), 11, {random_f32({2})}),
            "retarget: Unsqueeze 'Unsqueeze_0': attribute 'axes' is missing");
  // A TENSOR attribute that holds no tensor.
  onnx::AttributeProto no_tensor;
  no_tensor.set_name("value");
  no_tensor.set_type(onnx::AttributeProto::TENSOR);
  EXPECT_EQ(refusal(node_of("ConstantOfShape", 1, {no_tensor}), 17, {ints({2})}),
            "retarget: ConstantOfShape 'ConstantOfShape_0': attribute 'value' holds no tensor");
  auto short_data = random_f32({2});
  short_data.proto().mutable_raw_data()->resize(4);
  EXPECT_EQ(refusal(node_of("Identity", 1), 17, {short_data}),
            "retarget: Identity 'Identity_0': an input of float32 [2] holds 1 values, not 2");
}

TEST(evaluate_api, AbsentOptionalInputsAreNull) {
  const auto x = random_f32({2, 3});
  const onnx::TensorProto* inputs[] = {&x.proto(), nullptr};
  const auto folded = cv::evaluate(node_of("ReduceSum", 2), 13, inputs);
  ASSERT_TRUE(folded);
  EXPECT_EQ(folded->front().dims(), (rx::dims_t{1, 1}));
  const onnx::TensorProto* missing[] = {nullptr};
  EXPECT_THROW(cv::evaluate(node_of("Neg", 1), 13, missing), retarget::error);
}

}  // namespace
