#!/usr/bin/python3
"""Models for `retarget convert --fix` (tests/CMakeLists.txt): inputs a user gives a value.

Writes tests/data/convert/given/ (or the folder given as the first argument):
  resize_by_input.onnx   x [1, 1, 4, 4] resized (linear) by scales given as a second graph
                         input, `factor` [4]: the seed's interpolation with its factor an input,
                         which OpenCV 4.6 refuses until the factor is a constant

Run with Debian's python (onnx 1.12): /usr/bin/python3 tools/make_convert_given_models.py
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
                              producer_name="make_convert_given_models")
    onnx.checker.check_model(model, full_check=True)
    return model


def main(argv):
    out = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "convert", "given")
    os.makedirs(out, exist_ok=True)
    onnx.save(resize_by_input(), os.path.join(out, "resize_by_input.onnx"))


if __name__ == "__main__":
    main(sys.argv)
