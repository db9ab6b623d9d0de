#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Exports one network (torchvision ResNet-18) several times for the compare tests, as graph-only ONNX files.

Run with Debian's interpreter (python3-torch 1.13, python3-torchvision 0.14, python3-onnx 1.12), offline:

    /usr/bin/python3 tests/data/compare/make_fixtures.py [--out DIR]

  resnet18.onnx           the network exported as is: torch's scoped node names ("/layer1/layer1.0/conv1/Conv"),
                          input "input", output "logits"
  resnet18_renamed.onnx   the same network and weights inside a wrapper module (attribute "backbone"), with other
                          input/output names: every node and tensor name differs ("/backbone/layer1/...")
  resnet18_softmax256.onnx the wrapper with a Softmax after the classifier, exported at 256x256: every shape
                          differs and one node (the Softmax) exists only here

Graph-only as in samples/export_samples.py: initializers moved to an external-data file that is then deleted.
"""

import argparse
import os

import onnx
import torch
import torch.nn as nn
import torchvision

OPSET = 13


class Wrapped(nn.Module):
    def __init__(self, backbone, softmax=False):
        super().__init__()
        self.backbone = backbone
        self.head = nn.Softmax(dim=1) if softmax else nn.Identity()

    def forward(self, image):
        return self.head(self.backbone(image))


def graph_only(path):
    model = onnx.load(path)
    del model.graph.value_info[:]
    weights = os.path.basename(path) + ".weights"
    onnx.save_model(model, path, save_as_external_data=True, all_tensors_to_one_file=True, location=weights,
                    size_threshold=1024)
    onnx.checker.check_model(path)
    os.remove(os.path.join(os.path.dirname(path), weights))


def export(model, size, path, input_name, output_name):
    model.eval()
    with torch.no_grad():
        torch.onnx.export(model, torch.rand(1, 3, size, size), path, opset_version=OPSET,
                          input_names=[input_name], output_names=[output_name], do_constant_folding=True)
    graph_only(path)
    print(f"{os.path.basename(path)}: {os.path.getsize(path)} bytes")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    torch.manual_seed(0)
    net = torchvision.models.resnet18(weights=None)
    export(net, 224, os.path.join(args.out, "resnet18.onnx"), "input", "logits")
    export(Wrapped(net), 224, os.path.join(args.out, "resnet18_renamed.onnx"), "image", "scores")
    export(Wrapped(net, softmax=True), 256, os.path.join(args.out, "resnet18_softmax256.onnx"), "image", "probs")


if __name__ == "__main__":
    main()
