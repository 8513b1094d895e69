#!/usr/bin/python3
"""The test corpus of the ONNX converter: small torchvision models as torch.onnx.export writes them.

Writes into tests/data/convert/ (or the folder given as the first argument), for each model
M of MODELS (tiny widths, the same graph patterns as the full torchvision architectures):
  M_input.pb                      the test input (seeded), an ONNX TensorProto named "input"
  M_op13.onnx, M_op17.onnx        the model as torch writes it (random init, eval mode)
  M_op13_perturbed.onnx, ...      the same model after small noise on every float parameter
                                  and buffer (no two weights are equal any more, so torch has
                                  nothing to deduplicate)
  M_op<N>_perturbed_dynamic.onnx  the perturbed model with a dynamic batch ("n", torch's
                                  dynamic_axes on the input and every output)
  M_input_batch3.pb               a test input of batch 3, for the dynamic variants; their
                                  M_..._dynamic_torch_output.pb are PyTorch's outputs on it
  M_op<N>[_perturbed]_torch_output.pb   PyTorch's output on M_input.pb, named "output"; of a
                                  model with several outputs, M_..._torch_output<K>.pb is the
                                  K-th, named as the ONNX output (output<K>, or the model's
                                  output_names)
  manifest.txt                    per file: size, node count, Identity count, op types

With --full DIR, exports the full-size torchvision models instead (resnet18, mobilenet_v2,
shufflenet_v2_x0_5, convnext_tiny, vit_b_16, swin_t, maxvit_t, ssdlite320_mobilenet_v3_large as
ssdlite320, the same detector without its post-processing as ssdlite_head, the video
classifiers r3d_18 and r2plus1d_18, and raft_small), random init (nothing is downloaded), at both opsets and in both variants, with the same file naming,
into DIR (manifest.txt there lists the models of that run). That takes minutes and writes
about 2.6 GB; it is not part of the committed corpus.

With MODEL names, only those are written (into the small corpus, the manifest keeps the lines
of the others; the export is deterministic, so rewriting a model gives the same bytes).

Run with Debian's python (torch 1.13, torchvision 0.14, onnx 1.12):
  /usr/bin/python3 tools/make_convert_corpus.py [OUT_DIR [MODEL ...]]
  /usr/bin/python3 tools/make_convert_corpus.py --full DIR [MODEL ...]
"""
import collections
import functools
import os
import re
import sys

import onnx
import torch
import torchvision
from onnx import numpy_helper
from torch import nn
from torchvision.models import resnet
from torchvision.models.convnext import CNBlockConfig

OPSETS = (13, 17)
SEED = 20261123


# ---------------------------------------------------------------- the tiny models

class TinyResNet(resnet.ResNet):
    """ResNet-18's structure (stem, maxpool, 4 stages of BasicBlock with downsample, adaptive
    average pool, flatten, fc) with widths 4-8-12-16 and one block per stage."""

    def __init__(self, widths=(4, 8, 12, 16), num_classes=10):
        nn.Module.__init__(self)
        self._norm_layer = nn.BatchNorm2d
        self.inplanes, self.dilation, self.groups, self.base_width = widths[0], 1, 1, 64
        self.conv1 = nn.Conv2d(3, widths[0], kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(widths[0])
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(resnet.BasicBlock, widths[0], 1)
        self.layer2 = self._make_layer(resnet.BasicBlock, widths[1], 1, stride=2)
        self.layer3 = self._make_layer(resnet.BasicBlock, widths[2], 1, stride=2)
        self.layer4 = self._make_layer(resnet.BasicBlock, widths[3], 1, stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(widths[3], num_classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, nn.BatchNorm2d):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)


class SuperResolutionNet(nn.Module):
    """The SRCNN tutorial model (tools/make_srcnn_reference.py): a bicubic x3 upsampler, then
    conv 9x9, relu, conv 1x1, relu, conv 5x5 (widths 16 and 8 instead of 64 and 32)."""

    def __init__(self):
        super().__init__()
        self.img_upsampler = nn.Upsample(scale_factor=3, mode="bicubic", align_corners=False)
        self.conv1 = nn.Conv2d(3, 16, kernel_size=9, padding=4)
        self.conv2 = nn.Conv2d(16, 8, kernel_size=1, padding=0)
        self.conv3 = nn.Conv2d(8, 3, kernel_size=5, padding=2)
        self.relu = nn.ReLU()

    def forward(self, x):
        x = self.img_upsampler(x)
        out = self.relu(self.conv1(x))
        out = self.relu(self.conv2(out))
        return self.conv3(out)


class FeatureMaps(nn.Module):
    """A ResNet's feature maps before global pooling, next to its logits (as a detector's or a
    segmenter's backbone hands them on): outputs "logits", "layer3" and "layer2". On a
    non-square input the maps' channels, height and width all differ, so values put in the
    wrong spatial order (NHWC read as NCHW, height for width) change the shape or the values
    instead of vanishing in the pooling."""

    output_names = ["logits", "layer3", "layer2"]

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        n = self.net
        x = n.maxpool(n.relu(n.bn1(n.conv1(x))))
        layer2 = n.layer2(n.layer1(x))
        layer3 = n.layer3(layer2)
        logits = n.fc(torch.flatten(n.avgpool(n.layer4(layer3)), 1))
        return logits, layer3, layer2


M = torchvision.models
V = torchvision.models.video.resnet


class TinyVideoResNet(V.VideoResNet):
    """torchvision's VideoResNet (r3d_18 with Conv3DSimple, r2plus1d_18 with Conv2Plus1D) at
    widths 8, 16, 24, 32 and one block per stage; torchvision fixes a 64-channel stem, so the
    stem is built here as its BasicStem is, narrower. Its forward, and so its export, is
    torchvision's own: it ends in the 5-D GlobalAveragePool OpenCV 4.6 fails to load."""

    def __init__(self, conv_maker, stem_mid=None):
        nn.Module.__init__(self)
        self.inplanes = 8
        if stem_mid is None:  # r3d's BasicStem
            self.stem = nn.Sequential(
                nn.Conv3d(3, 8, kernel_size=(3, 7, 7), stride=(1, 2, 2), padding=(1, 3, 3),
                          bias=False), nn.BatchNorm3d(8), nn.ReLU(inplace=True))
        else:  # r2plus1d's R2Plus1dStem: a spatial then a temporal convolution
            self.stem = nn.Sequential(
                nn.Conv3d(3, stem_mid, kernel_size=(1, 7, 7), stride=(1, 2, 2),
                          padding=(0, 3, 3), bias=False), nn.BatchNorm3d(stem_mid),
                nn.ReLU(inplace=True),
                nn.Conv3d(stem_mid, 8, kernel_size=(3, 1, 1), stride=(1, 1, 1),
                          padding=(1, 0, 0), bias=False), nn.BatchNorm3d(8), nn.ReLU(inplace=True))
        for i, planes in enumerate((8, 16, 24, 32)):
            setattr(self, f"layer{i + 1}",
                    self._make_layer(V.BasicBlock, conv_maker, planes, 1, stride=1 if i == 0 else 2))
        self.avgpool = nn.AdaptiveAvgPool3d((1, 1, 1))
        self.fc = nn.Linear(32, 10)


def tiny_mobilenet_v2():
    """torchvision's MobileNetV2 (width 0.25, three inverted-residual stages); its last 1x1
    convolution (always 1280 channels in torchvision) is swapped for one of 64 channels."""
    m = M.MobileNetV2(num_classes=10, width_mult=0.25,
                      inverted_residual_setting=[[1, 16, 1, 1], [6, 24, 2, 2], [6, 32, 1, 2]])
    last = m.features[-1]
    m.features[-1] = type(last)(last[0].in_channels, 64, kernel_size=1, norm_layer=nn.BatchNorm2d,
                                activation_layer=nn.ReLU6)
    m.classifier[1] = nn.Linear(64, 10)
    return m


class TinyDetectorBackbone(nn.Module):
    """Two feature maps of a few strided 3x3 convolutions with BatchNorm and Hardswish (as
    SSDlite's MobileNetV3 gives them): 16 channels at 1/8 of the input, 24 at 1/16."""

    def __init__(self):
        super().__init__()
        norm = functools.partial(nn.BatchNorm2d, eps=0.001, momentum=0.03)

        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, 2, 1, bias=False), norm(o), nn.Hardswish())
        self.stage1 = nn.Sequential(block(3, 8), block(8, 16), block(16, 16))
        self.stage2 = block(16, 24)

    def forward(self, x):
        a = self.stage1(x)
        return collections.OrderedDict([("0", a), ("1", self.stage2(a))])


def tiny_ssdlite():
    """torchvision's SSD with SSDlite's head (depthwise separable predictors) over a tiny
    backbone, for 64 x 64 images and 5 classes: the same post-processing as
    ssdlite320_mobilenet_v3_large (box decoding, score threshold, per-class top-k, batched
    NMS), which OpenCV 4.6 cannot compute; its outputs are boxes, scores and labels."""
    from torchvision.models.detection.anchor_utils import DefaultBoxGenerator
    from torchvision.models.detection.ssd import SSD
    from torchvision.models.detection.ssdlite import SSDLiteHead
    anchors = DefaultBoxGenerator([[2, 3], [2, 3]], min_ratio=0.2, max_ratio=0.95)
    head = SSDLiteHead([16, 24], anchors.num_anchors_per_location(), 5,
                       functools.partial(nn.BatchNorm2d, eps=0.001, momentum=0.03))
    model = SSD(TinyDetectorBackbone(), anchors, (64, 64), 5, head=head, score_thresh=0.001,
                nms_thresh=0.55, detections_per_img=50, topk_candidates=50,
                image_mean=[0.5] * 3, image_std=[0.5] * 3)
    model.output_names = ["boxes", "scores", "labels"]
    return model


class TinyFpnBackbone(nn.Module):
    """TinyDetectorBackbone's two maps through a feature pyramid of `width` channels, as
    RetinaNet, FCOS and Faster R-CNN take a ResNet's (one width over every level)."""

    def __init__(self, width=16):
        super().__init__()
        from torchvision.ops import FeaturePyramidNetwork
        self.body = TinyDetectorBackbone()
        self.fpn = FeaturePyramidNetwork([16, 24], width)
        self.out_channels = width

    def forward(self, x):
        return self.fpn(self.body(x))


# What the tiny detectors share: 64 x 64 images (no resizing), 5 classes, a low score threshold
# and 50 detections, so that random weights still detect.
DETECTOR = dict(min_size=64, max_size=64, image_mean=[0.5] * 3, image_std=[0.5] * 3)


def tiny_ssd():
    """torchvision's SSD with its own head (plain 3x3 convolutions, as ssd300_vgg16's)."""
    from torchvision.models.detection.anchor_utils import DefaultBoxGenerator
    from torchvision.models.detection.ssd import SSD
    anchors = DefaultBoxGenerator([[2, 3], [2, 3]], min_ratio=0.2, max_ratio=0.95)
    model = SSD(TinyDetectorBackbone(), anchors, (64, 64), 5, score_thresh=0.001,
                nms_thresh=0.45, detections_per_img=50, topk_candidates=50,
                image_mean=[0.5] * 3, image_std=[0.5] * 3)
    model.output_names = ["boxes", "scores", "labels"]
    return model


def pyramid_anchors():
    from torchvision.models.detection.anchor_utils import AnchorGenerator
    return AnchorGenerator(((16,), (32,)), ((0.5, 1.0, 2.0),) * 2)


def tiny_retinanet():
    """torchvision's RetinaNet (its head's four convolutions per branch, focal-loss bias)."""
    from torchvision.models.detection.retinanet import RetinaNet
    model = RetinaNet(TinyFpnBackbone(), 5, anchor_generator=pyramid_anchors(),
                      score_thresh=0.001, detections_per_img=50, topk_candidates=50, **DETECTOR)
    # Its head starts with tiny weights at the focal-loss prior, every score near 0.01: near-equal
    # scores that two engines rank differently. Spread, as a trained one's are.
    for m in model.head.modules():
        if isinstance(m, nn.Conv2d):
            nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
            nn.init.zeros_(m.bias)
    model.output_names = ["boxes", "scores", "labels"]
    return model


def tiny_fcos():
    """torchvision's FCOS, anchor-free (one point per location, centerness), its head of one
    GroupNorm convolution per branch (GroupNorm's 32 groups: a pyramid 32 wide)."""
    from torchvision.models.detection.anchor_utils import AnchorGenerator
    from torchvision.models.detection.fcos import FCOS, FCOSHead
    model = FCOS(TinyFpnBackbone(32), 5, head=FCOSHead(32, 1, 5, num_convs=1),
                 anchor_generator=AnchorGenerator(((8,), (16,)), ((1.0,),) * 2),
                 score_thresh=0.001, detections_per_img=50, topk_candidates=50, **DETECTOR)
    model.output_names = ["boxes", "scores", "labels"]
    return model


def r_cnn(kind, size, heads=dict):
    """torchvision's two-stage detector `kind` (FasterRCNN, MaskRCNN) over the small pyramid:
    the region proposals (TopK, NMS), then the box head over RoIAlign of the proposals, a
    two-layer MLP 32 wide, and the heads the kind adds (`heads()`, made after the box head, as
    torchvision's arguments are); for `size` x `size` images."""
    from torchvision.models.detection.faster_rcnn import FastRCNNPredictor, TwoMLPHead
    from torchvision.ops import MultiScaleRoIAlign
    return kind(TinyFpnBackbone(), rpn_anchor_generator=pyramid_anchors(),
                box_roi_pool=MultiScaleRoIAlign(["0", "1"], 7, 2),
                box_head=TwoMLPHead(16 * 7 * 7, 32), box_predictor=FastRCNNPredictor(32, 5),
                **heads(), rpn_pre_nms_top_n_test=100, rpn_post_nms_top_n_test=50,
                box_score_thresh=0.001, box_detections_per_img=50,
                **dict(DETECTOR, min_size=size, max_size=size))


def tiny_faster_rcnn():
    """torchvision's Faster R-CNN, for 64 x 64 images."""
    from torchvision.models.detection.faster_rcnn import FasterRCNN
    model = r_cnn(FasterRCNN, 64)
    model.output_names = ["boxes", "labels", "scores"]  # its dict's order
    return model


def tiny_mask_rcnn():
    """torchvision's Mask R-CNN: Faster R-CNN's stages, then a mask head over RoIAlign of the
    detections (two convolutions 16 wide, a transposed convolution, a mask per class), its
    masks pasted into the image, for 32 x 32 images (a mask per detection, as large)."""
    from torchvision.models.detection.mask_rcnn import MaskRCNN, MaskRCNNHeads, MaskRCNNPredictor
    from torchvision.ops import MultiScaleRoIAlign

    def heads():
        return dict(mask_roi_pool=MultiScaleRoIAlign(["0", "1"], 14, 2),
                    mask_head=MaskRCNNHeads(16, [16, 16], 1),
                    mask_predictor=MaskRCNNPredictor(16, 16, 5))
    model = r_cnn(MaskRCNN, 32, heads)
    model.output_names = ["boxes", "labels", "scores", "masks"]  # its dict's order
    return model


class PairOfImages(nn.Module):
    """A RAFT taking its two images as one input of 6 channels (the corpus's models take one),
    its last flow estimate the output."""

    def __init__(self, raft, num_flow_updates=12):
        super().__init__()
        self.raft, self.num_flow_updates = raft, num_flow_updates

    def forward(self, x):
        return self.raft(x[:, :3], x[:, 3:], num_flow_updates=self.num_flow_updates)[-1]


def tiny_raft():
    """torchvision's RAFT in raft_small's layout (bottleneck encoders, instance-normalized
    features, 4 correlation levels of radius 3) at tiny widths, 2 flow updates. Its correlation
    lookups are GridSample, which OpenCV 4.6 has no layer for: a partition."""
    from torchvision.models.optical_flow.raft import _raft, BottleneckBlock
    return PairOfImages(_raft(
        weights=None, progress=False,
        feature_encoder_layers=(8, 8, 16, 16, 16), feature_encoder_block=BottleneckBlock,
        feature_encoder_norm_layer=nn.InstanceNorm2d,
        context_encoder_layers=(8, 8, 16, 16, 24), context_encoder_block=BottleneckBlock,
        context_encoder_norm_layer=None, corr_block_num_levels=4, corr_block_radius=3,
        motion_encoder_corr_layers=(16,), motion_encoder_flow_layers=(16, 8),
        motion_encoder_out_channels=10, recurrent_block_hidden_state_size=8,
        recurrent_block_kernel_size=(3,), recurrent_block_padding=(1,),
        flow_head_hidden_size=16, use_mask_predictor=False), num_flow_updates=2)


# name: (constructor, input shape)
MODELS = {
    "resnet18": (lambda: TinyResNet(), (1, 3, 32, 32)),
    "mobilenet_v2": (tiny_mobilenet_v2, (1, 3, 32, 32)),
    "shufflenet_v2": (lambda: M.ShuffleNetV2([2, 1, 1], [8, 16, 32, 64, 128], num_classes=10),
                      (1, 3, 32, 32)),
    "convnext_tiny": (lambda: M.ConvNeXt([CNBlockConfig(8, 16, 1), CNBlockConfig(16, None, 1)],
                                         stochastic_depth_prob=0.0, num_classes=10), (1, 3, 32, 32)),
    "vit": (lambda: M.VisionTransformer(image_size=32, patch_size=8, num_layers=1, num_heads=2,
                                        hidden_dim=16, mlp_dim=32, num_classes=10), (1, 3, 32, 32)),
    "swin_t": (lambda: M.SwinTransformer(patch_size=[4, 4], embed_dim=16, depths=[2, 1],
                                         num_heads=[1, 2], window_size=[4, 4],
                                         stochastic_depth_prob=0.0, num_classes=10), (1, 3, 64, 64)),
    "srcnn": (lambda: SuperResolutionNet(), (1, 3, 16, 16)),
    # layer3 [1, 12, 3, 4] and layer2 [1, 8, 6, 8]
    "resnet18_features": (lambda: FeatureMaps(TinyResNet()), (1, 3, 48, 64)),
    # video: [N, C, T, H, W]
    "r3d_18": (lambda: TinyVideoResNet(V.Conv3DSimple), (1, 3, 8, 32, 32)),
    "r2plus1d_18": (lambda: TinyVideoResNet(V.Conv2Plus1D, stem_mid=6), (1, 3, 8, 32, 32)),
    # detectors: OpenCV runs their networks, ONNX Runtime their post-processing (a partition)
    "ssdlite": (tiny_ssdlite, (1, 3, 64, 64)),
    "ssd": (tiny_ssd, (1, 3, 64, 64)),
    "retinanet": (tiny_retinanet, (1, 3, 64, 64)),
    "fcos": (tiny_fcos, (1, 3, 64, 64)),
    "faster_rcnn": (tiny_faster_rcnn, (1, 3, 64, 64)),
    # 32 x 32: its masks are pasted into the image, one per detection
    "mask_rcnn": (tiny_mask_rcnn, (1, 3, 32, 32)),
    # MBConv, block (window) and grid attention, whose q k^T torch writes as Einsum
    "maxvit": (lambda: M.maxvit.MaxVit(input_size=(64, 64), stem_channels=8, partition_size=4,
                                       block_channels=[16, 32], block_layers=[1, 1], head_dim=8,
                                       stochastic_depth_prob=0.0, num_classes=10),
               (1, 3, 64, 64)),
    # optical flow, two 128 x 128 images as one input (at 64 x 64 the last correlation level
    # is 1 x 1 and GridSample divides by 0)
    "raft": (tiny_raft, (1, 6, 128, 128)),
}

class DetectorHead(nn.Module):
    """A detector without its post-processing (anchor decoding, score threshold, NMS): the
    backbone's feature maps through the head, as bbox_regression and cls_logits."""

    def __init__(self, detector):
        super().__init__()
        self.backbone, self.head = detector.backbone, detector.head

    def forward(self, x):
        features = list(self.backbone(x).values())
        return self.head(features)


def ssdlite():
    model = M.detection.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None)
    model.output_names = ["boxes", "scores", "labels"]  # what the corpus test compares as sets
    return model


FULL_MODELS = {
    "resnet18": (lambda: M.resnet18(), (1, 3, 224, 224)),
    "resnet18_features": (lambda: FeatureMaps(M.resnet18()), (1, 3, 224, 288)),
    "mobilenet_v2": (lambda: M.mobilenet_v2(), (1, 3, 224, 224)),
    "shufflenet_v2": (lambda: M.shufflenet_v2_x0_5(), (1, 3, 224, 224)),
    "convnext_tiny": (lambda: M.convnext_tiny(), (1, 3, 224, 224)),
    "vit": (lambda: M.vit_b_16(), (1, 3, 224, 224)),
    "swin_t": (lambda: M.swin_t(), (1, 3, 224, 224)),
    "maxvit": (lambda: M.maxvit_t(), (1, 3, 224, 224)),
    "ssdlite320": (ssdlite, (1, 3, 320, 320)),
    "ssdlite_head": (lambda: DetectorHead(ssdlite()), (1, 3, 320, 320)),
    "r3d_18": (lambda: M.video.r3d_18(), (1, 3, 16, 112, 112)),
    "r2plus1d_18": (lambda: M.video.r2plus1d_18(), (1, 3, 16, 112, 112)),
    # optical flow, two 224 x 224 images as one input of 6 channels, 12 flow updates
    "raft_small": (lambda: PairOfImages(M.optical_flow.raft_small()), (1, 6, 224, 224)),
}


# ---------------------------------------------------------------- export

# Models exported with a static batch only, because torch 1.13 exports no dynamic one that
# ONNX Runtime runs: a detector traces its list of images as one image (a Split into one part,
# which fails at a batch of 3), and RAFT's correlation scale with an open batch becomes a Sqrt
# of an int64, which ONNX Runtime refuses to load.
DETECTORS = {"ssdlite", "ssdlite320", "ssd", "retinanet", "fcos", "faster_rcnn", "mask_rcnn"}
STATIC_ONLY = DETECTORS | {"raft", "raft_small"}
# Models exported at other opsets: GridSample needs opset 16. (From opset 16 on, torch 1.13
# writes RoIAlign without its coordinate_transformation_mode, whose default, half_pixel, is not
# torchvision's output_half_pixel: the R-CNNs' op17 files run on ONNX Runtime otherwise than
# on PyTorch, and the corpus test checks them against ONNX Runtime alone.)
OPSETS_OF = {"raft": (17,), "raft_small": (17,)}

def perturb(model, generator):
    """Adds noise (standard deviation 0.02) to every floating-point parameter and buffer."""
    with torch.no_grad():
        for t in list(model.parameters()) + list(model.buffers()):
            if t.is_floating_point():
                t.add_(2e-2 * torch.randn(t.shape, generator=generator))


def save_tensor(array, name, path):
    t = numpy_helper.from_array(array, name)
    with open(path, "wb") as f:
        f.write(t.SerializeToString())


def flatten_outputs(y):
    """The model's outputs as a list of tensors (detection models give a list of dicts)."""
    if isinstance(y, torch.Tensor):
        return [y]
    if isinstance(y, dict):  # in the dict's order, which is the export's
        return [t for k in y for t in flatten_outputs(y[k])]
    return [t for e in y for t in flatten_outputs(e)]


def describe(path):
    m = onnx.load(path)
    ops = collections.Counter(n.op_type for n in m.graph.node)
    return (f"{os.path.basename(path)} {os.path.getsize(path)} bytes, {len(m.graph.node)} nodes, "
            f"Identity {ops.get('Identity', 0)}, ops: "
            + " ".join(f"{k}:{v}" for k, v in sorted(ops.items())))


def export_model(name, make, shape, out):
    opsets = OPSETS_OF.get(name, OPSETS)
    lines = []
    torch.manual_seed(SEED)
    x = torch.rand(*shape) if name == "srcnn" or name in DETECTORS else torch.randn(*shape)
    save_tensor(x.numpy(), "input", os.path.join(out, f"{name}_input.pb"))
    if name not in STATIC_ONLY:
        torch.manual_seed(SEED + 3)
        x3 = torch.rand(3, *shape[1:]) if name == "srcnn" else torch.randn(3, *shape[1:])
        save_tensor(x3.numpy(), "input", os.path.join(out, f"{name}_input_batch3.pb"))
    for perturbed in (False, True):
        torch.manual_seed(SEED + 1)
        model = make().eval()
        if perturbed:
            perturb(model, torch.Generator().manual_seed(SEED + 2))
        with torch.no_grad():
            ys = flatten_outputs(model(x))
        out_names = getattr(model, "output_names", None) or (
            ["output"] if len(ys) == 1 else [f"output{i}" for i in range(len(ys))])
        # The perturbed variant with a dynamic batch too (torch's dynamic_axes), with
        # PyTorch's outputs at batch 3: batch 1 is the static variant's input and outputs.
        dynamic = perturbed and name not in STATIC_ONLY
        if dynamic:
            with torch.no_grad():
                ys3 = flatten_outputs(model(x3))
        for opset in opsets:
            stem = f"{name}_op{opset}" + ("_perturbed" if perturbed else "")
            lines += export_one(model, x, ys, out_names, out, stem, opset, None)
            if dynamic:
                axes = {n: {0: "n"} for n in ["input"] + out_names}
                lines += export_one(model, x, ys3, out_names, out, stem + "_dynamic", opset, axes)
    return lines


def export_one(model, x, ys, out_names, out, stem, opset, dynamic_axes):
    path = os.path.join(out, stem + ".onnx")
    try:
        torch.onnx.export(model, (x,), path, opset_version=opset, input_names=["input"],
                          output_names=out_names, do_constant_folding=True,
                          dynamic_axes=dynamic_axes)
    except Exception as e:  # recorded in the manifest, the other files still get written
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        line = f"{stem}.onnx NOT EXPORTED: {type(e).__name__}: {first}"
        print(line, file=sys.stderr)
        return [line]
    for i, (y, n) in enumerate(zip(ys, out_names)):
        suffix = "" if len(ys) == 1 else str(i)
        save_tensor(y.numpy(), n, os.path.join(out, f"{stem}_torch_output{suffix}.pb"))
    print(describe(path))
    return [describe(path)]


def manifest_lines(path, names):
    """The lines of an existing manifest, per model of names (those of other models dropped)."""
    out = {name: [] for name in names}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f.read().splitlines()[1:]:
            for name in names:
                if re.match(re.escape(name) + r"_op\d+(_perturbed)?(_dynamic)?\.onnx ", line):
                    out[name].append(line)
    return out


def main(argv):
    full = len(argv) > 1 and argv[1] == "--full"
    if full:
        if len(argv) < 3:
            sys.exit(__doc__)
        out, table, only = argv[2], FULL_MODELS, argv[3:]
    else:
        out = argv[1] if len(argv) > 1 else os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "convert")
        table, only = MODELS, argv[2:]
    unknown = [k for k in only if k not in table]
    if unknown:
        sys.exit(f"unknown model(s): {' '.join(unknown)}; known: {' '.join(table)}")
    models = {k: table[k] for k in only} if only else table
    os.makedirs(out, exist_ok=True)
    manifest = os.path.join(out, "manifest.txt")
    # Models not written this time keep their lines (the small corpus only).
    lines = {} if full else manifest_lines(manifest, table)
    for name, (make, shape) in models.items():
        lines[name] = export_model(name, make, shape, out)
    with open(manifest, "w") as f:
        f.write(f"# written by tools/make_convert_corpus.py{' --full' if full else ''} "
                f"(torch {torch.__version__.split('a')[0]}, torchvision "
                f"{torchvision.__version__.split('a')[0]}, onnx {onnx.__version__})\n")
        f.write("\n".join(line for name in table if name in lines for line in lines[name]) + "\n")


if __name__ == "__main__":
    main(sys.argv)
