#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes the fixtures of tests/core/tst_baked_sizes.cpp: graphs whose export baked a size in.

Run with Debian's interpreter (python3-onnx 1.12, python3-numpy), offline:

    /usr/bin/python3 tests/data/baked/make_fixtures.py [--out tests/data/baked]

torch.onnx traces `F.interpolate(x, size=y.shape[-2:])` as `Resize(x, sizes=Concat(Slice(Shape(x), 0, 2),
Constant[h, w]))`: N and C follow the tensor, H and W are the numbers seen while tracing. At the traced input
size every shape infers; at any other the Resize still writes the traced H x W and the Concat that joins it to
a branch of the new size breaks, leaving every node after it without a shape.
"""

import argparse
import os

import numpy as np
import onnx
from onnx import TensorProto, external_data_helper, helper, numpy_helper

RNG = np.random.default_rng(0)
F = TensorProto.FLOAT


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name=name)


def conv(nodes, inits, x, y, cin, cout, k, stride=1, name=None, dilation=1):
    w = (name or y) + "_w"
    inits.append(init(w, (RNG.standard_normal((cout, cin, k, k)) * 0.1).astype(np.float32)))
    nodes.append(helper.make_node("Conv", [x, w], [y], name=name or y, kernel_shape=[k, k],
                                  strides=[stride, stride], pads=[dilation * (k // 2)] * 4,
                                  dilations=[dilation, dilation]))


def traced_resize(nodes, inits, x, y, name, h, w):
    """torch.onnx's F.interpolate(x, size=(h, w)) traced: sizes = Concat(Slice(Shape(x), 0, 2), Constant)."""
    inits += [init(name + "/s0", np.array([0], np.int64)), init(name + "/s2", np.array([2], np.int64))]
    nodes.append(helper.make_node("Shape", [x], [name + "/Shape_output_0"], name=name + "/Shape"))
    nodes.append(helper.make_node("Slice", [name + "/Shape_output_0", name + "/s0", name + "/s2"],
                                  [name + "/Slice_output_0"], name=name + "/Slice"))
    nodes.append(helper.make_node("Constant", [], [name + "/Constant_output_0"], name=name + "/Constant",
                                  value=init(name + "/hw", np.array([h, w], np.int64))))
    nodes.append(helper.make_node("Concat", [name + "/Slice_output_0", name + "/Constant_output_0"],
                                  [name + "/Concat_output_0"], name=name + "/Concat", axis=0))
    nodes.append(helper.make_node("Resize", [x, "", "", name + "/Concat_output_0"], [y], name=name + "/Resize",
                                  mode="linear", coordinate_transformation_mode="pytorch_half_pixel"))


def save_graph_only(model, path):
    """Weights of 1 KiB or more moved to an external file that is then deleted, as the samples are."""
    weights = os.path.basename(path) + ".weights"
    external_data_helper.convert_model_to_external_data(model, all_tensors_to_one_file=True, location=weights,
                                                        size_threshold=1024)
    onnx.save_model(model, path)
    os.remove(os.path.join(os.path.dirname(path), weights))


def baked_resize(size=64, constant_sizes=False):
    """x[1,3,64,64] -> stem Conv(8, 3x3, /2) -> Relu -+----------------------------------+-> Concat(axis 1)
                                                       +-> GlobalAveragePool -> Conv 1x1 -> Resize(sizes) -+
       -> head Conv(4, 1x1) -> y[1,4,32,32]
    Resize's sizes = Concat(Slice(Shape(pooled), 0, 2), Constant[32, 32]): the ASPP pooling branch of
    torchvision's DeepLabV3 as traced. At 64x64 every shape is known; at 48x48 the stem gives 24x24, the
    Resize still 32x32, and `cat` and `head` are left without a shape.
    constant_sizes: the sizes are one Constant [1, 8, 32, 32] (batch included), as an export traced without
    shape ops writes them: a batch of 2 then breaks `cat` too (baked_batch.onnx).
    """
    nodes, inits = [], []
    half = size // 2
    conv(nodes, inits, "x", "stem", 3, 8, 3, 2)
    nodes.append(helper.make_node("Relu", ["stem"], ["r"], name="stem_relu"))
    nodes.append(helper.make_node("GlobalAveragePool", ["r"], ["p"], name="pool"))
    conv(nodes, inits, "p", "pc", 8, 8, 1, name="pool_conv")
    if constant_sizes:
        nodes.append(helper.make_node("Constant", [], ["sizes"], name="size_const",
                                      value=init("sizes_value", np.array([1, 8, half, half], np.int64))))
    else:
        nodes.append(helper.make_node("Shape", ["pc"], ["pc_shape"], name="shape"))
        inits += [init("s0", np.array([0], np.int64)), init("s2", np.array([2], np.int64))]
        nodes.append(helper.make_node("Slice", ["pc_shape", "s0", "s2"], ["nc"], name="slice"))
        nodes.append(helper.make_node("Constant", [], ["hw"], name="size_const",
                                      value=init("hw_value", np.array([half, half], np.int64))))
        nodes.append(helper.make_node("Concat", ["nc", "hw"], ["sizes"], name="sizes_concat", axis=0))
    nodes.append(helper.make_node("Resize", ["pc", "", "", "sizes"], ["up"], name="upsample",
                                  mode="linear"))
    nodes.append(helper.make_node("Concat", ["r", "up"], ["cat"], name="cat", axis=1))
    conv(nodes, inits, "cat", "y", 16, 4, 1, name="head")
    graph = helper.make_graph(nodes, "baked_resize",
                              [helper.make_tensor_value_info("x", F, [1, 3, size, size])],
                              [helper.make_tensor_value_info("y", F, [1, 4, half, half])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="make_fixtures")
    model.ir_version = 8
    return model


def deeplabv3_like(size=520):
    """torchvision's DeepLabV3 (MobileNetV3-Large backbone) in outline, as torch.onnx exports it at 520x520:

        input[1,3,520,520] -> 4 stride-2 convs (260, 130, 65, 33) -> dilated conv -> 1x1 to 960 = features 33x33
        ASPP: 1x1 | 3x3 d12 | 3x3 d24 | 3x3 d36 | GlobalAveragePool -> 1x1 -> Relu -> Resize to 33x33 (traced)
        -> Concat (1280) -> project 1x1 -> 3x3 -> classifier 1x1 (21) -> Resize to 520x520 (traced) -> out

    Both Resizes take sizes = Concat(Slice(Shape(x), 0, 2), Constant[h, w]) with the numbers seen at 520.
    At 512x512 the features are 32x32, the pooling branch still 33x33, and the ASPP's Concat breaks.
    """
    nodes, inits = [], []
    x = "input"
    chans = [(3, 16), (16, 24), (24, 40), (40, 80)]
    for i, (cin, cout) in enumerate(chans):
        conv(nodes, inits, x, f"/backbone/{i}/Conv_output_0", cin, cout, 3, 2, name=f"/backbone/{i}/Conv")
        nodes.append(helper.make_node("Relu", [f"/backbone/{i}/Conv_output_0"], [f"/backbone/{i}/Relu_output_0"],
                                      name=f"/backbone/{i}/Relu"))
        x = f"/backbone/{i}/Relu_output_0"
    conv(nodes, inits, x, "/backbone/4/Conv_output_0", 80, 160, 3, name="/backbone/4/Conv", dilation=2)
    nodes.append(helper.make_node("Relu", ["/backbone/4/Conv_output_0"], ["/backbone/4/Relu_output_0"],
                                  name="/backbone/4/Relu"))
    conv(nodes, inits, "/backbone/4/Relu_output_0", "/backbone/5/Conv_output_0", 160, 960, 1,
         name="/backbone/5/Conv")
    nodes.append(helper.make_node("Relu", ["/backbone/5/Conv_output_0"], ["features"], name="/backbone/5/Relu"))
    aspp = "/classifier/classifier.0"
    branches = []
    for i, d in enumerate([1, 12, 24, 36]):
        p = f"{aspp}/convs.{i}"
        conv(nodes, inits, "features", p + "/Conv_output_0", 960, 256, 1 if d == 1 else 3, name=p + "/Conv",
             dilation=d)
        nodes.append(helper.make_node("Relu", [p + "/Conv_output_0"], [p + "/Relu_output_0"], name=p + "/Relu"))
        branches.append(p + "/Relu_output_0")
    p = f"{aspp}/convs.4"
    nodes.append(helper.make_node("GlobalAveragePool", ["features"], [p + "/GlobalAveragePool_output_0"],
                                  name=p + "/GlobalAveragePool"))
    conv(nodes, inits, p + "/GlobalAveragePool_output_0", p + "/Conv_output_0", 960, 256, 1, name=p + "/Conv")
    nodes.append(helper.make_node("Relu", [p + "/Conv_output_0"], [p + "/Relu_output_0"], name=p + "/Relu"))
    stage = -(-size // 16)
    traced_resize(nodes, inits, p + "/Relu_output_0", p + "/Resize_output_0", p, stage, stage)
    branches.append(p + "/Resize_output_0")
    nodes.append(helper.make_node("Concat", branches, [aspp + "/Concat_output_0"], name=aspp + "/Concat", axis=1))
    conv(nodes, inits, aspp + "/Concat_output_0", aspp + "/project/Conv_output_0", 1280, 256, 1,
         name=aspp + "/project/Conv")
    nodes.append(helper.make_node("Relu", [aspp + "/project/Conv_output_0"], [aspp + "/project/Relu_output_0"],
                                  name=aspp + "/project/Relu"))
    conv(nodes, inits, aspp + "/project/Relu_output_0", "/classifier/classifier.1/Conv_output_0", 256, 256, 3,
         name="/classifier/classifier.1/Conv")
    nodes.append(helper.make_node("Relu", ["/classifier/classifier.1/Conv_output_0"],
                                  ["/classifier/classifier.3/Relu_output_0"], name="/classifier/classifier.3/Relu"))
    conv(nodes, inits, "/classifier/classifier.3/Relu_output_0", "/classifier/classifier.4/Conv_output_0", 256, 21,
         1, name="/classifier/classifier.4/Conv")
    traced_resize(nodes, inits, "/classifier/classifier.4/Conv_output_0", "out", "", size, size)
    graph = helper.make_graph(nodes, "deeplabv3_like",
                              [helper.make_tensor_value_info("input", F, [1, 3, size, size])],
                              [helper.make_tensor_value_info("out", F, [1, 21, size, size])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="make_fixtures")
    model.ir_version = 8
    return model


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    out = ap.parse_args().out
    model = baked_resize()
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(out, "baked_resize.onnx"))
    model = baked_resize(constant_sizes=True)
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(out, "baked_batch.onnx"))
    model = deeplabv3_like()
    onnx.checker.check_model(model, full_check=True)
    save_graph_only(model, os.path.join(out, "deeplabv3_like.onnx"))


if __name__ == "__main__":
    main()
