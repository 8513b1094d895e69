#!/usr/bin/env python3
"""Makes the models that `retarget compare` is tested on (tests/CMakeLists.txt, cli.compare_*;
tests/backend/compare_test.cpp):

  tiny.onnx          a small convolutional block with a dynamic batch: conv1 - relu1 - conv2 -
                     gate (Sigmoid) - scale (Mul by relu1's output) - a Reshape back to the
                     shape its own Shape reads (a value OpenCV folds at import: no layer gives it)
  tiny_planted.onnx  the same graph, values and names, with one deliberately wrong rewrite: the
                     node 'gate' computes HardSigmoid (0.2 x + 0.5, clipped) instead of Sigmoid,
                     off by up to 0.07 on these inputs; a bisection must name that node
  log.onnx           y = Log(x): NaN for the negative half of generated inputs, on every engine

Weights come from a fixed seed. Run with the python3-onnx package:
  python3 tests/data/compare/make_compare_models.py tests/data/compare
"""
import sys
import pathlib

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def tiny(planted: bool) -> onnx.ModelProto:
    rng = np.random.default_rng(20261124)
    w1 = rng.uniform(-0.5, 0.5, (4, 3, 3, 3)).astype(np.float32)
    b1 = rng.uniform(-0.1, 0.1, (4,)).astype(np.float32)
    w2 = rng.uniform(-0.5, 0.5, (4, 4, 3, 3)).astype(np.float32)
    b2 = rng.uniform(-0.1, 0.1, (4,)).astype(np.float32)
    if planted:
        gate = helper.make_node("HardSigmoid", ["conv2_out"], ["gate_out"], name="gate",
                                alpha=0.2, beta=0.5)
    else:
        gate = helper.make_node("Sigmoid", ["conv2_out"], ["gate_out"], name="gate")
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["conv1_out"], name="conv1", pads=[1, 1, 1, 1],
                         kernel_shape=[3, 3]),
        helper.make_node("Relu", ["conv1_out"], ["relu1_out"], name="relu1"),
        helper.make_node("Conv", ["relu1_out", "w2", "b2"], ["conv2_out"], name="conv2",
                         pads=[1, 1, 1, 1], kernel_shape=[3, 3]),
        gate,
        helper.make_node("Mul", ["gate_out", "relu1_out"], ["scaled"], name="scale"),
        helper.make_node("Shape", ["scaled"], ["scaled_shape"], name="shape"),
        helper.make_node("Flatten", ["scaled"], ["flat"], name="flatten", axis=1),
        helper.make_node("Reshape", ["flat", "scaled_shape"], ["y"], name="unflatten"),
    ]
    graph = helper.make_graph(
        nodes, "tiny",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", 4, 8, 8])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(b1, "b1"),
         numpy_helper.from_array(w2, "w2"), numpy_helper.from_array(b2, "b2")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="make_compare_models.py")
    model.ir_version = 7
    onnx.checker.check_model(model, full_check=True)
    return model


def log() -> onnx.ModelProto:
    graph = helper.make_graph(
        [helper.make_node("Log", ["x"], ["y"], name="log")], "log",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                              producer_name="make_compare_models.py")
    model.ir_version = 7
    onnx.checker.check_model(model, full_check=True)
    return model


def main() -> None:
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent)
    onnx.save(tiny(False), out / "tiny.onnx")
    onnx.save(tiny(True), out / "tiny_planted.onnx")
    onnx.save(log(), out / "log.onnx")


if __name__ == "__main__":
    main()
