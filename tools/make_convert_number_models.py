#!/usr/bin/python3
"""Small ONNX models, with their inputs, for the converter's numbers that the corpus does not
reach, written with onnx.helper into tests/data/convert_numbers/ (or the folder given as the
first argument). The expected outputs come from ONNX Runtime at test time
(tests/convert/clip_test.cpp, tests/convert/fold_test.cpp):

  clip_0_6.onnx          Clip(x, 0, 6), ReLU6 as torch writes it at opset 13
  clip_-1.5_2.5.onnx     Clip(x, -1.5, 2.5): a lower bound that is not 0
  clip_none_6.onnx       Clip(x, '', 6): the upper bound alone
  clip_x_finite.pb       x for the Clip models: [-10, 10] in steps of 1/32, the bounds, the
                         floats next to them (normal ones) and -0
  clip_x_special.pb      the same with +inf, -inf and NaN in place of three values
  flatten_batch.onnx     x [n, 3, 4, 4] flattened keeping its batch, as torch writes
                         x.view(x.size(0), -1): Shape, Gather, Unsqueeze, Concat, Reshape
  flatten_batch_n1.pb    x for it at n = 1, and at n = 3
  flatten_batch_n3.pb
  shape_slices.onnx      Shape(x) of a static x [2, 3, 4, 5] with start and end, negative
                         ones and out-of-range ones among them, at opset 15
  shape_slices_x.pb      x for it

Run it with Debian's python: /usr/bin/python3 tools/make_convert_number_models.py
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save_model(graph, opset, path):
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                              producer_name="make_convert_number_models")
    model.ir_version = 8
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, path)


def save_tensor(array, name, path):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def clip_model(low, high, path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 1, 654])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 1, 654])
    initializers, inputs = [], ["x"]
    for name, bound in (("low", low), ("high", high)):
        if bound is None:
            inputs.append("")
        else:
            initializers.append(numpy_helper.from_array(np.array(bound, np.float32), name))
            inputs.append(name)
    while inputs[-1] == "":
        inputs.pop()
    node = helper.make_node("Clip", inputs, ["y"], name="clip")
    graph = helper.make_graph([node], "clip", [x], [y], initializers)
    save_model(graph, 13, path)


def clip_inputs():
    f32 = np.float32
    grid = np.arange(-320, 321, dtype=np.float64) / 32  # -10 to 10, each exact in float32
    special = []
    for b in (6.0, -1.5, 2.5):
        special += [b, np.nextafter(f32(b), f32(-np.inf)), np.nextafter(f32(b), f32(np.inf))]
    # Next to 0, the smallest normal floats: OpenCV flushes subnormals to 0.
    tiny = np.finfo(f32).tiny
    special += [0.0, -tiny, tiny]
    values = np.concatenate([grid, np.array(special, np.float64), [-0.0]]).astype(f32)
    finite = values.reshape(1, 1, 1, -1)
    with_special = finite.copy()
    with_special[0, 0, 0, 0] = np.inf
    with_special[0, 0, 0, 1] = -np.inf
    with_special[0, 0, 0, 2] = np.nan
    return finite, with_special


def flatten_batch_model(path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 48])
    zero = numpy_helper.from_array(np.array(0, np.int64), "zero")
    axes = numpy_helper.from_array(np.array([0], np.int64), "axes")
    minus_one = numpy_helper.from_array(np.array([-1], np.int64), "minus_one")
    nodes = [
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
        helper.make_node("Shape", ["r"], ["shape"], name="shape"),
        helper.make_node("Gather", ["shape", "zero"], ["batch"], name="gather", axis=0),
        helper.make_node("Unsqueeze", ["batch", "axes"], ["batch_1d"], name="unsqueeze"),
        helper.make_node("Concat", ["batch_1d", "minus_one"], ["target"], name="concat", axis=0),
        helper.make_node("Reshape", ["r", "target"], ["y"], name="reshape"),
    ]
    graph = helper.make_graph(nodes, "flatten_batch", [x], [y], [zero, axes, minus_one])
    save_model(graph, 13, path)


# (start, end) of each Shape node; None: the attribute is not written.
SHAPE_SLICES = [(1, 3), (-3, -1), (-2, None), (None, -1), (-10, 10), (3, 1), (None, None), (4, None)]


def shape_slices_model(path):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4, 5])
    nodes, outputs = [], []
    for i, (start, end) in enumerate(SHAPE_SLICES):
        attributes = {}
        if start is not None:
            attributes["start"] = start
        if end is not None:
            attributes["end"] = end
        name = "s%d" % i
        nodes.append(helper.make_node("Shape", ["x"], [name], name="shape_%d" % i, **attributes))
        outputs.append(helper.make_tensor_value_info(name, TensorProto.INT64, [None]))
    graph = helper.make_graph(nodes, "shape_slices", [x], outputs)
    save_model(graph, 15, path)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "tests", "data", "convert_numbers")
    os.makedirs(out, exist_ok=True)
    clip_model(0.0, 6.0, os.path.join(out, "clip_0_6.onnx"))
    clip_model(-1.5, 2.5, os.path.join(out, "clip_-1.5_2.5.onnx"))
    clip_model(None, 6.0, os.path.join(out, "clip_none_6.onnx"))
    finite, special = clip_inputs()
    save_tensor(finite, "x", os.path.join(out, "clip_x_finite.pb"))
    save_tensor(special, "x", os.path.join(out, "clip_x_special.pb"))
    flatten_batch_model(os.path.join(out, "flatten_batch.onnx"))
    rng = np.random.default_rng(20261125)
    for n in (1, 3):
        x = rng.uniform(-3, 3, (n, 3, 4, 4)).astype(np.float32)
        save_tensor(x, "x", os.path.join(out, "flatten_batch_n%d.pb" % n))
    shape_slices_model(os.path.join(out, "shape_slices.onnx"))
    save_tensor(rng.uniform(-3, 3, (2, 3, 4, 5)).astype(np.float32), "x",
                os.path.join(out, "shape_slices_x.pb"))


if __name__ == "__main__":
    main()
