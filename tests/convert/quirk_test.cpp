// opencv_dnn's quirks, each on a tiny model made here that shows it: the table `retarget check
// --backend opencv_dnn` prints (refused_nodes) lists the node before conversion, and when the
// quirk has an exact fix, convert removes it, so a rule and the refusal it answers cannot
// disagree. A quirk the engine does not report (it computes wrong numbers instead) is found by
// its rule's own condition: the rule fires. The table of docs/convert.md is the list's.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/mp11/algorithm.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <retarget/backends/opencv_dnn.hpp>
#include <retarget/backends/opencv_dnn/convert.hpp>  // the package's types, read here
#include <retarget/convert/convert.hpp>
#include <retarget/convert/quirk.hpp>
#include <retarget/convert/refusals.hpp>
#include <retarget/ir/graph.hpp>
#include <retarget/ir/model.hpp>
#include <retarget/ir/tensor.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace rc = retarget::convert;
namespace rx = retarget::ir;
namespace bk = retarget::backends;
namespace cv = retarget::backends::opencv_dnn_convert;
using namespace retarget::literals;

using quirks = rc::quirks_for<bk::opencv_dnn>::list;

// The rule set is the quirks' fixes, in the order the rules were always tried.
static_assert(
    std::is_same_v<rc::rules_for<bk::opencv_dnn>::rule_list,
                   boost::mp11::mp_list<cv::expand_to_own_shape, cv::single_element_divisor,
                                        cv::last_axis_scale, cv::constant_concat_in_4d,
                                        cv::constant_add_without_leading_ones>>);

rx::value f32(rx::graph& g, std::vector<float> v, std::vector<std::int64_t> dims) {
  return g.constant(rx::tensor::of<float>(std::span<const float>(v), dims));
}
rx::value i64(rx::graph& g, std::vector<std::int64_t> v, std::vector<std::int64_t> dims) {
  return g.constant(rx::tensor::of<std::int64_t>(std::span<const std::int64_t>(v), dims));
}

rx::model finish(rx::graph& g, const rx::value& y) {
  g.output(y, "y");
  return rx::make_model(std::move(g));
}

// A model showing each quirk, by the quirk's name.
const std::map<std::string, std::function<rx::model()>, std::less<>>& models() {
  static const std::map<std::string, std::function<rx::model()>, std::less<>> out = {
      {"absent_last_input",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 4});
         return finish(g, g.op("Pad", x, i64(g, {0, 1, 0, 1}, {4}), rx::no_input));
       }},
      {"identity_of_weight",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2});
         auto w = g.initializer("w", rx::tensor::of<float>({1.0f, 2.0f}, {2}));
         return finish(g, g.op("Add", x, g.op("Identity", w)));
       }},
      {"no_layer_normalization",
       [] {
         rx::graph g(17);
         auto x = g.input("x", rx::dtype::f32, {1, 2, 4});
         return finish(g, g.op("LayerNormalization", x, f32(g, {1, 2, 3, 4}, {4}),
                               f32(g, {0, 1, 0, 1}, {4}), "axis"_i = -1));
       }},
      {"no_layer",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::i64, {2});
         return finish(g, g.op("Add", x, g.op("Mod", i64(g, {7, 8}, {2}), i64(g, {3, 5}, {2}))));
       }},
      {"clip_bounds_as_inputs",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 4});
         return finish(g, g.op("Clip", x, f32(g, {0}, {}), f32(g, {6}, {})));
       }},
      {"cubic_resize",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 1, 2, 2});
         return finish(
             g, g.op("Resize", x, f32(g, {}, {0}), f32(g, {1, 1, 2, 2}, {4}), "mode"_s = "cubic"));
       }},
      {"expand_one_way",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 3});
         return finish(g, g.op("Expand", x, i64(g, {1, 3}, {2})));
       }},
      {"expand_shape_computed",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 3});
         auto y = g.input("s", rx::dtype::f32, {2, 3});
         return finish(g, g.op("Expand", x, g.op("Shape", y)));
       }},
      {"computed_single_element",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 4});
         auto mean = g.op("ReduceMean", x, "axes"_i = {0, 1}, "keepdims"_i = 1);
         return finish(g, g.op("Div", g.op("Relu", x), mean));
       }},
      {"last_axis_vector",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 2, 2, 3});
         return finish(g, g.op("Mul", x, f32(g, {1, 2, 3}, {3})));
       }},
      {"concat_outside_4d",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 2, 4});
         return finish(g, g.op("Concat", f32(g, {1, 2, 3, 4}, {1, 1, 4}), x, "axis"_i = 1));
       }},
      {"import_time_arithmetic",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 3});
         auto width = g.op("Gather", g.op("Shape", x), i64(g, {1}, {}));
         auto sum = g.op("Add", width, i64(g, {0}, {1}));
         auto shape = g.op("Concat", i64(g, {-1}, {1}), sum, "axis"_i = 0);
         return finish(g, g.op("Reshape", x, shape));
       }},
      {"import_time_gather",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 3});
         auto shape = g.op("Gather", g.op("Shape", x), i64(g, {0, 1}, {2}));
         return finish(g, g.op("Reshape", x, shape));
       }},
      {"inner_axis_broadcast",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {1, 2, 3, 2, 2});
         return finish(g, g.op("Add", x, f32(g, {1, 2, 3, 4, 5, 6, 7, 8}, {2, 1, 2, 2})));
       }},
      {"leading_ones_constant",
       [] {
         rx::graph g(13);
         auto x = g.input("x", rx::dtype::f32, {2, 2, 2});
         return finish(g, g.op("Add", x, f32(g, {1, 2, 3, 4}, {1, 2, 2})));
       }},
  };
  return out;
}

template <class F>
struct fix_kind;
template <class R>
struct fix_kind<rc::by_rule<R>> {
  static std::string text() { return "rule `" + std::string(R::name) + "`"; }
};
template <retarget::fixed_string Op>
struct fix_kind<rc::by_node_rewrite<Op>> {
  static std::string text() { return "node rewrite `" + std::string(Op.view()) + "`"; }
};
template <>
struct fix_kind<rc::by_folding> {
  static std::string text() { return "folding"; }
};
template <>
struct fix_kind<rc::refused> {
  static std::string text() { return "nothing: refused"; }
};
template <class F>
requires requires { F::name; }
struct fix_kind<F> {
  static std::string text() {
    return "approximation `" + std::string(F::name) + "`, only when asked for";
  }
};

template <class Q>
constexpr bool listed = requires(const rc::quirk_site& s) {
  Q::found(s);
}
|| requires { Q::prepare; };

bool lists(const std::vector<rc::refusal>& refused, int index) {
  return std::any_of(refused.begin(), refused.end(),
                     [&](const rc::refusal& r) { return r.index == index; });
}

std::size_t fired(const rc::report& r, std::string_view rule) {
  for (const auto& x : r.rules)
    if (x.name == rule) return x.fired;
  return 0;
}

TEST(OpencvQuirks, EachIsListedBeforeConversionAndGoneAfterItsFix) {
  boost::mp11::mp_for_each<quirks>([](auto quirk) {
    using Q = decltype(quirk);
    using fix = typename Q::fix;
    SCOPED_TRACE(std::string(Q::name));
    const auto it = models().find(Q::name);
    ASSERT_NE(it, models().end()) << "no model shows the quirk";
    const auto model = it->second();
    const auto before = rc::refused_nodes<bk::opencv_dnn>(model);
    ASSERT_TRUE(before.has_value());
    const auto sites = rc::quirk_sites<Q>(model);
    if constexpr (listed<Q>) {
      ASSERT_FALSE(sites.empty()) << "the model does not show it";
      for (const auto i : sites) EXPECT_TRUE(lists(*before, i)) << "node " << i << " not listed";
    } else {
      EXPECT_TRUE(before->empty()) << "the engine does not report it: " << before->front().why;
    }

    rc::options o;
    if constexpr (requires { fix::name; }) {
      // Kept, and still listed, unless asked for by name.
      const auto kept = rc::convert<bk::opencv_dnn>(model, o);
      EXPECT_FALSE(rc::quirk_sites<Q>(kept.model).empty());
      o.approximations = {std::string(fix::name)};
    }
    const auto [converted, report] = rc::convert<bk::opencv_dnn>(model, o);
    if constexpr (std::is_same_v<fix, rc::refused>) return;
    if constexpr (requires { typename fix::rule; }) {
      EXPECT_GE(fired(report, fix::rule::name), 1u) << "its rule did not fire";
    }
    if constexpr (requires { fix::op; }) {
      ASSERT_FALSE(report.node_rewrites.empty());
      EXPECT_EQ(report.node_rewrites.front().op, fix::op);
    }
    if constexpr (requires { fix::name; }) {
      EXPECT_EQ(report.approximations.at(std::string(fix::name)), 1u);
    }
    if constexpr (listed<Q>) {
      EXPECT_TRUE(rc::quirk_sites<Q>(converted).empty()) << "still found after conversion";
      const auto after = rc::refused_nodes<bk::opencv_dnn>(converted);
      ASSERT_TRUE(after.has_value());
      EXPECT_TRUE(after->empty()) << after->front().node << ": " << after->front().why;
    }
  });
}

TEST(OpencvQuirks, NamesAreTheApproximationsOffered) {
  const auto offered = rc::approximations_of<bk::opencv_dnn>();
  ASSERT_EQ(offered.size(), 1u);
  EXPECT_EQ(offered.front(), cv::cubic_resize_as_linear::name);
}

// The table of docs/convert.md, as the list makes it.
std::string table() {
  std::ostringstream out;
  out << "| quirk | what OpenCV 4.6 does | listed by `check --backend` | what convert does |\n"
      << "| --- | --- | --- | --- |\n";
  boost::mp11::mp_for_each<quirks>([&](auto quirk) {
    using Q = decltype(quirk);
    out << "| `" << Q::name << "` | " << Q::summary << " | " << (listed<Q> ? "yes" : "no") << " | "
        << fix_kind<typename Q::fix>::text() << " |\n";
  });
  return out.str();
}

TEST(OpencvQuirks, DocsTableIsTheList) {
  std::ifstream in(fs::path(RETARGET_SOURCE_DIR) / "docs/convert.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  constexpr std::string_view begin =
      "<!-- quirks_for<opencv_dnn>: made by tests/convert/quirk_test.cpp -->\n";
  constexpr std::string_view end = "<!-- end of quirks_for<opencv_dnn> -->";
  const auto from = doc.find(begin), to = doc.find(end);
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  EXPECT_EQ(doc.substr(from + begin.size(), to - from - begin.size()), table())
      << "docs/convert.md's table of quirks differs from quirks_for<opencv_dnn>; it is:\n"
      << table();
}

}  // namespace
