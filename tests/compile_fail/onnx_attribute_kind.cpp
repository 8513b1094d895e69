// An attribute given with the wrong kind: Resize's mode is a string.
// expect: attribute_kind_does_not_match_the_ops_schema|attribute kind does not match the op's schema
// page-section: The emitter
// page-title: An attribute of the wrong kind
// page-order: 60
// page-snippet:
// | g.op("Resize", x, rx::no_input, scales, "mode"_f = 1.0f);   // mode is a STRING
// page-meaning:
// | The attribute exists, but the schema gives it another kind than the literal's suffix makes.
// page-fix:
// | Use the suffix of the kind the schema wants: `_i` INT(S), `_f` FLOAT(S), `_s` STRING(S), `_t`
// | TENSOR(S), `_g` GRAPH(S); a list value makes the plural.
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, rx::no_input, scales, "mode"_f = 1.0f);
#else
  return g.op("Resize", x, rx::no_input, scales, "cubic_coeff_a"_f = 1.0f);
#endif
}

int main() {}
