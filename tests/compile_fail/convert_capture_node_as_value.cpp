// A captured node read as a value.
// expect: the capture is a node. read it with
#include "convert_common.hpp"

struct relu_of_add : rc::rule<"relu_of_add"> {
  static constexpr auto pattern = rc::op<"Relu">(rc::op<"Add">("a"_v, "b"_v).as<"sum">());
  static rx::value replace(rx::graph& g, const auto& m) {
#ifdef RETARGET_COMPILE_FAIL
    return g.op("Relu", m["sum"_v]);
#else
    return g.op("Relu", m["a"_v]);
#endif
  }
};

rx::value use(rx::graph& g,
              const rc::match<std::remove_cvref_t<decltype(relu_of_add::pattern)>>& m) {
  return relu_of_add::replace(g, m);
}

int main() {}
