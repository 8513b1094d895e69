// An attribute that is one of the op's inputs: Resize takes its scales as an input, never as an
// attribute.
// expect: attribute_is_one_of_the_ops_inputs_not_an_attribute|attribute is one of the op's inputs, not an attribute
// page-section: The emitter
// page-title: An attribute that is one of the op's inputs
// page-order: 40
// page-snippet:
// | g.op("Resize", x, rx::no_input, scales, "scales"_f = {1.0f, 1.0f, 2.0f, 2.0f});
// page-meaning:
// | No opset's schema of this op declares the attribute, and the op takes it as an input: Resize's
// | `roi`, `scales` and `sizes`, Slice's `steps`, Tile's `repeats`, Expand's `shape`, Pad's
// | `constant_value`. An attribute that an older opset had and a later one made an input (Squeeze's
// | `axes` until opset 13) compiles, since some opset takes it; emission at the later opset then
// | says which input it became: `retarget: Squeeze (opset 13): unknown attribute 'axes': Squeeze
// | takes axes as its second input since opset 13`.
// page-fix:
// | Pass it as the input the op takes (a constant or an initializer), in its place: `g.op("Resize",
// | x, rx::no_input, g.constant(rx::tensor::of<float>({1, 1, 2, 2}, {4})))`.
#include "onnx_common.hpp"

rx::value emit(rx::graph& g, rx::value x, rx::value scales) {
#ifdef RETARGET_COMPILE_FAIL
  return g.op("Resize", x, rx::no_input, scales, "scales"_f = {1.0f, 1.0f, 2.0f, 2.0f});
#else
  return g.op("Resize", x, rx::no_input, scales);
#endif
}

int main() {}
