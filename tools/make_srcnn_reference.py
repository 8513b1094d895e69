#!/usr/bin/python3
"""Reference data for the SRCNN tutorial, produced by PyTorch (Debian's python3-torch 1.13).

Writes into zoo/srcnn/ (or the folder given as the first argument):
  conv{1,2,3}.{weight,bias}.pb   the weights, as ONNX TensorProto files
  input.pb, factor.pb            a test image and the seeds' upscale factor [1, 1, 3, 3]
  output_bicubic.pb              PyTorch's output of SRCNN with a bicubic x3 upsampler
  output_bilinear.pb             ... with a bilinear x3 upsampler (the opencv_dnn rewrite)
  torch_ops_*.txt                the op sequence torch.onnx.export produces, one op a line

Run it with Debian's python: /usr/bin/python3 tools/make_srcnn_reference.py
"""
import os
import sys
import tempfile

import onnx
import torch
from onnx import numpy_helper
from torch import nn
from torch.nn.functional import interpolate


class SuperResolutionNet(nn.Module):
    """The tutorial model: an upsampler, then conv 9x9 64, relu, conv 1x1 32, relu, conv 5x5 3."""

    def __init__(self, mode):
        super().__init__()
        self.img_upsampler = nn.Upsample(scale_factor=3, mode=mode, align_corners=False)
        self.conv1 = nn.Conv2d(3, 64, kernel_size=9, padding=4)
        self.conv2 = nn.Conv2d(64, 32, kernel_size=1, padding=0)
        self.conv3 = nn.Conv2d(32, 3, kernel_size=5, padding=2)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = self.img_upsampler(x)
        out = self.relu(self.conv1(x))
        out = self.relu(self.conv2(out))
        return self.conv3(out)


class NewInterpolate(torch.autograd.Function):
    """The seeds' custom op: bicubic resize whose scales are a graph input."""

    @staticmethod
    def symbolic(g, input, scales):
        return g.op("Resize", input, g.op("Constant", value_t=torch.tensor([], dtype=torch.float32)),
                    scales, coordinate_transformation_mode_s="pytorch_half_pixel",
                    cubic_coeff_a_f=-0.75, mode_s='cubic', nearest_mode_s="floor")

    @staticmethod
    def forward(ctx, input, scales):
        scales = scales.tolist()[-2:]
        return interpolate(input, scale_factor=scales, mode='bicubic', align_corners=False)


class StrangeSuperResolutionNet(nn.Module):
    def __init__(self, base):
        super().__init__()
        self.conv1, self.conv2, self.conv3, self.relu = base.conv1, base.conv2, base.conv3, base.relu

    def forward(self, x, upscale_factor):
        x = NewInterpolate.apply(x, upscale_factor)
        out = self.relu(self.conv1(x))
        out = self.relu(self.conv2(out))
        return self.conv3(out)


def save(tensor, path):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(tensor.detach().numpy()).SerializeToString())


def op_sequence(model, args, input_names, dynamic_axes=None):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.onnx")
        torch.onnx.export(model, args, path, opset_version=13, input_names=input_names,
                          output_names=["output"], dynamic_axes=dynamic_axes)
        return [n.op_type for n in onnx.load(path).graph.node]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "zoo", "srcnn")
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(20261122)
    bicubic = SuperResolutionNet("bicubic").eval()
    bilinear = SuperResolutionNet("bilinear").eval()
    bilinear.load_state_dict(bicubic.state_dict())
    strange = StrangeSuperResolutionNet(bicubic).eval()

    for name, p in bicubic.named_parameters():
        save(p, os.path.join(out, name + ".pb"))
    x = torch.rand(1, 3, 16, 16)
    factor = torch.tensor([1, 1, 3, 3], dtype=torch.float32)
    save(x, os.path.join(out, "input.pb"))
    save(factor, os.path.join(out, "factor.pb"))
    with torch.no_grad():
        save(bicubic(x), os.path.join(out, "output_bicubic.pb"))
        save(bilinear(x), os.path.join(out, "output_bilinear.pb"))
        assert torch.allclose(strange(x, factor), bicubic(x), atol=1e-6)
        dynamic = {"input": {2: "height", 3: "width"}, "output": {2: "height3", 3: "width3"}}
        sequences = {
            "torch_ops_bicubic.txt": op_sequence(bicubic, (x,), ["input"]),
            "torch_ops_bicubic_dynamic.txt": op_sequence(bicubic, (x,), ["input"], dynamic),
            "torch_ops_bilinear.txt": op_sequence(bilinear, (x,), ["input"]),
            "torch_ops_factor.txt": op_sequence(strange, (x, factor), ["input", "factor"]),
        }
    for name, ops in sequences.items():
        with open(os.path.join(out, name), "w") as f:
            f.write("\n".join(ops) + "\n")
    print("wrote", out, {k: " ".join(v) for k, v in sequences.items()})


if __name__ == "__main__":
    main()
