#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes the synthetic scale cases of bpuscope-bench (ScaleBench.cpp): graph-only ONNX models of a given
size whose weights are declared as external data that is never written (BpuScope never reads weights, and
python's floor loads with load_external_data=False), so a 100k-node file stays small.

  gen_scale_models.py KIND NODES OUT.onnx      KIND: chain | wide | transformer

Node names carry exporter-style name scopes (/stage3/block12/conv/Conv, /model.7/branch2/Conv,
/encoder/layers.3/attn/MatMul) so the graph view's scope collapsing sees what real exports give it.
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

FLOAT = TensorProto.FLOAT


class Builder:
    def __init__(self, name):
        self.g = onnx.GraphProto()
        self.g.name = name

    def weight(self, name, dims):
        # Declared, located in a file that does not exist: the model is graph-only.
        t = self.g.initializer.add()
        t.name = name
        t.data_type = FLOAT
        t.dims.extend(dims)
        t.data_location = TensorProto.EXTERNAL
        kv = t.external_data.add()
        kv.key = "location"
        kv.value = "weights.bin"
        return name

    def ints(self, name, values):
        # Shape operands must be real data: shape inference reads them.
        t = helper.make_tensor(name, TensorProto.INT64, [len(values)], values)
        self.g.initializer.append(t)
        return name

    def node(self, op, name, inputs, outputs=None, **attrs):
        out = outputs or [name + ":0"]
        n = self.g.node.add()
        n.op_type = op
        n.name = name
        n.input.extend(inputs)
        n.output.extend(out)
        for k, v in attrs.items():
            n.attribute.append(helper.make_attribute(k, v))
        return out[0]

    def input(self, name, dims):
        self.g.input.append(helper.make_tensor_value_info(name, FLOAT, dims))
        return name

    def output(self, name):
        self.g.output.append(helper.make_tensor_value_info(name, FLOAT, None))

    def model(self, opset):
        m = helper.make_model(self.g, producer_name="bpuscope-bench",
                              opset_imports=[helper.make_opsetid("", opset)])
        m.ir_version = 8
        return m


def chain(nodes):
    """Conv -> Relu -> Add(shortcut) blocks (3 nodes each), 16 blocks per stage scope."""
    b = Builder("scale_chain")
    c = 32
    cur = b.input("x", [1, c, 28, 28])
    for i in range(max(1, nodes // 3)):
        p = "/stage%d/block%d" % (i // 16, i)
        w = b.weight(p + "/conv.weight", [c, c, 3, 3])
        y = b.node("Conv", p + "/conv/Conv", [cur, w], pads=[1, 1, 1, 1], kernel_shape=[3, 3])
        y = b.node("Relu", p + "/relu/Relu", [y])
        cur = b.node("Add", p + "/Add", [y, cur])
    b.output(cur)
    return b.model(13)


def wide(nodes):
    """Blocks of 8 parallel Conv -> Relu branches, concatenated and fused by a 1x1 conv (18 nodes each)."""
    b = Builder("scale_wide")
    c, branches = 16, 8
    cur = b.input("x", [1, c, 20, 20])
    for i in range(max(1, nodes // (2 * branches + 2))):
        p = "/model.%d" % i
        outs = []
        for j in range(branches):
            q = "%s/branch%d" % (p, j)
            k = 1 + 2 * (j % 3)
            w = b.weight(q + "/conv.weight", [c, c, k, k])
            y = b.node("Conv", q + "/Conv", [cur, w], pads=[k // 2] * 4, kernel_shape=[k, k])
            outs.append(b.node("Relu", q + "/Relu", [y]))
        y = b.node("Concat", p + "/Concat", outs, axis=1)
        w = b.weight(p + "/fuse.weight", [c, c * branches, 1, 1])
        cur = b.node("Conv", p + "/fuse/Conv", [y, w], kernel_shape=[1, 1])
    b.output(cur)
    return b.model(13)


def transformer(nodes):
    """Pre-norm encoder layers: LayerNorm, Q/K/V projections, multi-head attention through
    Reshape/Transpose, output projection, residual, LayerNorm, MLP, residual (28 nodes each)."""
    b = Builder("scale_transformer")
    seq, d, heads, ff = 64, 256, 4, 1024
    hd = d // heads
    cur = b.input("x", [1, seq, d])
    split = b.ints("/shape/heads", [1, seq, heads, hd])
    merge = b.ints("/shape/merge", [1, seq, d])
    for i in range(max(1, nodes // 28)):
        p = "/encoder/layers.%d" % i

        def ln(name, x):
            s = b.weight(p + name + ".weight", [d])
            t = b.weight(p + name + ".bias", [d])
            return b.node("LayerNormalization", p + name + "/LayerNormalization", [x, s, t], axis=-1)

        def linear(name, x, din, dout):
            w = b.weight(p + name + ".weight", [din, dout])
            bias = b.weight(p + name + ".bias", [dout])
            y = b.node("MatMul", p + name + "/MatMul", [x, w])
            return b.node("Add", p + name + "/Add", [y, bias])

        h = ln("/norm1", cur)
        qkv = []
        for proj in ("q", "k", "v"):
            y = linear("/attn/%s_proj" % proj, h, d, d)
            y = b.node("Reshape", p + "/attn/%s/Reshape" % proj, [y, split])
            perm = [0, 2, 3, 1] if proj == "k" else [0, 2, 1, 3]
            qkv.append(b.node("Transpose", p + "/attn/%s/Transpose" % proj, [y], perm=perm))
        s = b.node("MatMul", p + "/attn/MatMul", [qkv[0], qkv[1]])
        s = b.node("Softmax", p + "/attn/Softmax", [s], axis=-1)
        y = b.node("MatMul", p + "/attn/MatMul_1", [s, qkv[2]])
        y = b.node("Transpose", p + "/attn/Transpose", [y], perm=[0, 2, 1, 3])
        y = b.node("Reshape", p + "/attn/Reshape", [y, merge])
        y = linear("/attn/out_proj", y, d, d)
        cur = b.node("Add", p + "/Add", [cur, y])
        h = ln("/norm2", cur)
        h = linear("/mlp/fc1", h, d, ff)
        h = b.node("Relu", p + "/mlp/act/Relu", [h])
        h = linear("/mlp/fc2", h, ff, d)
        cur = b.node("Add", p + "/Add_1", [cur, h])
    b.output(cur)
    return b.model(17)


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("chain", "wide", "transformer"):
        sys.exit(__doc__)
    kind, nodes, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    m = globals()[kind](nodes)
    tmp = out + ".tmp"
    with open(tmp, "wb") as f:
        f.write(m.SerializeToString())
    os.replace(tmp, out)  # a concurrent reader never sees half a file


if __name__ == "__main__":
    main()
