// A node rewrite that reads an attribute its op's schema lacks.
// expect: attribute name is not in the op's schema
// page-section: Conversion rules
// page-title: A node rewrite that reads an attribute its op lacks
// page-order: 20
// page-snippet:
// | const rc::node_of<"LayerNormalization">& n
// | n["epsilom"_f].value_or(1e-5f);
// page-meaning:
// | A `node_of<"Op">` checks each attribute it is asked for against the op's schemas, as `g.op`
// | does: no opset's LayerNormalization has `epsilom`.
// page-fix:
// | Fix the name (`"epsilon"_f`). A `rc::node` (without the op type) reads any name, unchecked.
#include "convert_common.hpp"

template <>
struct rc::node_rewrite<"LayerNormalization", my_engine> {
  static std::vector<rx::value> call(const auto& ctx, rx::graph& g,
                                     const rc::node_of<"LayerNormalization">& n) {
#ifdef RETARGET_COMPILE_FAIL
    const float epsilon = n["epsilom"_f].value_or(1e-5f);
#else
    const float epsilon = n["epsilon"_f].value_or(1e-5f);
#endif
    return epsilon > 0 ? ctx.origin(g, n) : std::vector<rx::value>{};
  }
};

auto convert(const rx::model& m) { return rc::convert<my_engine>(m); }

int main() {}
