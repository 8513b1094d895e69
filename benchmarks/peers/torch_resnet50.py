"""torch.onnx.export of torchvision's ResNet-50, the peer of benchmark_export_resnet50.

    /usr/bin/python3 torch_resnet50.py OUT_DIR RUNS

Every parameter and batch-norm statistic is random (so no two folded biases are alike, as in
retarget's model); the model is in eval mode, exported at opset 17 for a 1x3x224x224 input.
Prints one JSON line: the time of every torch.onnx.export call (the first one apart: a cold
start), the node count of the file and its size. With RUNS 0 it exports once and prints only
that time, so that the process ends when its file is written.
"""
import json
import os
import sys
import time
import warnings

import torch
import torchvision

warnings.filterwarnings("ignore")


def main():
    out_dir, runs = sys.argv[1], int(sys.argv[2])
    torch.manual_seed(0)
    model = torchvision.models.resnet50()
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.1, 0.1)
                m.running_mean.uniform_(-0.1, 0.1)
                m.running_var.uniform_(0.5, 1.5)
    model.eval()
    x = torch.randn(1, 3, 224, 224)
    path = os.path.join(out_dir, "resnet50_torch.onnx")
    times = []
    for _ in range(runs + 1):
        start = time.perf_counter()
        torch.onnx.export(model, x, path, opset_version=17, input_names=["input"], output_names=["output"])
        times.append(time.perf_counter() - start)
    if runs == 0:  # the whole-process measure: nothing after the file is written
        print(json.dumps({"peer": "torch.onnx.export", "first": times[0]}))
        return
    import onnx

    nodes = len(onnx.load(path, load_external_data=False).graph.node)
    print(json.dumps({"peer": "torch.onnx.export", "first": times[0], "times": times[1:], "nodes": nodes,
                      "parameters": sum(p.numel() for p in model.parameters()),
                      "file_bytes": os.path.getsize(path)}))


if __name__ == "__main__":
    main()
