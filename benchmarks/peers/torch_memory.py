"""Peak memory of torch.onnx.export for a model of the size benchmark_memory_export uses:
64 linear layers of 2048 x 2048 floats without bias, 1 GiB of weights.

    /usr/bin/python3 torch_memory.py OUT_DIR

torch 1.13 writes a model under 2 GiB as one file (external data only past that). Prints one
JSON line: the weights' bytes, the resident set after importing torch and before making the
model, and the process's peak resident set (VmHWM).
"""
import json
import os
import sys
import time
import warnings

import torch

warnings.filterwarnings("ignore")


def status_bytes(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def main():
    out_dir = sys.argv[1]
    baseline = status_bytes("VmRSS")
    torch.manual_seed(0)
    model = torch.nn.Sequential(*[torch.nn.Linear(2048, 2048, bias=False) for _ in range(64)]).eval()
    weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    path = os.path.join(out_dir, "memory_torch.onnx")
    start = time.perf_counter()
    torch.onnx.export(model, torch.randn(1, 2048), path, opset_version=17)
    seconds = time.perf_counter() - start
    print(json.dumps({"peer": "torch.onnx.export", "weight_bytes": weight_bytes, "baseline_rss": baseline,
                      "peak_rss": status_bytes("VmHWM"), "export_seconds": seconds,
                      "model_file_bytes": os.path.getsize(path)}))


if __name__ == "__main__":
    main()
