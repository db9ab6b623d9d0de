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
from onnx import TensorProto, helper, numpy_helper

RNG = np.random.default_rng(0)
F = TensorProto.FLOAT


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name=name)


def conv(nodes, inits, x, y, cin, cout, k, stride=1, name=None):
    w = (name or y) + "_w"
    inits.append(init(w, (RNG.standard_normal((cout, cin, k, k)) * 0.1).astype(np.float32)))
    nodes.append(helper.make_node("Conv", [x, w], [y], name=name or y, kernel_shape=[k, k],
                                  strides=[stride, stride], pads=[k // 2] * 4))


def baked_resize(size=64):
    """x[1,3,64,64] -> stem Conv(8, 3x3, /2) -> Relu -+----------------------------------+-> Concat(axis 1)
                                                       +-> GlobalAveragePool -> Conv 1x1 -> Resize(sizes) -+
       -> head Conv(4, 1x1) -> y[1,4,32,32]
    Resize's sizes = Concat(Slice(Shape(pooled), 0, 2), Constant[32, 32]): the ASPP pooling branch of
    torchvision's DeepLabV3 as traced. At 64x64 every shape is known; at 48x48 the stem gives 24x24, the
    Resize still 32x32, and `cat` and `head` are left without a shape.
    """
    nodes, inits = [], []
    half = size // 2
    conv(nodes, inits, "x", "stem", 3, 8, 3, 2)
    nodes.append(helper.make_node("Relu", ["stem"], ["r"], name="stem_relu"))
    nodes.append(helper.make_node("GlobalAveragePool", ["r"], ["p"], name="pool"))
    conv(nodes, inits, "p", "pc", 8, 8, 1, name="pool_conv")
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    out = ap.parse_args().out
    model = baked_resize()
    onnx.checker.check_model(model, full_check=True)
    onnx.save(model, os.path.join(out, "baked_resize.onnx"))


if __name__ == "__main__":
    main()
