#!/usr/bin/python3
"""PyTorch references for softmax and log_softmax exported below opset 13 (Debian's
python3-torch 1.13): over the last axis and over others, on a [2, 3, 4] tensor.

For each case, writes into tests/data/softmax_opset/<case>/ (or the folder given as the first
argument) in0.pb (the input) and out0.pb (what PyTorch computes), as ONNX TensorProto files.
tests/trace/softmax_opset_test.cpp exports the same op with retarget at opsets 11 and 12, runs
it on ONNX Runtime and compares. Run: /usr/bin/python3 tools/make_softmax_opset_references.py
"""
import os
import shutil
import sys

import torch
import torch.nn.functional as F
from onnx import numpy_helper

torch.manual_seed(11)

CASES = {
    "softmax_last": lambda x: F.softmax(x, dim=-1),
    "softmax_dim1": lambda x: F.softmax(x, dim=1),
    "log_softmax_last": lambda x: F.log_softmax(x, dim=2),
    "log_softmax_dim0": lambda x: F.log_softmax(x, dim=0),
}


def save(t, path):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(t.detach().numpy()).SerializeToString())


def main(out):
    for name, f in CASES.items():
        folder = os.path.join(out, name)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        x = torch.randn(2, 3, 4) * 3
        save(x, os.path.join(folder, "in0.pb"))
        save(f(x), os.path.join(folder, "out0.pb"))


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "tests", "data", "softmax_opset"))
