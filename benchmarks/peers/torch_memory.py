"""Peak memory of torch.onnx.export for a model of the size benchmark_memory_export uses:
64 linear layers of 2048 x 2048 floats without bias, 1 GiB of weights.

    /usr/bin/python3 torch_memory.py OUT_DIR [file|external]

file:      torch.onnx.export to one file, as torch 1.13 writes any model under 2 GiB.
external:  the weights in an external data file, as retarget's benchmark writes them. torch
           1.13 decides the format itself (external only past 2 GiB), so the model is
           exported into memory and written with onnx.save_model(save_as_external_data=True),
           the weights in one .data file; both steps are timed.

Prints one JSON line: the weights' bytes, the resident set after importing torch and onnx and
before making the model, the process's peak resident set (VmHWM), the time, and the files'
sizes. The driver reads the peak from wait4 too, as for every peer.
"""
import io
import json
import os
import sys
import time
import warnings

import onnx
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
    mode = sys.argv[2] if len(sys.argv) > 2 else "file"
    if mode not in ("file", "external"):
        sys.exit(f"usage: {sys.argv[0]} OUT_DIR [file|external]")
    baseline = status_bytes("VmRSS")
    torch.manual_seed(0)
    model = torch.nn.Sequential(*[torch.nn.Linear(2048, 2048, bias=False) for _ in range(64)]).eval()
    weight_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    path = os.path.join(out_dir, f"memory_torch_{mode}.onnx")
    data = os.path.basename(path) + ".data"
    start = time.perf_counter()
    if mode == "file":
        torch.onnx.export(model, torch.randn(1, 2048), path, opset_version=17)
    else:
        buffer = io.BytesIO()
        torch.onnx.export(model, torch.randn(1, 2048), buffer, opset_version=17)
        proto = onnx.load_model_from_string(buffer.getvalue())
        del buffer
        onnx.save_model(proto, path, save_as_external_data=True, all_tensors_to_one_file=True,
                        location=data, size_threshold=1024)
    seconds = time.perf_counter() - start
    data_path = os.path.join(out_dir, data)
    print(json.dumps({"peer": f"torch.onnx.export, {mode}", "path": mode, "weight_bytes": weight_bytes,
                      "baseline_rss": baseline, "peak_rss": status_bytes("VmHWM"), "export_seconds": seconds,
                      "model_file_bytes": os.path.getsize(path),
                      "data_file_bytes": os.path.getsize(data_path) if os.path.exists(data_path) else 0}))


if __name__ == "__main__":
    main()
