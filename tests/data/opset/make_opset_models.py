#!/usr/bin/env python3
"""Makes the small models of tests/convert/opset_test.cpp: each exercises the adapters of one
step of opset conversion (LayerNormalization 17 -> 16, Softmax and LogSoftmax 13 -> 12, Split,
Squeeze and Unsqueeze 13 <-> 12, Resize 10 <-> 11 <-> 13, RoiAlign 15 <-> 16), or nodes that
cannot be adapted.

    python3 tests/data/opset/make_opset_models.py tests/data/opset

Needs the onnx package only (Debian: python3-onnx). The test runs each model and its
conversion on ONNX Runtime and compares their outputs."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def value(name, shape, elem=F):
    return helper.make_tensor_value_info(name, elem, shape)


def const(name, array):
    return helper.make_node("Constant", [], [name], value=numpy_helper.from_array(array, name + "_v"))


def save(folder, name, nodes, inputs, outputs, opset, initializers=(), value_info=(), extra=()):
    graph = helper.make_graph(nodes, name, inputs, outputs, initializer=list(initializers),
                              value_info=list(value_info))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset), *extra],
                              producer_name="make_opset_models.py")
    model.ir_version = 8 if opset >= 15 else 7
    if not extra:
        onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(folder, name + ".onnx"))


def main(folder):
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(7)
    f32 = lambda *shape: rng.standard_normal(shape).astype(np.float32)

    # LayerNormalization: over the last axis with a bias, over the last two without.
    save(folder, "layer_norm_op17", [
        helper.make_node("LayerNormalization", ["x", "scale", "bias"], ["y_last"], axis=-1,
                         epsilon=1e-3, name="norm_last"),
        helper.make_node("LayerNormalization", ["x", "scale2"], ["y_two"], axis=1,
                         name="norm_two"),
    ], [value("x", [2, 3, 8])], [value("y_last", [2, 3, 8]), value("y_two", [2, 3, 8])], 17,
        [numpy_helper.from_array(f32(8), "scale"), numpy_helper.from_array(f32(8), "bias"),
         numpy_helper.from_array(f32(3, 8), "scale2")])

    # Softmax and LogSoftmax over the last axis and over others (through Transpose at 12).
    save(folder, "softmax_op13", [
        helper.make_node("Softmax", ["x"], ["s_last"], name="softmax_last"),
        helper.make_node("Softmax", ["x"], ["s_1"], axis=1, name="softmax_1"),
        helper.make_node("LogSoftmax", ["x"], ["l_last"], axis=2, name="log_softmax_last"),
        helper.make_node("LogSoftmax", ["x"], ["l_0"], axis=-3, name="log_softmax_0"),
    ], [value("x", [2, 3, 4])], [value(n, [2, 3, 4]) for n in ["s_last", "s_1", "l_last", "l_0"]],
        13)
    # Opset 12's Softmax, coercing to 2-D at axis 1, going up.
    save(folder, "softmax_op12", [
        helper.make_node("Softmax", ["x"], ["s"], axis=1, name="softmax_2d"),
        helper.make_node("LogSoftmax", ["x"], ["l"], name="log_softmax_2d"),
    ], [value("x", [2, 3, 4])], [value("s", [2, 3, 4]), value("l", [2, 3, 4])], 12)

    # Split and Squeeze/Unsqueeze, their split and axes as inputs: an initializer and Constants.
    save(folder, "split_squeeze_op13", [
        helper.make_node("Split", ["x", "split"], ["a", "b"], axis=1, name="split"),
        const("axes0", np.array([0], np.int64)),
        helper.make_node("Unsqueeze", ["a", "axes0"], ["u"], name="unsqueeze"),
        helper.make_node("Squeeze", ["u", "axes0"], ["s"], name="squeeze"),
        helper.make_node("Squeeze", ["b"], ["t"], name="squeeze_all"),
    ], [value("x", [2, 3, 1])], [value("s", [2, 1, 1]), value("t", [2, 2])], 13,
        [numpy_helper.from_array(np.array([1, 2], np.int64), "split")])
    save(folder, "split_squeeze_op12", [
        helper.make_node("Split", ["x"], ["a", "b"], axis=1, split=[1, 2], name="split"),
        helper.make_node("Unsqueeze", ["a"], ["u"], axes=[0], name="unsqueeze"),
        helper.make_node("Squeeze", ["u"], ["s"], axes=[0], name="squeeze"),
    ], [value("x", [2, 3, 1])], [value("s", [2, 1, 1]), value("b", [2, 2, 1])], 12)

    # Resize at 13: linear by scales (no roi), cubic by sizes (no roi, no scales).
    save(folder, "resize_op13", [
        const("scales", np.array([1, 1, 2, 2], np.float32)),
        const("sizes", np.array([1, 2, 6, 10], np.int64)),
        helper.make_node("Resize", ["x", "", "scales"], ["linear"], mode="linear",
                         name="resize_linear"),
        helper.make_node("Resize", ["x", "", "", "sizes"], ["cubic"], mode="cubic",
                         coordinate_transformation_mode="pytorch_half_pixel", name="resize_cubic"),
    ], [value("x", [1, 2, 3, 5])], [value("linear", [1, 2, 6, 10]), value("cubic", [1, 2, 6, 10])],
        13)
    # Resize at 11 that opset 10 can express: asymmetric, nearest rounding down, linear by sizes.
    save(folder, "resize_op11", [
        const("roi", np.array([], np.float32)),
        const("scales", np.array([1, 1, 2, 3], np.float32)),
        const("no_scales", np.array([], np.float32)),
        const("sizes", np.array([1, 2, 6, 10], np.int64)),
        helper.make_node("Resize", ["x", "roi", "scales"], ["nearest"], mode="nearest",
                         coordinate_transformation_mode="asymmetric", nearest_mode="floor",
                         name="resize_nearest"),
        helper.make_node("Resize", ["x", "roi", "no_scales", "sizes"], ["linear"], mode="linear",
                         coordinate_transformation_mode="asymmetric", name="resize_linear"),
    ], [value("x", [1, 2, 3, 5])], [value("nearest", [1, 2, 6, 15]), value("linear", [1, 2, 6, 10])],
        11)
    save(folder, "resize_op10", [
        const("scales", np.array([1, 1, 2, 3], np.float32)),
        helper.make_node("Resize", ["x", "scales"], ["nearest"], mode="nearest",
                         name="resize_nearest"),
        helper.make_node("Resize", ["x", "scales"], ["linear"], mode="linear", name="resize_linear"),
    ], [value("x", [1, 2, 3, 5])], [value("nearest", [1, 2, 6, 15]), value("linear", [1, 2, 6, 15])],
        10)

    # Two nodes no adapter takes below 15: CastLike (new in 15) and Shape with start (15).
    save(folder, "unadaptable_op15", [
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
        helper.make_node("CastLike", ["r", "x"], ["c"], name="cast_like"),
        helper.make_node("Shape", ["c"], ["shape"], start=1, name="shape_from_1"),
    ], [value("x", [2, 3])], [value("shape", [1], TensorProto.INT64)], 15)

    # RoiAlign: opset 10's samples as 16's "output_half_pixel", while 16 defaults to
    # "half_pixel". At 15 (RoiAlign-10), going up; at 16 with the mode unset (refused going
    # down) and with "output_half_pixel" set (which carries over).
    rois = np.array([[0.4, 0.9, 4.3, 3.7], [1.2, 0.3, 5.6, 5.1]], np.float32)
    roi_inputs = [numpy_helper.from_array(rois, "rois"),
                  numpy_helper.from_array(np.array([0, 0], np.int64), "batch_indices")]
    roi_shape = [2, 2, 3, 3]
    save(folder, "roi_align_op15", [
        helper.make_node("RoiAlign", ["x", "rois", "batch_indices"], ["y"], output_height=3,
                         output_width=3, sampling_ratio=2, name="roi_align"),
    ], [value("x", [1, 2, 6, 6])], [value("y", roi_shape)], 15, roi_inputs)
    save(folder, "roi_align_op16", [
        helper.make_node("RoiAlign", ["x", "rois", "batch_indices"], ["y"], output_height=3,
                         output_width=3, sampling_ratio=2, name="roi_align_default"),
    ], [value("x", [1, 2, 6, 6])], [value("y", roi_shape)], 16, roi_inputs)
    save(folder, "roi_align_output_half_pixel_op16", [
        helper.make_node("RoiAlign", ["x", "rois", "batch_indices"], ["y"], output_height=3,
                         output_width=3, sampling_ratio=2,
                         coordinate_transformation_mode="output_half_pixel",
                         name="roi_align_output_half_pixel"),
    ], [value("x", [1, 2, 6, 6])], [value("y", roi_shape)], 16, roi_inputs)

    # A node of another domain between standard ones: left alone.
    save(folder, "custom_domain_op13", [
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
        helper.make_node("MyOp", ["r"], ["m"], domain="my.domain", name="mine"),
        helper.make_node("Softmax", ["m"], ["y"], name="softmax"),
    ], [value("x", [2, 3])], [value("y", [2, 3])], 13, value_info=[value("m", [2, 3])],
        extra=[helper.make_opsetid("my.domain", 1)])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
