#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Regenerates BpuScope's torchvision samples as graph-only ONNX files.

Run with Debian's interpreter (python3-torch 1.13, python3-torchvision 0.14, python3-onnx 1.12):

    /usr/bin/python3 samples/export_samples.py [--out samples] [NAME ...]

Every model is built with weights=None (random init: a profiler needs shapes, not values), exported with
torch.onnx.export, then made graph-only exactly like the calibration models: the initializers are moved to an
external-data file `<name>.weights` (size_threshold=1024) which is then deleted, so the .onnx keeps every
initializer's name, dims and dtype but none of the weight bytes. value_info is dropped (the calibration
exports carry none either), so a loader has to infer every intermediate shape itself.
"""

import argparse
import os
import sys
import time

import onnx
import torch
import torch.nn as nn
import torch.nn.functional as F
import torchvision

OPSET = 13


class FcosEfficientNetB0(nn.Module):
    """FCOS-style detector: efficientnet_b0 features + FPN (P3-P7, 256 ch) + shared FCOS head.

    Backbone taps (torchvision efficientnet_b0.features): stage 3 -> 40 ch / stride 8 (C3), stage 5 -> 112 ch /
    stride 16 (C4), stage 7 -> 320 ch / stride 32 (C5); the final 1x1 conv to 1280 ch (stage 8) is unused.
    FPN as in torchvision's FeaturePyramidNetwork: 1x1 laterals, nearest top-down upsampling + add, 3x3 output
    convs; P6/P7 from P5 by stride-2 3x3 convs (ReLU before P7), as FCOS' LastLevelP6P7. Head as in the FCOS
    paper / torchvision's FCOSHead: a 4 x (conv3x3 + GroupNorm(32) + ReLU) tower per branch, shared across
    levels; cls 80 (from the cls tower), box 4 and centerness 1 (both from the box tower). Outputs are the raw
    head maps per level (no decoding, no NMS).
    """

    def __init__(self, num_classes=80, ch=256):
        super().__init__()
        self.features = torchvision.models.efficientnet_b0(weights=None).features[:8]
        self.lateral = nn.ModuleList(nn.Conv2d(c, ch, 1) for c in (40, 112, 320))
        self.smooth = nn.ModuleList(nn.Conv2d(ch, ch, 3, padding=1) for _ in range(3))
        self.p6 = nn.Conv2d(ch, ch, 3, stride=2, padding=1)
        self.p7 = nn.Conv2d(ch, ch, 3, stride=2, padding=1)

        def tower():
            layers = []
            for _ in range(4):
                layers += [nn.Conv2d(ch, ch, 3, padding=1), nn.GroupNorm(32, ch), nn.ReLU()]
            return nn.Sequential(*layers)

        self.cls_tower = tower()
        self.box_tower = tower()
        self.cls_logits = nn.Conv2d(ch, num_classes, 3, padding=1)
        self.bbox_reg = nn.Conv2d(ch, 4, 3, padding=1)
        self.centerness = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x):
        taps = []
        for i, stage in enumerate(self.features):
            x = stage(x)
            if i in (3, 5, 7):
                taps.append(x)
        lat = [l(c) for l, c in zip(self.lateral, taps)]
        p5 = lat[2]
        p4 = lat[1] + F.interpolate(p5, size=lat[1].shape[-2:], mode="nearest")
        p3 = lat[0] + F.interpolate(p4, size=lat[0].shape[-2:], mode="nearest")
        p3, p4, p5 = (s(p) for s, p in zip(self.smooth, (p3, p4, p5)))
        p6 = self.p6(p5)
        p7 = self.p7(F.relu(p6))
        outs = []
        for p in (p3, p4, p5, p6, p7):
            c = self.cls_tower(p)
            b = self.box_tower(p)
            outs += [self.cls_logits(c), self.bbox_reg(b), self.centerness(b)]
        return tuple(outs)


class FcosEfficientNetB0Bpu(nn.Module):
    """The BPU-friendly FCOS-EfficientNetB0 the design guide measured (852.26 FPS unfused, 1206.89 fused).

    Horizon's model zoo builds it with a narrow neck and head for the BPU; this reconstruction follows that
    shape: efficientnet_b0 features (C3-C5) + a 64-channel FPN (P3-P7) + per-level heads of 4 x (conv3x3 +
    BatchNorm + ReLU) at 64 channels. Exported with BatchNormalization kept as nodes (as a QAT float model
    is), so Conv+BN[+ReLU] are the fusable chains the guide's fused/unfused pair compares. Only the
    fused/unfused ratio is calibrated on it, not its absolute FPS (the original graph is not public).
    """

    def __init__(self, num_classes=80, ch=64):
        super().__init__()
        self.features = torchvision.models.efficientnet_b0(weights=None).features[:8]
        self.lateral = nn.ModuleList(nn.Conv2d(c, ch, 1) for c in (40, 112, 320))
        self.smooth = nn.ModuleList(
            nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU()) for _ in range(3))
        self.p6 = nn.Sequential(nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.BatchNorm2d(ch), nn.ReLU())
        self.p7 = nn.Sequential(nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.BatchNorm2d(ch), nn.ReLU())

        def tower():
            layers = []
            for _ in range(4):
                layers += [nn.Conv2d(ch, ch, 3, padding=1), nn.BatchNorm2d(ch), nn.ReLU()]
            return nn.Sequential(*layers)

        self.cls_towers = nn.ModuleList(tower() for _ in range(5))
        self.box_towers = nn.ModuleList(tower() for _ in range(5))
        self.cls_logits = nn.ModuleList(nn.Conv2d(ch, num_classes, 3, padding=1) for _ in range(5))
        self.bbox_reg = nn.ModuleList(nn.Conv2d(ch, 4, 3, padding=1) for _ in range(5))
        self.centerness = nn.ModuleList(nn.Conv2d(ch, 1, 3, padding=1) for _ in range(5))

    def forward(self, x):
        taps = []
        for i, stage in enumerate(self.features):
            x = stage(x)
            if i in (3, 5, 7):
                taps.append(x)
        lat = [l(c) for l, c in zip(self.lateral, taps)]
        p5 = lat[2]
        p4 = lat[1] + F.interpolate(p5, size=lat[1].shape[-2:], mode="nearest")
        p3 = lat[0] + F.interpolate(p4, size=lat[0].shape[-2:], mode="nearest")
        p3, p4, p5 = (s(p) for s, p in zip(self.smooth, (p3, p4, p5)))
        p6 = self.p6(p5)
        p7 = self.p7(p6)
        outs = []
        for i, p in enumerate((p3, p4, p5, p6, p7)):
            c = self.cls_towers[i](p)
            b = self.box_towers[i](p)
            outs += [self.cls_logits[i](c), self.bbox_reg[i](b), self.centerness[i](b)]
        return tuple(outs)


def fcos_output_names():
    names = []
    for s in (8, 16, 32, 64, 128):
        names += [f"cls_s{s}", f"box_s{s}", f"ctr_s{s}"]
    return names


def classifier(ctor):
    def make():
        return ctor(weights=None), torch.rand(1, 3, 224, 224), ["input"], ["logits"]

    return make


def qat(ctor):
    # torchvision's quantizable model after the eager-mode QAT recipe: fuse Conv+BN+ReLU, attach the QAT
    # qconfig (FakeQuantize with moving-average min/max observers: version 0, since the default fused
    # observer+fake-quant op has no ONNX export), prepare_qat, one training step's forward to set the
    # observers, then freeze them. The export writes each FakeQuantize as QuantizeLinear -> Clip ->
    # DequantizeLinear (Clip holds the reduced quant range) and each weight as a float initializer ->
    # QuantizeLinear -> DequantizeLinear (per channel).
    def make():
        m = ctor(weights=None, quantize=False)
        m.eval()
        m.fuse_model(is_qat=True)
        m.qconfig = torch.ao.quantization.get_default_qat_qconfig("fbgemm", version=0)
        m.train()
        torch.ao.quantization.prepare_qat(m, inplace=True)
        m(torch.rand(2, 3, 224, 224))
        m.apply(torch.ao.quantization.disable_observer)
        return m, torch.rand(1, 3, 224, 224), ["input"], ["logits"]

    return make


def fcos():
    return FcosEfficientNetB0(), torch.rand(1, 3, 512, 512), ["input"], fcos_output_names()


def fcos_bpu():
    return FcosEfficientNetB0Bpu(), torch.rand(1, 3, 512, 512), ["input"], fcos_output_names()


def ssdlite():
    # The whole torchvision detector: resize transform, backbone, heads, anchors, box decoding, NMS.
    # Input is the list of images the detection API takes; one 3x320x320 image.
    m = torchvision.models.detection.ssdlite320_mobilenet_v3_large(weights=None, weights_backbone=None)
    return m, ([torch.rand(3, 320, 320)],), ["image"], ["boxes", "scores", "labels"]


def fasterrcnn():
    # Same API; the transform rescales to min_size 320 / max_size 640 through float arithmetic on the image
    # shape (Reciprocal, Min, Mul, Floor), which a loader has to fold to know the 320x320 Resize target.
    m = torchvision.models.detection.fasterrcnn_mobilenet_v3_large_320_fpn(weights=None, weights_backbone=None)
    return m, ([torch.rand(3, 320, 320)],), ["image"], ["boxes", "labels", "scores"]


SAMPLES = {
    "resnet18": (classifier(torchvision.models.resnet18), OPSET),
    "resnet18_qat": (qat(torchvision.models.quantization.resnet18), OPSET),
    "mobilenet_v2_qat": (qat(torchvision.models.quantization.mobilenet_v2), OPSET),
    "resnet50": (classifier(torchvision.models.resnet50), OPSET),
    "efficientnet_b0": (classifier(torchvision.models.efficientnet_b0), OPSET),
    "shufflenet_v2_x1_0": (classifier(torchvision.models.shufflenet_v2_x1_0), OPSET),
    "fcos_efficientnetb0": (fcos, OPSET),
    "fcos_efficientnetb0_bpu": (fcos_bpu, OPSET),
    "ssdlite320_mobilenet_v3_large": (ssdlite, OPSET),
    "fasterrcnn_mobilenet_v3_large_320_fpn": (fasterrcnn, OPSET),
}


def make_graph_only(path, name):
    """Moves initializers to <name>.weights, deletes that file, drops value_info, re-saves the graph."""
    model = onnx.load(path)
    del model.graph.value_info[:]
    weights = name + ".weights"
    onnx.save_model(model, path, save_as_external_data=True, all_tensors_to_one_file=True, location=weights,
                    size_threshold=1024)
    onnx.checker.check_model(path)  # by path, while the weights file still exists
    os.remove(os.path.join(os.path.dirname(path), weights))


def export(name, out_dir):
    make, opset = SAMPLES[name]
    torch.manual_seed(0)
    model, args, input_names, output_names = make()
    model.eval()
    path = os.path.join(out_dir, name + ".onnx")
    t0 = time.time()
    with torch.no_grad():
        # The BPU calibration variant keeps BatchNormalization nodes (PRESERVE skips the exporter's
        # Conv+BN folding), as a QAT float model does.
        keep_bn = name.endswith("_bpu")
        torch.onnx.export(model, args, path, opset_version=opset, input_names=input_names,
                          output_names=output_names, do_constant_folding=not keep_bn,
                          training=torch.onnx.TrainingMode.PRESERVE if keep_bn else torch.onnx.TrainingMode.EVAL)
    make_graph_only(path, name)
    params = sum(p.numel() for p in model.parameters())
    print(f"{name}: {os.path.getsize(path)} bytes, {params} params, {time.time() - t0:.1f} s", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("names", nargs="*", help="any of: " + ", ".join(SAMPLES) + " (default: all)")
    a = ap.parse_args()
    for n in a.names:
        if n not in SAMPLES:
            ap.error(f"unknown sample '{n}'")
    print(f"torch {torch.__version__}, torchvision {torchvision.__version__}, onnx {onnx.__version__}")
    for name in a.names or SAMPLES:
        export(name, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
