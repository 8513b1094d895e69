#!/usr/bin/python3
"""Small ONNX files that `retarget convert` must refuse, each for one reason, written with
onnx.helper into tests/data/convert/bad/ (or the folder given as the first argument):

  cycle.onnx       two Relu nodes that read each other's output
  dangling.onnx    an Add that reads a value nothing gives
  future_op.onnx   LayerNormalization (since opset 17) in an opset-13 model
  not_onnx.onnx    a text file

Run it with Debian's python: /usr/bin/python3 tools/make_convert_bad_models.py
"""
import os
import sys

import onnx
from onnx import TensorProto, helper


def model(nodes, opset=13):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4])
    graph = helper.make_graph(nodes, "bad", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                             producer_name="make_convert_bad_models")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "tests", "data", "convert", "bad")
    os.makedirs(out, exist_ok=True)
    cycle = model([helper.make_node("Add", ["x", "b"], ["a"], name="first"),
                   helper.make_node("Relu", ["a"], ["b"], name="second"),
                   helper.make_node("Identity", ["a"], ["y"], name="last")])
    onnx.save(cycle, os.path.join(out, "cycle.onnx"))
    dangling = model([helper.make_node("Add", ["x", "missing"], ["y"], name="add")])
    onnx.save(dangling, os.path.join(out, "dangling.onnx"))
    future = model([helper.make_node("LayerNormalization", ["x", "x"], ["y"], name="norm")])
    onnx.save(future, os.path.join(out, "future_op.onnx"))
    with open(os.path.join(out, "not_onnx.onnx"), "w") as f:
        f.write("this is a text file, not an ONNX model\n")


if __name__ == "__main__":
    main()
