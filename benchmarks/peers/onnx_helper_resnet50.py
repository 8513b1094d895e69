"""Python's onnx.helper building the ResNet-50 graph retarget and torch export (53 Conv with
folded weights, 49 Relu, 16 Add, MaxPool, GlobalAveragePool, Flatten, Gemm) and saving it.

    /usr/bin/python3 onnx_helper_resnet50.py OUT_DIR RUNS

The weights are numpy arrays ready before the clock starts; a run is making the tensors,
nodes, graph and model with onnx.helper and numpy_helper, then onnx.save. Prints one JSON
line as the other peers do.
"""
import json
import os
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def make_weights():
    rng = np.random.default_rng(7)
    convs = []  # (weight name, bias name, weight, bias, kernel, stride, padding), in order

    def conv(name, bn, cin, cout, k, stride, padding):
        w = rng.uniform(-0.05, 0.05, (cout, cin, k, k)).astype(np.float32)
        b = rng.uniform(-0.05, 0.05, (cout,)).astype(np.float32)
        return (name + ".weight", bn + ".bias", w, b, k, stride, padding)

    stem = conv("conv1", "bn1", 3, 64, 7, 2, 3)
    blocks = []
    cin = 64
    for layer, (width, count) in enumerate(zip((64, 128, 256, 512), (3, 4, 6, 3))):
        for i in range(count):
            n = f"layer{layer + 1}.{i}"
            stride = 2 if i == 0 and layer > 0 else 1
            a = conv(n + ".conv1", n + ".bn1", cin, width, 1, 1, 0)
            b = conv(n + ".conv2", n + ".bn2", width, width, 3, stride, 1)
            c = conv(n + ".conv3", n + ".bn3", width, width * 4, 1, 1, 0)
            d = conv(n + ".downsample.0", n + ".downsample.1", cin, width * 4, 1, stride, 0) \
                if stride != 1 or cin != width * 4 else None
            blocks.append((a, b, c, d))
            cin = width * 4
    fc_w = rng.uniform(-0.02, 0.02, (1000, 2048)).astype(np.float32)
    fc_b = rng.uniform(-0.02, 0.02, (1000,)).astype(np.float32)
    return stem, blocks, fc_w, fc_b


def export(weights, path):
    stem, blocks, fc_w, fc_b = weights
    nodes, inits = [], []

    def node(op, inputs, output=None, **attrs):
        name = f"{op}_{len(nodes)}"
        nodes.append(helper.make_node(op, inputs, [output or name], name=name, **attrs))
        return output or name

    def conv(x, c):
        wname, bname, w, b, k, stride, padding = c
        inits.append(numpy_helper.from_array(b, bname))
        inits.append(numpy_helper.from_array(w, wname))
        return node("Conv", [x, wname, bname], dilations=[1, 1], group=1, kernel_shape=[k, k],
                    pads=[padding] * 4, strides=[stride, stride])

    y = node("Relu", [conv("input", stem)])
    y = node("MaxPool", [y], ceil_mode=0, dilations=[1, 1], kernel_shape=[3, 3], pads=[1, 1, 1, 1],
             strides=[2, 2])
    for a, b, c, d in blocks:
        main = conv(node("Relu", [conv(node("Relu", [conv(y, a)]), b)]), c)
        y = node("Relu", [node("Add", [main, conv(y, d) if d else y])])
    y = node("Flatten", [node("GlobalAveragePool", [y])], axis=1)
    inits.append(numpy_helper.from_array(fc_w, "fc.weight"))
    inits.append(numpy_helper.from_array(fc_b, "fc.bias"))
    node("Gemm", [y, "fc.weight", "fc.bias"], "output", transB=1)
    graph = helper.make_graph(nodes, "main",
                              [helper.make_tensor_value_info("input", TensorProto.FLOAT, [1, 3, 224, 224])],
                              [helper.make_tensor_value_info("output", TensorProto.FLOAT, [1, 1000])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.save(model, path)
    return len(model.graph.node)


def main():
    out_dir, runs = sys.argv[1], int(sys.argv[2])
    weights = make_weights()
    path = os.path.join(out_dir, "resnet50_onnx_helper.onnx")
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        nodes = export(weights, path)
        times.append(time.perf_counter() - start)
    print(json.dumps({"peer": "onnx.helper", "first": times[0], "times": times[1:], "nodes": nodes,
                      "file_bytes": os.path.getsize(path)}))


if __name__ == "__main__":
    main()
