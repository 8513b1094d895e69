// A rule that reads a capture its pattern does not make.
// expect: capture name is not in the rule's pattern
// page-section: Conversion rules
// page-title: A capture the pattern does not make
// page-order: 60
// page-snippet:
// | static constexpr auto pattern = rc::op<"Relu">(rc::op<"Relu">("x"_v));
// | return g.op("Relu", m["y"_v]);   // the pattern captures "x" only
// page-meaning:
// | A match reads its captures by the names the pattern gives them; `"y"` is not one of them.
// page-fix:
// | Read a name the pattern captures, or capture it in the pattern.
#include "convert_common.hpp"

struct drop_double_relu : rc::rule<"drop_double_relu"> {
  static constexpr auto pattern = rc::op<"Relu">(rc::op<"Relu">("x"_v));
  static rx::value replace(rx::graph& g, const auto& m) {
#ifdef RETARGET_COMPILE_FAIL
    return g.op("Relu", m["y"_v]);
#else
    return g.op("Relu", m["x"_v]);
#endif
  }
};

rx::value use(rx::graph& g,
              const rc::match<std::remove_cvref_t<decltype(drop_double_relu::pattern)>>& m) {
  return drop_double_relu::replace(g, m);
}

int main() {}
