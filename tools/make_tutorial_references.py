#!/usr/bin/python3
"""Reference data for the numbered tutorials (examples/NN_*.cpp), produced by PyTorch
(Debian's python3-torch 1.13). The tutorials export their models with retarget, run them on
ONNX Runtime or OpenCV DNN, and compare with these files.

Tutorials 01, 02, 04 and 07 run the SRCNN of zoo/srcnn (tools/make_srcnn_reference.py);
this script reads that model's weights and input from there, so both agree.

Writes into tests/data/tutorials/ (or the folder given as the first argument), as ONNX
TensorProto files:
  02_factor2.pb, 02_output_factor2.pb   the seeds' StrangeSuperResolutionNet with factor [1, 1, 2, 2]
  03_vector.pb, 03_vector_repeat.pb     x.repeat(3) of a 1-D tensor (seed 000's case)
  03_matrix.pb, 03_matrix_repeat.pb     m.repeat(2, 2) of a 2-D tensor
  05_input.pb, 05_output.pb             softmax(x.squeeze(), -1) of a [1, 3, 1, 4] tensor
  06_a.pb, 06_b.pb, 06_output.pb        seed 004's my_add: 2 * a + b
  09_layers.json                        the layer list tutorial 09 converts
  09_<layer>.{weight,bias}.pb           its weights
  09_input.pb                           its input
  09_output_bicubic.pb                  PyTorch's output of the layer list
  09_output_bilinear.pb                 ... with the upsampler bilinear (the opencv_dnn mapping)

Run it with Debian's python: /usr/bin/python3 tools/make_tutorial_references.py
"""
import json
import os
import sys

import torch
from onnx import TensorProto, numpy_helper
from torch import nn
from torch.nn.functional import interpolate

HERE = os.path.dirname(os.path.abspath(__file__))
SRCNN = os.path.join(HERE, "..", "tests", "data", "srcnn")


def save(tensor, path):
    with open(path, "wb") as f:
        f.write(numpy_helper.from_array(tensor.detach().contiguous().numpy()).SerializeToString())


def load(path):
    with open(path, "rb") as f:
        proto = TensorProto()
        proto.ParseFromString(f.read())
    return torch.from_numpy(numpy_helper.to_array(proto).copy())


class NewInterpolate(torch.autograd.Function):
    """Seeds 002 and 004: a bicubic resize whose scales are a tensor."""

    @staticmethod
    def forward(ctx, input, scales):
        return interpolate(input, scale_factor=scales.tolist()[-2:], mode="bicubic", align_corners=False)


class StrangeSuperResolutionNet(nn.Module):
    """The seeds' model, with the weights of zoo/srcnn."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, kernel_size=9, padding=4)
        self.conv2 = nn.Conv2d(64, 32, kernel_size=1, padding=0)
        self.conv3 = nn.Conv2d(32, 3, kernel_size=5, padding=2)
        self.relu = nn.ReLU()
        for name in ("conv1", "conv2", "conv3"):
            conv = getattr(self, name)
            conv.weight.data = load(os.path.join(SRCNN, name + ".weight.pb"))
            conv.bias.data = load(os.path.join(SRCNN, name + ".bias.pb"))

    def forward(self, x, upscale_factor):
        x = NewInterpolate.apply(x, upscale_factor)
        out = self.relu(self.conv1(x))
        out = self.relu(self.conv2(out))
        return self.conv3(out)


# Tutorial 09's source format: a list of layers, as a converter would read from a file.
def conv(name, cin, cout, kernel, padding):
    return {"type": "Conv", "name": name, "in": cin, "out": cout, "kernel": kernel, "padding": padding,
            "weight": "09_%s.weight.pb" % name, "bias": "09_%s.bias.pb" % name}


LAYERS = [
    conv("head", 3, 8, 3, 1),
    {"type": "ReLU"},
    {"type": "Upsample", "scale": 2, "mode": "bicubic"},
    conv("body", 8, 8, 3, 1),
    {"type": "HardSwish"},
    conv("tail", 8, 3, 1, 0),
]


def torch_layers(layers, upsample_mode):
    modules = []
    for layer in layers:
        if layer["type"] == "Conv":
            conv = nn.Conv2d(layer["in"], layer["out"], layer["kernel"], padding=layer["padding"])
            conv.tag = layer["name"]
            modules.append(conv)
        elif layer["type"] == "ReLU":
            modules.append(nn.ReLU())
        elif layer["type"] == "HardSwish":
            modules.append(nn.Hardswish())
        elif layer["type"] == "Upsample":
            mode = upsample_mode or layer["mode"]
            modules.append(nn.Upsample(scale_factor=layer["scale"], mode=mode, align_corners=False))
    return nn.Sequential(*modules).eval()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "tests", "data", "tutorials")
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(20261207)

    with torch.no_grad():
        # 02: the same model file runs with another factor.
        strange = StrangeSuperResolutionNet().eval()
        x = load(os.path.join(SRCNN, "input.pb"))
        factor2 = torch.tensor([1, 1, 2, 2], dtype=torch.float32)
        save(factor2, os.path.join(out, "02_factor2.pb"))
        save(strange(x, factor2), os.path.join(out, "02_output_factor2.pb"))
        reference3 = load(os.path.join(SRCNN, "output_bicubic.pb"))
        assert torch.allclose(strange(x, torch.tensor([1, 1, 3, 3.0])), reference3, atol=1e-6)

        # 03: torch.Tensor.repeat.
        v = torch.rand(4)
        m = torch.rand(2, 3)
        save(v, os.path.join(out, "03_vector.pb"))
        save(v.repeat(3), os.path.join(out, "03_vector_repeat.pb"))
        save(m, os.path.join(out, "03_matrix.pb"))
        save(m.repeat(2, 2), os.path.join(out, "03_matrix_repeat.pb"))

        # 05: squeeze with no dim.
        s = torch.randn(1, 3, 1, 4)
        save(s, os.path.join(out, "05_input.pb"))
        save(torch.softmax(s.squeeze(), -1), os.path.join(out, "05_output.pb"))

        # 06: my_add.
        a = torch.randn(1, 3, 4, 4)
        b = torch.randn(1, 3, 4, 4)
        save(a, os.path.join(out, "06_a.pb"))
        save(b, os.path.join(out, "06_b.pb"))
        save(2 * a + b, os.path.join(out, "06_output.pb"))

        # 09: a layer list, its weights, and what PyTorch computes for it.
        with open(os.path.join(out, "09_layers.json"), "w") as f:
            json.dump(LAYERS, f, indent=1)
            f.write("\n")
        bicubic = torch_layers(LAYERS, None)
        bilinear = torch_layers(LAYERS, "bilinear")
        bilinear.load_state_dict(bicubic.state_dict())
        for module in bicubic:
            if isinstance(module, nn.Conv2d):
                layer = next(l for l in LAYERS if l.get("name") == module.tag)
                save(module.weight, os.path.join(out, layer["weight"]))
                save(module.bias, os.path.join(out, layer["bias"]))
        image = torch.rand(1, 3, 8, 8)
        save(image, os.path.join(out, "09_input.pb"))
        save(bicubic(image), os.path.join(out, "09_output_bicubic.pb"))
        save(bilinear(image), os.path.join(out, "09_output_bilinear.pb"))
    print("wrote", os.path.normpath(out))


if __name__ == "__main__":
    main()
