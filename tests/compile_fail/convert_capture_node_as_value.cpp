// A captured node read as a value.
// expect: the capture is a node. read it with
// page-section: Conversion rules
// page-title: A captured node read as a value
// page-order: 70
// page-snippet:
// | static constexpr auto pattern = rc::op<"Relu">(rc::op<"Add">("a"_v, "b"_v).as<"sum">());
// | return g.op("Relu", m["sum"_v]);   // "sum" names the Add node
// page-meaning:
// | `.as<"name">()` captures a node of the pattern, not a value: `"name"_v` reads captured values
// | only.
// page-fix:
// | Read the node with `m["sum"_n]` (its attributes: `m["sum"_n]["axis"_i]`); values are captured
// | and read with `"name"_v`.
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
