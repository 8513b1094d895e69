#!/usr/bin/python3
"""PyTorch references for every op of retarget's op library (Debian's python3-torch 1.13).

For each case, writes into tests/data/ops/<case>/ (or the folder given as the first argument)
in0.pb, in1.pb, ... (the inputs) and out0.pb, ... (what PyTorch computes), as ONNX
TensorProto files. tests/trace/ops_test.cpp exports the same op with retarget, runs it on
ONNX Runtime and compares. Run: /usr/bin/python3 tools/make_op_references.py
"""
import os
import shutil
import sys

import torch
import torch.nn.functional as F
from onnx import numpy_helper

torch.manual_seed(7)


def r(*shape):
    return torch.randn(*shape)


def pos(*shape):
    return torch.rand(*shape) + 0.5


idx = torch.tensor([[0, 2], [1, 0]], dtype=torch.int64)
sel = torch.tensor([2, 0], dtype=torch.int64)

# name: (function, inputs)
CASES = {
    "add": (lambda a, b: a + b, [r(2, 3), r(3)]),
    "add_scalar": (lambda a: a + 2.5, [r(2, 3)]),
    "sub": (lambda a, b: a - b, [r(2, 3), r(2, 3)]),
    "rsub_scalar": (lambda a: 1.0 - a, [r(2, 3)]),
    "mul": (lambda a, b: a * b, [r(2, 3), r(1, 3)]),
    "div": (lambda a, b: a / b, [r(2, 3), pos(2, 3)]),
    "pow": (lambda a, b: torch.pow(a, b), [pos(2, 3), r(2, 3)]),
    "neg": (lambda a: -a, [r(2, 3)]),
    "matmul": (lambda a, b: a @ b, [r(2, 3, 4), r(4, 5)]),
    "linear": (lambda x, w, b: F.linear(x, w, b), [r(2, 4), r(3, 4), r(3)]),
    "linear_3d": (lambda x, w, b: F.linear(x, w, b), [r(2, 5, 4), r(3, 4), r(3)]),
    "conv1d": (lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1), [r(1, 2, 10), r(4, 2, 3), r(4)]),
    "conv2d": (lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1), [r(1, 3, 8, 8), r(6, 3, 3, 3), r(6)]),
    "conv2d_groups": (lambda x, w: F.conv2d(x, w, None, padding=2, dilation=2, groups=3),
                      [r(1, 3, 8, 8), r(6, 1, 3, 3)]),
    "conv_transpose2d": (lambda x, w, b: F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
                         [r(1, 4, 5, 5), r(4, 2, 3, 3), r(2)]),
    "relu": (F.relu, [r(2, 3)]),
    "sigmoid": (torch.sigmoid, [r(2, 3)]),
    "tanh": (torch.tanh, [r(2, 3)]),
    "gelu": (F.gelu, [r(2, 3)]),
    "silu": (F.silu, [r(2, 3)]),
    "leaky_relu": (lambda x: F.leaky_relu(x, 0.2), [r(2, 3)]),
    "hardswish": (F.hardswish, [r(2, 3) * 4]),
    "softmax": (lambda x: F.softmax(x, dim=1), [r(2, 3, 4)]),
    "log_softmax": (lambda x: F.log_softmax(x, dim=-1), [r(2, 3, 4)]),
    "batch_norm": (lambda x, w, b, m, v: F.batch_norm(x, m, v, w, b, eps=1e-5),
                   [r(2, 3, 4, 4), r(3), r(3), r(3), pos(3)]),
    "layer_norm": (lambda x, w, b: F.layer_norm(x, [4], w, b, eps=1e-5), [r(2, 3, 4), r(4), r(4)]),
    "max_pool2d": (lambda x: F.max_pool2d(x, 3, stride=2, padding=1), [r(1, 2, 7, 7)]),
    "avg_pool2d": (lambda x: F.avg_pool2d(x, 2, stride=2), [r(1, 2, 6, 6)]),
    "adaptive_avg_pool2d_1": (lambda x: F.adaptive_avg_pool2d(x, 1), [r(1, 2, 5, 5)]),
    "adaptive_avg_pool2d_2": (lambda x: F.adaptive_avg_pool2d(x, 2), [r(1, 2, 4, 4)]),
    "flatten": (lambda x: torch.flatten(x, 1), [r(2, 3, 4)]),
    "reshape": (lambda x: x.reshape(2, -1), [r(2, 3, 4)]),
    "view": (lambda x: x.view(6, 4), [r(2, 3, 4)]),
    "permute": (lambda x: x.permute(2, 0, 1), [r(2, 3, 4)]),
    "transpose": (lambda x: x.transpose(0, 1), [r(2, 3, 4)]),
    "squeeze": (torch.squeeze, [r(1, 3, 1, 4)]),
    "squeeze_dim": (lambda x: x.squeeze(2), [r(1, 3, 1, 4)]),
    "unsqueeze": (lambda x: x.unsqueeze(1), [r(2, 3)]),
    "cat": (lambda a, b: torch.cat([a, b], 0), [r(2, 3), r(1, 3)]),
    "split": (lambda x: torch.split(x, [1, 2], dim=1), [r(2, 3)]),
    "slice": (lambda x: x[:, 1:3], [r(2, 4)]),
    "gather": (lambda x, i: torch.gather(x, 1, i), [r(2, 3), idx]),
    "index_select": (lambda x, i: torch.index_select(x, 0, i), [r(3, 4), sel]),
    "expand": (lambda x: x.expand(3, 4), [r(3, 1)]),
    "repeat": (lambda x: x.repeat(2, 1, 2), [r(2, 3)]),
    "repeat_1d": (lambda x: x.repeat(3), [r(5)]),
    "pad": (lambda x: F.pad(x, (1, 2), value=0.5), [r(2, 3)]),
    "pad_reflect": (lambda x: F.pad(x, (1, 1, 2, 0), mode="reflect"), [r(1, 2, 4, 4)]),
    "interpolate_nearest": (lambda x: F.interpolate(x, scale_factor=2, mode="nearest"), [r(1, 2, 3, 3)]),
    "interpolate_bilinear": (lambda x: F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False),
                             [r(1, 2, 3, 3)]),
    "interpolate_bicubic_size": (lambda x: F.interpolate(x, size=(6, 7), mode="bicubic", align_corners=False),
                                 [r(1, 2, 3, 3)]),
    "interpolate_scales_input": (lambda x, s: F.interpolate(x, scale_factor=s.tolist()[-2:], mode="bicubic",
                                                            align_corners=False),
                                 [r(1, 2, 3, 3), torch.tensor([1.0, 1.0, 2.0, 3.0])]),
    "sum": (lambda x: torch.sum(x, 1, keepdim=True), [r(2, 3, 4)]),
    "mean": (lambda x: torch.mean(x, -1), [r(2, 3, 4)]),
    "amax": (lambda x: torch.amax(x, 0), [r(2, 3, 4)]),
    "where": (torch.where, [r(2, 3) > 0, r(2, 3), r(2, 3)]),
    "clamp": (lambda x: torch.clamp(x, -0.5, 0.5), [r(2, 3)]),
    "cast": (lambda x: (x * 10).to(torch.int64), [r(2, 3)]),
    "shape": (lambda x: torch.tensor(x.shape, dtype=torch.int64), [r(2, 3, 4)]),
}


def save(t, path):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(t.detach().numpy()).SerializeToString())


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "data", "ops")
    shutil.rmtree(root, ignore_errors=True)
    for name, (fn, inputs) in CASES.items():
        folder = os.path.join(root, name)
        os.makedirs(folder)
        for i, t in enumerate(inputs):
            save(t, os.path.join(folder, f"in{i}.pb"))
        with torch.no_grad():
            out = fn(*inputs)
        outs = list(out) if isinstance(out, (tuple, list)) else [out]
        for i, t in enumerate(outs):
            save(t, os.path.join(folder, f"out{i}.pb"))
    print(f"wrote {len(CASES)} cases to {root}")


if __name__ == "__main__":
    main()
