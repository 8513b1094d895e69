// A node rewrite that reads an attribute as the wrong kind (epsilon is a FLOAT).
// expect: attribute kind does not match the op's schema
// page-section: Conversion rules
// page-title: A node rewrite that reads an attribute as the wrong kind
// page-order: 30
// page-snippet:
// | const rc::node_of<"LayerNormalization">& n
// | n["epsilon"_i].value_or(0);   // epsilon is a FLOAT
// page-meaning:
// | The attribute exists, but the schema gives it another kind than the literal's suffix asks for.
// page-fix:
// | Read it with the suffix of its kind (`"epsilon"_f`).
#include "convert_common.hpp"

template <>
struct rc::node_rewrite<"LayerNormalization", my_engine> {
  static std::vector<rx::value> call(const auto& ctx, rx::graph& g,
                                     const rc::node_of<"LayerNormalization">& n) {
#ifdef RETARGET_COMPILE_FAIL
    const auto epsilon = n["epsilon"_i].value_or(0);
#else
    const auto epsilon = n["epsilon"_f].value_or(1e-5f);
#endif
    return epsilon >= 0 ? ctx.origin(g, n) : std::vector<rx::value>{};
  }
};

auto convert(const rx::model& m) { return rc::convert<my_engine>(m); }

int main() {}
