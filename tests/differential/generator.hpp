// Random valid ONNX models for differential testing, built through the library's run-time
// emitter: float32 graph inputs of static shapes, then nodes drawn from a table of known op
// families, each reading values made before it (chains and branches), graph inputs or
// initializer constants. Every node is checked and shape-inferred as it is emitted; a node the
// emitter refuses is drawn again, and a node whose output is not a usable static shape is left
// dead and dropped when the model is rebuilt from its live nodes.
//
// Ops with a restricted domain get a guard in front of them (Abs, then Add of a positive
// constant; Tanh for [-1, 1]), as NNSmith does, so that the reference stays finite; a model
// whose reference still is not is the caller's to discard.
//
//   retarget_test::differential::generator gen(seed);
//   auto made = gen.build();  // made.model passed ONNX's checker
//
// The same seed always gives the same model (std::mt19937_64, no other source of randomness).
#ifndef RETARGET_TESTS_DIFFERENTIAL_GENERATOR_HPP
#define RETARGET_TESTS_DIFFERENTIAL_GENERATOR_HPP

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <retarget/ir.hpp>
#include <retarget/ir/proto.hpp>  // the rebuild reads the nodes of a model it reduces
#include <retarget/ir/schema.hpp>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace retarget_test::differential {

namespace ir = retarget::ir;
using namespace retarget::literals;
using shape_t = std::vector<std::int64_t>;

// Every op the generator draws: the coverage report lists each, and names those never drawn.
inline constexpr std::string_view known_ops[] = {
    // unary, plain and with attributes
    "Abs", "Neg", "Exp", "Floor", "Ceil", "Round", "Relu", "Sigmoid", "Tanh", "Softplus",
    "Softsign", "Sin", "Cos", "Atan", "Erf", "Identity", "Sign", "HardSwish", "Log", "Sqrt",
    "Reciprocal", "Asin", "Acos", "LeakyRelu", "Elu", "Selu", "Celu", "HardSigmoid",
    "ThresholdedRelu", "Clip", "Softmax", "LogSoftmax", "Hardmax",
    // binary and variadic, broadcasting
    "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "PRelu",
    // convolution, pooling, normalization
    "Conv", "ConvTranspose", "MaxPool", "AveragePool", "GlobalAveragePool", "GlobalMaxPool",
    "BatchNormalization", "InstanceNormalization", "LRN", "LayerNormalization",
    // layout
    "Concat", "Transpose", "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Split", "Tile", "Expand",
    "DepthToSpace", "SpaceToDepth", "Slice", "Pad", "Resize", "Gather",
    // reductions and products
    "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2",
    "ReduceSumSquare", "ReduceLogSumExp", "MatMul", "Gemm", "CumSum"};

// Each name is an op of ONNX's schema table (a typo would never be drawn, and never named).
static_assert(std::ranges::all_of(known_ops,
                                  [](std::string_view op) { return ir::is_onnx_op(op); }));

// The opsets drawn: the one most exporters write and the newest the library emits.
inline constexpr int opsets[] = {13, 17};

// Values larger than this are not made, to keep each model quick on every engine.
inline constexpr std::int64_t max_elements = 1 << 14;

inline std::int64_t elements(const shape_t& s) {
  return std::accumulate(s.begin(), s.end(), std::int64_t{1}, std::multiplies<>());
}

struct generated {
  ir::model model;
  int opset = 0;
  std::vector<std::string> ops;  // the ops drawn, in order (guards left out)
};

// The model `source` keeps of itself for `outputs`: only the nodes those need, where a node
// whose output is a key of `bypass` is skipped and its readers read the mapped value instead.
// Re-emitted node by node, so the result is checked and inferred as the generator's own
// models are; retarget::error when a node no longer fits (a bypass changed its input's shape).
inline ir::model rebuild(const ir::model& source, std::vector<std::string> outputs,
                         const std::map<std::string, std::string>& bypass = {}) {
  const auto& graph = source.graph();
  const auto resolve = [&](std::string name) {
    for (auto it = bypass.find(name); it != bypass.end(); it = bypass.find(name)) name = it->second;
    return name;
  };
  std::map<std::string, int> producer;
  for (int i = 0; i < graph.node_size(); ++i)
    for (const auto& o : graph.node(i).output()) producer[o] = i;
  // The live nodes: walked up from the outputs, through the bypasses.
  std::vector<bool> live(graph.node_size(), false);
  std::set<std::string> read;
  std::vector<std::string> todo;
  for (auto& o : outputs) {
    todo.push_back(o = resolve(o));
    // An output that no node computes is a model of another kind (an engine with no layer).
    if (!producer.count(o))
      throw retarget::error("retarget: rebuild: output '" + o + "' would be no node's output");
  }
  while (!todo.empty()) {
    const auto name = resolve(todo.back());
    todo.pop_back();
    if (!read.insert(name).second) continue;
    const auto it = producer.find(name);
    if (it == producer.end() || live[it->second]) continue;
    live[it->second] = true;
    for (const auto& in : graph.node(it->second).input())
      if (!in.empty()) todo.push_back(in);
  }
  ir::graph g(*source.opset());
  for (const auto& in : graph.input())
    if (read.count(in.name())) g.input(in.name(), in.type());
  for (const auto& init : graph.initializer())
    if (read.count(init.name())) g.initializer(init.name(), ir::tensor(init));
  for (int i = 0; i < graph.node_size(); ++i) {
    if (!live[i]) continue;
    const auto& node = graph.node(i);
    ir::node_spec spec;
    spec.op_type = node.op_type();
    spec.attributes = ir::node_view(node).attribute_protos();
    spec.outputs.assign(node.output().begin(), node.output().end());
    for (const auto& in : node.input())
      spec.inputs.push_back(in.empty() ? ir::value{} : g.find(resolve(in)));
    g.emit(std::move(spec));
  }
  std::set<std::string> given;
  for (const auto& o : outputs)
    if (given.insert(o).second) g.output(g.find(o));
  auto m = ir::make_model(std::move(g));
  m.check();
  return m;
}

class generator {
 public:
  explicit generator(std::uint64_t seed) : rng_(seed) {}

  // A model of 1 to max_nodes drawn nodes (guards come on top).
  generated build(int max_nodes = 10) {
    const int opset = opsets[uniform(0, int(std::size(opsets)) - 1)];
    g_ = std::make_unique<ir::graph>(opset);
    pool_.clear();
    read_.clear();
    drawn_.clear();
    const int inputs = uniform(1, 2);
    for (int i = 0; i < inputs; ++i) {
      const auto s = input_shape();
      std::vector<ir::dim> dims(s.begin(), s.end());
      pool_.push_back(g_->input("x" + std::to_string(i), ir::dtype::f32, dims));
    }
    const std::size_t first_computed = pool_.size();
    const int nodes = uniform(1, max_nodes);
    for (int tries = 0; static_cast<int>(drawn_.size()) < nodes && tries < 40 * nodes; ++tries)
      draw();
    // The outputs: the newest value and up to two others no node reads (the rest of the
    // graph's leaves are cut when it is rebuilt), or an input passed through Identity when
    // nothing was drawn.
    if (pool_.size() == first_computed) unary_plain("Identity");
    std::vector<std::string> outputs{pool_.back().name()};
    for (std::size_t i = pool_.size() - 1; i-- > first_computed && outputs.size() < 3;)
      if (!read_.count(pool_[i].name()) && chance(0.5)) outputs.push_back(pool_[i].name());
    for (const auto& o : outputs) g_->output(g_->find(o));
    auto raw = ir::make_model(std::move(*g_));
    g_.reset();
    return {rebuild(raw, outputs), opset, drawn_};
  }

  // Input values in a safe range, the same for the same seed and input name.
  static ir::tensor input_values(std::uint64_t seed, const std::string& name, const shape_t& s) {
    std::mt19937_64 rng(seed ^ std::hash<std::string>{}(name));
    std::uniform_real_distribution<float> d(-2.0f, 2.0f);
    std::vector<float> v(static_cast<std::size_t>(elements(s)));
    for (auto& x : v) x = d(rng);
    return ir::tensor::of(v, s);
  }

 private:
  // ---- Randomness ----
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  float real(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }
  template <class T>
  const T& one_of(std::span<const T> items) {
    return items[static_cast<std::size_t>(uniform(0, int(items.size()) - 1))];
  }
  template <class T, std::size_t N>
  const T& one_of(const T (&items)[N]) {
    return one_of(std::span<const T>(items, N));
  }

  shape_t input_shape() {
    const int rank = uniform(1, 4);
    shape_t s;
    for (int d = 0; d < rank; ++d) s.push_back(uniform(1, rank >= 3 && d >= rank - 2 ? 8 : 5));
    return s;
  }

  // A value made earlier, of rank 1 or more (a scalar is an output, never read: the families
  // draw axes): most often the newest (a chain), else any (a branch). The inputs always fit.
  ir::value pick() { return *pick_rank(1); }
  // One of rank at least `rank`, or nothing.
  std::optional<ir::value> pick_rank(std::size_t low, std::size_t high = 8) {
    std::vector<ir::value> fit;
    for (const auto& v : pool_)
      if (v.rank() >= low && v.rank() <= high) fit.push_back(v);
    if (fit.empty()) return std::nullopt;
    if (chance(0.6) && fit.back() == pool_.back()) return fit.back();
    return one_of(std::span<const ir::value>(fit));
  }
  static shape_t shape(const ir::value& v) { return *v.static_shape(); }

  // ---- Constants ----
  ir::value constant(const shape_t& s, float lo, float hi) {
    std::vector<float> v(static_cast<std::size_t>(elements(s)));
    for (auto& x : v) x = real(lo, hi);
    return g_->initializer("c" + std::to_string(constants_++), ir::tensor::of(v, s));
  }
  ir::value ints(const std::vector<std::int64_t>& v) {
    return g_->initializer("c" + std::to_string(constants_++),
                           ir::tensor::of(v, {static_cast<std::int64_t>(v.size())}));
  }
  // A shape that broadcasts to s: a suffix of it, some dims made 1.
  shape_t broadcastable_to(const shape_t& s) {
    shape_t out(s.begin() + uniform(0, int(s.size())), s.end());
    for (auto& d : out)
      if (chance(0.4)) d = 1;
    return out;
  }

  // ---- Emission ----
  // Emits the node; its outputs join the pool when each has a static shape of at least one
  // and at most max_elements elements. Returns the first, or nothing when the emitter refused
  // the node or an output is not usable (the node is then dead, and left out of the model).
  std::optional<ir::value> emit(std::string op, std::vector<ir::value> inputs,
                                ir::attribute_list attributes = {}, std::size_t outputs = 1) {
    ir::node_spec spec;
    spec.op_type = std::move(op);
    spec.inputs = std::move(inputs);
    spec.attributes = std::move(attributes);
    spec.output_count = outputs;
    std::vector<ir::value> made;
    try {
      made = g_->emit(spec);
    } catch (const retarget::error&) {
      return std::nullopt;
    }
    for (const auto& v : made) {
      const auto s = v.static_shape();
      if (v.dtype() != ir::dtype::f32 || !s || s->size() > 5 || elements(*s) < 1 ||
          elements(*s) > max_elements ||
          std::ranges::any_of(*s, [](std::int64_t d) { return d < 1; }))
        return std::nullopt;
    }
    for (const auto& in : spec.inputs)
      if (in.valid()) read_.insert(in.name());
    pool_.insert(pool_.end(), made.begin(), made.end());
    return made.front();
  }
  // An op that was drawn (not a guard): counted for coverage.
  std::optional<ir::value> drawn(std::string op, std::vector<ir::value> inputs,
                                 ir::attribute_list attributes = {}, std::size_t outputs = 1) {
    auto v = emit(op, std::move(inputs), std::move(attributes), outputs);
    if (v) drawn_.push_back(std::move(op));
    return v;
  }
  bool available(std::string_view op) const {
    return ir::onnx_op_versions(op).first <= g_->opset();
  }

  // Guards: x moved into (0.1.., inf) or (-1, 1), whatever it was.
  ir::value positive(const ir::value& x) {
    const auto a = emit("Abs", {x});
    const auto c = constant({}, 0.1f, 1.0f);
    if (!a) return x;
    return emit("Add", {*a, c}).value_or(x);
  }
  // Within (-0.9, 0.9): Asin and Acos amplify float32 rounding near -1 and 1, where a Tanh of
  // a large value lands (seed 1795937450: an Acos 1.6% off). No random draw, so every other
  // seed's model stays as it was.
  ir::value unit(const ir::value& x) {
    const auto t = emit("Tanh", {x});
    if (!t) return x;
    const auto c = g_->initializer("c" + std::to_string(constants_++),
                                   ir::tensor::of(std::vector<float>{0.9f}, shape_t{}));
    return emit("Mul", {*t, c}).value_or(*t);
  }

  // x plus a ramp along the trailing axes `rest`, so that no group of them holds equal values.
  // A LayerNormalization of equal values divides their float32 rounding by sqrt(epsilon): a
  // mean of three equal values need not be the value, and ONNX's own decomposition of the op
  // gave 3.8e-05 where ONNX Runtime's kernel gave 0 (seed 90489, after a Gather of repeated
  // indices). Both are right to float32 there, so the generator does not ask. No random draw.
  ir::value spread(const ir::value& x, const shape_t& rest) {
    const auto n = ir::element_count(rest);
    std::vector<float> ramp(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < ramp.size(); ++k)
      ramp[k] = static_cast<float>(k) / static_cast<float>(n) - 0.5f;
    const auto c = g_->initializer("c" + std::to_string(constants_++), ir::tensor::of(ramp, rest));
    return emit("Add", {x, c}).value_or(x);
  }

  // ---- Op families, one function each ----
  void draw() {
    using family = void (generator::*)();
    static constexpr family families[] = {
        &generator::unary,   &generator::unary,       &generator::activation,
        &generator::binary,  &generator::binary,      &generator::variadic,
        &generator::softmax, &generator::conv,        &generator::conv_transpose,
        &generator::pool,    &generator::global_pool, &generator::normalization,
        &generator::concat,  &generator::transpose,   &generator::reshape,
        &generator::flatten, &generator::squeeze,     &generator::unsqueeze,
        &generator::split,   &generator::tile_expand, &generator::depth_space,
        &generator::slice,   &generator::pad,         &generator::resize,
        &generator::gather,  &generator::reduce,      &generator::matmul,
        &generator::gemm,    &generator::cumsum};
    (this->*one_of(families))();
  }

  void unary_plain(std::string op) { drawn(std::move(op), {pick()}); }

  void unary() {
    static constexpr std::string_view plain[] = {
        "Abs",  "Neg",     "Exp",  "Floor",    "Ceil",     "Round",
        "Relu", "Sigmoid", "Tanh", "Softplus", "Softsign", "Sin",
        "Cos",  "Atan",    "Erf",  "Identity", "Sign",     "HardSwish"};
    static constexpr std::string_view guarded[] = {"Log", "Sqrt", "Reciprocal", "Asin", "Acos"};
    if (chance(0.7)) {
      const auto op = one_of(plain);
      if (available(op)) unary_plain(std::string(op));
      return;
    }
    const auto op = one_of(guarded);
    const auto x = pick();
    drawn(std::string(op), {op.starts_with("A") ? unit(x) : positive(x)});
  }

  void activation() {
    const auto x = pick();
    switch (uniform(0, 6)) {
      case 0:
        drawn("LeakyRelu", {x}, {ir::attribute_entry("alpha"_f = real(0.01f, 0.5f))});
        break;
      case 1:
        drawn("Elu", {x}, {ir::attribute_entry("alpha"_f = real(0.1f, 2.0f))});
        break;
      case 2:
        drawn("Selu", {x},
              {ir::attribute_entry("alpha"_f = real(0.5f, 2.0f)),
               ir::attribute_entry("gamma"_f = real(0.5f, 2.0f))});
        break;
      case 3:
        drawn("Celu", {x}, {ir::attribute_entry("alpha"_f = real(0.5f, 2.0f))});
        break;
      case 4: {
        ir::attribute_list a;
        if (chance(0.7)) a.push_back(ir::attribute_entry("alpha"_f = real(0.1f, 0.5f)));
        if (chance(0.7)) a.push_back(ir::attribute_entry("beta"_f = real(0.2f, 0.8f)));
        drawn("HardSigmoid", {x}, std::move(a));
        break;
      }
      case 5:
        drawn("ThresholdedRelu", {x}, {ir::attribute_entry("alpha"_f = real(0.0f, 1.0f))});
        break;
      default: {
        // Clip's bounds are optional inputs since opset 11: none, either or both.
        const float low = real(-1.5f, 0.0f);
        std::vector<ir::value> in{x};
        const int which = uniform(0, 3);
        in.push_back(which & 1 ? constant({}, low, low) : ir::value{});
        if (which & 2) in.push_back(constant({}, low + 0.1f, 1.5f));
        drawn("Clip", in);
      }
    }
  }

  // A second operand for x: another value that broadcasts with it, or a constant that does.
  ir::value partner(const ir::value& x, float lo, float hi) {
    const auto s = shape(x);
    if (chance(0.4)) {
      std::vector<ir::value> fit;
      for (const auto& v : pool_)
        if (!(v == x) && broadcasts(shape(v), s)) fit.push_back(v);
      if (!fit.empty()) return one_of(std::span<const ir::value>(fit));
    }
    return constant(broadcastable_to(s), lo, hi);
  }
  static bool broadcasts(const shape_t& a, const shape_t& b) {
    shape_t out(std::max(a.size(), b.size()), 1);
    for (std::size_t i = 0; i < out.size(); ++i) {
      const auto da = i < a.size() ? a[a.size() - 1 - i] : 1;
      const auto db = i < b.size() ? b[b.size() - 1 - i] : 1;
      if (da != db && da != 1 && db != 1) return false;
      out[out.size() - 1 - i] = std::max(da, db);
    }
    return elements(out) <= max_elements;
  }

  void binary() {
    static constexpr std::string_view ops[] = {"Add", "Sub", "Mul", "Div", "Pow", "PRelu"};
    const auto op = one_of(ops);
    auto a = pick();
    if (op == "Pow") {
      // A positive base, and an exponent in [-2, 2].
      auto e = chance(0.5) ? constant(broadcastable_to(shape(a)), -2.0f, 2.0f) : unit(pick());
      drawn("Pow", {positive(a), e});
      return;
    }
    if (op == "PRelu") {
      // The slope broadcasts to x one way: a suffix of its shape, some dims 1.
      drawn("PRelu", {a, constant(broadcastable_to(shape(a)), -0.5f, 0.5f)});
      return;
    }
    auto b = partner(a, -2.0f, 2.0f);
    // Div's divisor is guarded; the other ops take their operands either way round.
    if (op == "Div")
      b = positive(b);
    else if (chance(0.3))
      std::swap(a, b);
    drawn(std::string(op), {a, b});
  }

  void variadic() {
    static constexpr std::string_view ops[] = {"Max", "Min", "Sum", "Mean"};
    const auto x = pick();
    std::vector<ir::value> in{x};
    for (int n = uniform(0, 2); n > 0; --n) in.push_back(partner(x, -2.0f, 2.0f));
    drawn(std::string(one_of(ops)), in);
  }

  void softmax() {
    static constexpr std::string_view ops[] = {"Softmax", "LogSoftmax", "Hardmax"};
    const auto x = pick();
    const int r = static_cast<int>(x.rank());
    ir::attribute_list a;
    if (chance(0.8)) a.push_back(ir::attribute_entry("axis"_i = uniform(-r, r - 1)));
    drawn(std::string(one_of(ops)), {x}, std::move(a));
  }

  // Kernel, strides, dilations and pads for `spatial` axes, and maybe an auto_pad instead.
  struct window {
    shape_t kernel, strides, dilations, pads;
    std::string auto_pad;
  };
  window draw_window(std::size_t spatial, bool dilate) {
    window w;
    for (std::size_t i = 0; i < spatial; ++i) {
      w.kernel.push_back(uniform(1, 3));
      w.strides.push_back(uniform(1, 2));
      w.dilations.push_back(dilate ? uniform(1, 2) : 1);
    }
    for (std::size_t i = 0; i < 2 * spatial; ++i)
      w.pads.push_back(uniform(0, int(w.kernel[i % spatial]) - 1));
    if (chance(0.25)) {
      static constexpr std::string_view modes[] = {"SAME_UPPER", "SAME_LOWER", "VALID"};
      w.auto_pad = one_of(modes);
    }
    return w;
  }
  // Writes the window's attributes, each but the kernel maybe left to its default; returns
  // the window as written (the defaults in place of those left out).
  window add_window(ir::attribute_list& a, const window& w, bool strides, bool dilations) {
    window written{w.kernel, shape_t(w.kernel.size(), 1), shape_t(w.kernel.size(), 1),
                   shape_t(w.pads.size(), 0), w.auto_pad};
    a.push_back(ir::attribute_entry("kernel_shape"_i = w.kernel));
    if (strides && chance(0.7)) {
      a.push_back(ir::attribute_entry("strides"_i = w.strides));
      written.strides = w.strides;
    }
    if (dilations && chance(0.7)) {
      a.push_back(ir::attribute_entry("dilations"_i = w.dilations));
      written.dilations = w.dilations;
    }
    if (!w.auto_pad.empty()) {
      a.push_back(ir::attribute_entry("auto_pad"_s = w.auto_pad));
    } else if (chance(0.7)) {
      a.push_back(ir::attribute_entry("pads"_i = w.pads));
      written.pads = w.pads;
    }
    return written;
  }

  void conv() {
    const auto x = pick_rank(3, 4);
    if (!x) return;
    const auto s = shape(*x);
    const auto c = s[1];
    std::vector<std::int64_t> groups;
    for (std::int64_t k = 1; k <= c; ++k)
      if (c % k == 0) groups.push_back(k);
    const auto group = chance(0.6) ? 1 : one_of(std::span<const std::int64_t>(groups));
    const auto m = group * uniform(1, 3);
    const auto w = draw_window(s.size() - 2, true);
    shape_t ws{m, c / group};
    ws.insert(ws.end(), w.kernel.begin(), w.kernel.end());
    std::vector<ir::value> in{*x, constant(ws, -1.0f, 1.0f)};
    if (chance(0.6)) in.push_back(constant({m}, -1.0f, 1.0f));
    ir::attribute_list a;
    add_window(a, w, true, true);
    if (group > 1 || chance(0.2)) a.push_back(ir::attribute_entry("group"_i = group));
    drawn("Conv", in, std::move(a));
  }

  void conv_transpose() {
    const auto x = pick_rank(3, 4);
    if (!x) return;
    const auto s = shape(*x);
    const auto c = s[1];
    const auto group = c % 2 == 0 && chance(0.3) ? 2 : 1;
    const auto m = group * uniform(1, 2);
    auto w = draw_window(s.size() - 2, true);
    shape_t ws{c, m / group};
    ws.insert(ws.end(), w.kernel.begin(), w.kernel.end());
    std::vector<ir::value> in{*x, constant(ws, -1.0f, 1.0f)};
    if (chance(0.5)) in.push_back(constant({m}, -1.0f, 1.0f));
    ir::attribute_list a;
    if (w.auto_pad == "VALID") w.auto_pad.clear();
    // output_padding must be below the strides (or dilations), so those are then written.
    const bool output_padding = chance(0.3);
    add_window(a, w, !output_padding, !output_padding);
    if (group > 1) a.push_back(ir::attribute_entry("group"_i = group));
    if (output_padding) {
      shape_t extra;
      for (std::size_t i = 0; i < w.strides.size(); ++i)
        extra.push_back(uniform(0, int(std::min(w.strides[i], w.dilations[i])) - 1));
      // Not with auto_pad SAME: ONNX's shape inference adds it to the output's length, ONNX
      // Runtime does not (seed 1795971659: 3 where ONNX Runtime gives 2), so neither is a
      // reference. Drawn all the same, to keep every other seed's model.
      if (!w.auto_pad.starts_with("SAME"))
        a.push_back(ir::attribute_entry("output_padding"_i = extra));
      a.push_back(ir::attribute_entry("strides"_i = w.strides));
      a.push_back(ir::attribute_entry("dilations"_i = w.dilations));
    }
    drawn("ConvTranspose", in, std::move(a));
  }

  static bool last_window_past_input(const shape_t& x, const window& w) {
    const auto spatial = w.kernel.size();
    for (std::size_t i = 0; i < spatial; ++i) {
      const auto in = x[2 + i], begin = w.pads[i], end = w.pads[spatial + i];
      const auto reach = (w.kernel[i] - 1) * w.dilations[i] + 1, stride = w.strides[i];
      const auto span = in + begin + end - reach;
      if (span < 0) continue;
      const auto rounded_up = (span + stride - 1) / stride + 1;
      if ((rounded_up - 1) * stride >= in + begin) return true;
    }
    return false;
  }

  // Whether a window reaches past the padded input on some axis: ONNX's output length is then
  // 0 (floor((in + pads - reach) / stride) + 1), its shape inference gives 1 (the division
  // truncated), and ONNX Runtime pools over part of the window, counting the padding as if the
  // whole were there (seed 1795970989: an AveragePool of 2 x 3 over a 1 x 1 input padded by 1
  // and 2 gave half the mean of its explicitly padded form). No model means such a window.
  static bool window_past_padded_input(const shape_t& x, const window& w) {
    const auto spatial = w.kernel.size();
    for (std::size_t i = 0; i < spatial; ++i)
      if (x[2 + i] + w.pads[i] + w.pads[spatial + i] < (w.kernel[i] - 1) * w.dilations[i] + 1)
        return true;
    return false;
  }

  void pool() {
    const auto x = pick_rank(3, 4);
    if (!x) return;
    const bool max = chance(0.5);
    auto w = draw_window(x->rank() - 2, max);
    // Pooling with auto_pad SAME and dilations or ceil_mode: ONNX Runtime's output length
    // differs from the one ONNX's shape inference gives (seed 11226: 4 where 6 is due), so
    // neither is a reference. Drawn all the same, to keep every other seed's model.
    if (w.auto_pad.starts_with("SAME")) std::fill(w.dilations.begin(), w.dilations.end(), 1);
    ir::attribute_list a;
    const auto written = add_window(a, w, true, max);
    // Rounded up, a last window that would start past the input and its leading pad: ONNX
    // Runtime leaves it out (seed 50484: 4 where ONNX's shape inference gives 5).
    if (chance(0.3) && !w.auto_pad.starts_with("SAME") &&
        !last_window_past_input(shape(*x), written))
      a.push_back(ir::attribute_entry("ceil_mode"_i = 1));
    if (!max && chance(0.5))
      a.push_back(ir::attribute_entry("count_include_pad"_i = uniform(0, 1)));
    if (w.auto_pad.empty() && window_past_padded_input(shape(*x), written)) return;
    drawn(max ? "MaxPool" : "AveragePool", {*x}, std::move(a));
  }

  void global_pool() {
    if (const auto x = pick_rank(3, 4))
      drawn(chance(0.5) ? "GlobalAveragePool" : "GlobalMaxPool", {*x});
  }

  void normalization() {
    const auto x = pick_rank(2, 4);
    if (!x) return;
    const auto s = shape(*x);
    const shape_t c{s[1]};
    switch (uniform(0, 3)) {
      case 0:
        drawn("BatchNormalization",
              {*x, constant(c, 0.5f, 1.5f), constant(c, -1.0f, 1.0f), constant(c, -1.0f, 1.0f),
               constant(c, 0.5f, 2.0f)},
              {ir::attribute_entry("epsilon"_f = chance(0.5) ? 1e-5f : 1e-3f)});
        break;
      case 1:
        if (s.size() >= 3)
          drawn("InstanceNormalization", {*x, constant(c, 0.5f, 1.5f), constant(c, -1.0f, 1.0f)});
        break;
      case 2:
        if (s.size() == 4)
          drawn("LRN", {*x},
                {ir::attribute_entry("size"_i = 2 * uniform(0, 2) + 1),
                 ir::attribute_entry("alpha"_f = real(1e-4f, 1e-2f)),
                 ir::attribute_entry("beta"_f = real(0.5f, 0.9f)),
                 ir::attribute_entry("bias"_f = real(1.0f, 2.0f))});
        break;
      default: {
        if (!available("LayerNormalization")) return;
        const int r = int(s.size());
        const int axis = uniform(-r, r - 1);
        const shape_t rest(s.begin() + (axis < 0 ? axis + r : axis), s.end());
        std::vector<ir::value> in{spread(*x, rest), constant(rest, 0.5f, 1.5f)};
        if (chance(0.5)) in.push_back(constant(rest, -1.0f, 1.0f));
        drawn("LayerNormalization", in, {ir::attribute_entry("axis"_i = axis)});
      }
    }
  }

  void concat() {
    const auto x = pick();
    const auto s = shape(x);
    const int r = static_cast<int>(s.size());
    const int axis = uniform(0, r - 1);
    std::vector<ir::value> in{x};
    for (int n = uniform(1, 2); n > 0; --n) {
      std::vector<ir::value> fit;
      for (const auto& v : pool_) {
        auto t = shape(v);
        if (t.size() != s.size()) continue;
        t[axis] = s[axis];
        if (t == s) fit.push_back(v);
      }
      if (chance(0.5) && !fit.empty()) {
        in.push_back(one_of(std::span<const ir::value>(fit)));
      } else {
        auto t = s;
        t[axis] = uniform(1, 3);
        in.push_back(constant(t, -2.0f, 2.0f));
      }
    }
    if (chance(0.5)) std::shuffle(in.begin(), in.end(), rng_);
    drawn("Concat", in, {ir::attribute_entry("axis"_i = chance(0.4) ? axis - r : axis)});
  }

  void transpose() {
    const auto x = pick();
    shape_t perm(x.rank());
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng_);
    ir::attribute_list a;
    if (chance(0.85)) a.push_back(ir::attribute_entry("perm"_i = perm));
    drawn("Transpose", {x}, std::move(a));
  }

  void reshape() {
    const auto x = pick();
    const auto s = shape(x);
    // The elements split into factors, then one dim written -1 and others 0 (kept).
    auto left = elements(s);
    shape_t to;
    for (int r = uniform(1, 4); r > 1; --r) {
      std::vector<std::int64_t> divisors;
      for (std::int64_t d = 1; d <= left; ++d)
        if (left % d == 0) divisors.push_back(d);
      to.push_back(one_of(std::span<const std::int64_t>(divisors)));
      left /= to.back();
    }
    to.push_back(left);
    std::shuffle(to.begin(), to.end(), rng_);
    for (std::size_t i = 0; i < to.size() && i < s.size(); ++i)
      if (to[i] == s[i] && chance(0.5)) to[i] = 0;
    if (chance(0.6)) to[uniform(0, int(to.size()) - 1)] = -1;
    drawn("Reshape", {x, ints(to)});
  }

  void flatten() {
    const auto x = pick();
    const int r = static_cast<int>(x.rank());
    drawn("Flatten", {x}, {ir::attribute_entry("axis"_i = uniform(-r, r))});
  }

  void squeeze() {
    const auto x = pick();
    const auto s = shape(x);
    shape_t ones;
    for (std::size_t i = 0; i < s.size(); ++i)
      if (s[i] == 1 && chance(0.7))
        ones.push_back(std::int64_t(i) - (chance(0.3) ? std::int64_t(s.size()) : 0));
    if (ones.empty() && chance(0.5))
      drawn("Squeeze", {x});
    else if (!ones.empty())
      drawn("Squeeze", {x, ints(ones)});
  }

  void unsqueeze() {
    const auto x = pick();
    const int r = static_cast<int>(x.rank()) + 1;
    const int axis = uniform(0, r - 1);
    drawn("Unsqueeze", {x, ints({chance(0.3) ? axis - r : axis})});
  }

  void split() {
    const auto x = pick();
    const auto s = shape(x);
    const int axis = uniform(0, int(s.size()) - 1);
    if (s[axis] < 2) return;
    const int parts = uniform(2, std::min<int>(3, int(s[axis])));
    std::vector<ir::value> in{x};
    if (s[axis] % parts != 0 || chance(0.5)) {
      shape_t sizes(parts, 1);
      sizes.back() = s[axis] - (parts - 1);
      in.push_back(ints(sizes));
    }
    drawn("Split", in, {ir::attribute_entry("axis"_i = axis)}, parts);
  }

  void tile_expand() {
    const auto x = pick();
    const auto s = shape(x);
    if (chance(0.5)) {
      shape_t repeats;
      for (std::size_t i = 0; i < s.size(); ++i) repeats.push_back(uniform(1, 2));
      drawn("Tile", {x, ints(repeats)});
      return;
    }
    // Expand: dims of 1 grow, and a leading dim may come in front.
    shape_t to = s;
    for (auto& d : to)
      if (d == 1 && chance(0.7)) d = uniform(2, 3);
    if (chance(0.3) && to.size() < 4) to.insert(to.begin(), uniform(1, 2));
    drawn("Expand", {x, ints(to)});
  }

  void depth_space() {
    const auto x = pick_rank(4, 4);
    if (!x) return;
    const auto s = shape(*x);
    const int b = uniform(2, 3);
    if (chance(0.5)) {
      if (s[1] % (b * b) != 0) return;
      ir::attribute_list a{ir::attribute_entry("blocksize"_i = b)};
      if (chance(0.5))
        a.push_back(ir::attribute_entry("mode"_s = std::string(chance(0.5) ? "CRD" : "DCR")));
      drawn("DepthToSpace", {*x}, std::move(a));
    } else if (s[2] % b == 0 && s[3] % b == 0) {
      drawn("SpaceToDepth", {*x}, {ir::attribute_entry("blocksize"_i = b)});
    }
  }

  void slice() {
    const auto x = pick();
    const auto s = shape(x);
    shape_t starts, ends, axes, steps;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (!chance(0.6)) continue;
      const auto d = s[i];
      const std::int64_t step = chance(0.7) ? 1 : (chance(0.5) ? 2 : -1);
      std::int64_t start = uniform(0, int(d) - 1), end = uniform(int(start) + 1, int(d));
      if (step < 0) std::swap(start, end), start -= 1, end -= 1;
      if (chance(0.2)) start -= d;  // negative, counted from the end
      if (step > 0 && end == d && chance(0.3)) end = std::numeric_limits<std::int64_t>::max();
      if (step < 0 && end < 0)
        end = chance(0.5) ? -d - 1 : std::numeric_limits<std::int64_t>::min();
      starts.push_back(start);
      ends.push_back(end);
      axes.push_back(chance(0.3) ? std::int64_t(i) - std::int64_t(s.size()) : std::int64_t(i));
      steps.push_back(step);
    }
    if (starts.empty()) return;
    std::vector<ir::value> in{x, ints(starts), ints(ends)};
    const bool all_unit = std::ranges::all_of(steps, [](auto v) { return v == 1; });
    if (!all_unit || chance(0.7)) in.push_back(ints(axes));
    if (!all_unit || chance(0.3)) in.push_back(ints(steps));
    drawn("Slice", in);
  }

  void pad() {
    const auto x = pick();
    const auto s = shape(x);
    static constexpr std::string_view modes[] = {"constant", "reflect", "edge"};
    const auto mode = one_of(modes);
    shape_t pads;
    for (std::size_t i = 0; i < 2 * s.size(); ++i) {
      const auto d = s[i % s.size()];
      pads.push_back(mode == "reflect" ? uniform(0, int(std::min<std::int64_t>(d - 1, 2)))
                                       : uniform(0, 2));
    }
    std::vector<ir::value> in{x, ints(pads)};
    if (mode == "constant" && chance(0.5)) in.push_back(constant({}, -1.0f, 1.0f));
    ir::attribute_list a;
    if (mode != "constant" || chance(0.5))
      a.push_back(ir::attribute_entry("mode"_s = std::string(mode)));
    drawn("Pad", in, std::move(a));
  }

  void resize() {
    const auto x = pick_rank(3, 4);
    if (!x) return;
    const auto s = shape(*x);
    static constexpr std::string_view transforms[] = {"half_pixel", "asymmetric", "align_corners",
                                                      "pytorch_half_pixel"};
    static constexpr std::string_view nearest[] = {"round_prefer_floor", "round_prefer_ceil",
                                                   "floor", "ceil"};
    const bool linear = chance(0.5);
    ir::attribute_list a{
        ir::attribute_entry("mode"_s = std::string(linear ? "linear" : "nearest"))};
    if (chance(0.7))
      a.push_back(ir::attribute_entry("coordinate_transformation_mode"_s =
                                          std::string(one_of(transforms))));
    if (!linear && chance(0.5))
      a.push_back(ir::attribute_entry("nearest_mode"_s = std::string(one_of(nearest))));
    std::vector<ir::value> in{*x, ir::value{}};
    if (chance(0.5)) {
      static constexpr float factors[] = {0.5f, 2.0f, 1.5f, 3.0f, 1.0f};
      std::vector<float> scales(s.size(), 1.0f);
      for (std::size_t i = 2; i < s.size(); ++i) scales[i] = one_of(factors);
      in.push_back(g_->initializer("c" + std::to_string(constants_++),
                                   ir::tensor::of(scales, {std::int64_t(s.size())})));
    } else {
      shape_t sizes = s;
      for (std::size_t i = 2; i < s.size(); ++i) sizes[i] = uniform(1, 12);
      in.push_back(ir::value{});
      in.push_back(ints(sizes));
    }
    drawn("Resize", in, std::move(a));
  }

  void gather() {
    const auto x = pick();
    const auto s = shape(x);
    const int r = static_cast<int>(s.size());
    const int axis = uniform(-r, r - 1);
    const auto d = s[axis < 0 ? axis + r : axis];
    shape_t dims;
    for (int n = uniform(0, 2); n > 0; --n) dims.push_back(uniform(1, 3));
    std::vector<std::int64_t> idx(static_cast<std::size_t>(elements(dims)));
    for (auto& i : idx) i = uniform(-int(d), int(d) - 1);
    const auto indices =
        g_->initializer("c" + std::to_string(constants_++), ir::tensor::of(idx, dims));
    drawn("Gather", {x, indices}, {ir::attribute_entry("axis"_i = axis)});
  }

  void reduce() {
    static constexpr std::string_view ops[] = {"ReduceMean", "ReduceSum",       "ReduceMax",
                                               "ReduceMin",  "ReduceProd",      "ReduceL1",
                                               "ReduceL2",   "ReduceSumSquare", "ReduceLogSumExp"};
    const auto op = one_of(ops);
    const auto x = pick();
    const int r = static_cast<int>(x.rank());
    shape_t axes;
    for (int i = 0; i < r; ++i)
      if (chance(0.4)) axes.push_back(chance(0.3) ? i - r : i);
    ir::attribute_list a;
    if (chance(0.5)) a.push_back(ir::attribute_entry("keepdims"_i = uniform(0, 1)));
    std::vector<ir::value> in{x};
    // ReduceSum takes its axes as an input since opset 13, the others until opset 18.
    if (!axes.empty()) {
      if (op == "ReduceSum")
        in.push_back(ints(axes));
      else
        a.push_back(ir::attribute_entry("axes"_i = axes));
    }
    drawn(std::string(op), in, std::move(a));
  }

  void matmul() {
    const auto x = pick();
    const auto s = shape(x);
    const auto k = s.back();
    const std::int64_t n = uniform(1, 6);
    shape_t ws{k, n};
    if (s.size() >= 3 && chance(0.3)) ws.insert(ws.begin(), s[s.size() - 3]);
    auto w = constant(ws, -1.0f, 1.0f);
    if (chance(0.2) && s.size() >= 2) {
      // x on the right: [n, M] @ [..., M, K].
      drawn("MatMul", {constant({n, s[s.size() - 2]}, -1.0f, 1.0f), x});
      return;
    }
    drawn("MatMul", {x, w});
  }

  void gemm() {
    const auto x = pick_rank(2, 2);
    if (!x) return;
    const auto s = shape(*x);
    const bool trans_a = chance(0.3), trans_b = chance(0.5);
    const auto m = trans_a ? s[1] : s[0], k = trans_a ? s[0] : s[1];
    const std::int64_t n = uniform(1, 6);
    std::vector<ir::value> in{*x, constant(trans_b ? shape_t{n, k} : shape_t{k, n}, -1.0f, 1.0f)};
    if (chance(0.7)) {
      static const shape_t biases[] = {{}, {1}, {0}, {1, 0}, {0, 1}, {0, 0}};
      auto b = one_of(biases);
      for (std::size_t i = 0; i < b.size(); ++i)
        if (b[i] == 0) b[i] = b.size() == 1 || i == 1 ? n : m;
      in.push_back(constant(b, -1.0f, 1.0f));
    }
    ir::attribute_list a;
    if (trans_a) a.push_back(ir::attribute_entry("transA"_i = 1));
    if (trans_b) a.push_back(ir::attribute_entry("transB"_i = 1));
    if (chance(0.3)) a.push_back(ir::attribute_entry("alpha"_f = real(0.5f, 2.0f)));
    if (chance(0.3)) a.push_back(ir::attribute_entry("beta"_f = real(0.5f, 2.0f)));
    drawn("Gemm", in, std::move(a));
  }

  void cumsum() {
    const auto x = pick();
    const int r = static_cast<int>(x.rank());
    const auto axis = g_->initializer("c" + std::to_string(constants_++),
                                      ir::tensor::scalar<std::int64_t>(uniform(-r, r - 1)));
    ir::attribute_list a;
    if (chance(0.3)) a.push_back(ir::attribute_entry("exclusive"_i = 1));
    if (chance(0.3)) a.push_back(ir::attribute_entry("reverse"_i = 1));
    drawn("CumSum", {x, axis}, std::move(a));
  }

  std::mt19937_64 rng_;
  std::unique_ptr<ir::graph> g_;
  std::vector<ir::value> pool_;
  std::set<std::string> read_;  // values some node reads
  std::vector<std::string> drawn_;
  int constants_ = 0;
};

}  // namespace retarget_test::differential

#endif  // RETARGET_TESTS_DIFFERENTIAL_GENERATOR_HPP
