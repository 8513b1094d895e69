#!/usr/bin/python3
"""Models for the tests of `retarget convert` on the command line (tests/CMakeLists.txt).

Writes tests/data/convert/cli/ (or the folder given as the first argument):
  resize_by_input.onnx   x [1, 1, 4, 4] resized (linear) by scales given as a second graph
                         input, `factor` [4]: the seed's interpolation with its factor an input,
                         which OpenCV 4.6 refuses until the factor is a constant (--fix)
  cubic_by_1_5.onnx      x [1, 3, 8, 8] resized (cubic, half_pixel) by 1.5: no whole factor,
                         so OpenCV 4.6 runs it only as the approximation cubic_resize_as_linear

Run with Debian's python (onnx 1.12): /usr/bin/python3 tools/make_convert_cli_models.py
"""
import os
import sys

import onnx
from onnx import TensorProto, helper


def resize_by_input():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
    factor = helper.make_tensor_value_info("factor", TensorProto.FLOAT, [4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, None, None])
    resize = helper.make_node("Resize", ["x", "", "factor"], ["y"], name="resize", mode="linear",
                              coordinate_transformation_mode="half_pixel")
    graph = helper.make_graph([resize], "resize_by_input", [x, factor], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="make_convert_cli_models")
    onnx.checker.check_model(model, full_check=True)
    return model


def cubic_by_1_5():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 12, 12])
    scales = helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 1.5, 1.5])
    resize = helper.make_node("Resize", ["x", "", "scales"], ["y"], name="upsample", mode="cubic",
                              coordinate_transformation_mode="half_pixel", cubic_coeff_a=-0.75)
    graph = helper.make_graph([resize], "cubic_by_1_5", [x], [y], [scales])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="make_convert_cli_models")
    onnx.checker.check_model(model, full_check=True)
    return model


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "convert", "cli")
    os.makedirs(out, exist_ok=True)
    onnx.save(resize_by_input(), os.path.join(out, "resize_by_input.onnx"))
    onnx.save(cubic_by_1_5(), os.path.join(out, "cubic_by_1_5.onnx"))


if __name__ == "__main__":
    main(sys.argv)
