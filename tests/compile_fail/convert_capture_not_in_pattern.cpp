// A rule that reads a capture its pattern does not make.
// expect: capture name is not in the rule's pattern
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
