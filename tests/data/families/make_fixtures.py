#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Writes the model-family fixtures of tests/core/tst_families.cpp through onnx's Python API.

Run with Debian's interpreter (python3-onnx 1.12, python3-numpy), offline:

    /usr/bin/python3 tests/data/families/make_fixtures.py [--out tests/data/families]

Each fixture is a small graph built node by node, so the test can work its expected placements, params and
switches out by hand (the docstring of each builder draws the graph). constant_weights.onnx is written the way
paddle2onnx writes PaddleOCR models - every weight in a `Constant` node, no initializer - and then made
graph-only like the samples (Constant tensors of 1 KiB or more moved to external data that is deleted).
No PaddleOCR file was used: the graph is this script's own, in paddle2onnx's style.
"""

import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, external_data_helper, helper, numpy_helper

RNG = np.random.default_rng(0)
F = TensorProto.FLOAT


def const_node(name, array):
    """A Constant node holding `array` (paddle2onnx style: the output carries the parameter's name)."""
    return helper.make_node("Constant", [], [name], name=name + "_const",
                            value=numpy_helper.from_array(np.asarray(array), name=name))


def init(name, array):
    return numpy_helper.from_array(np.asarray(array), name=name)


def save(model, path, graph_only=False):
    onnx.checker.check_model(model)
    if not graph_only:
        onnx.save(model, path)
        return
    # convert_attribute: a Constant node's tensor is an attribute, not an initializer.
    weights = os.path.basename(path) + ".weights"
    external_data_helper.convert_model_to_external_data(model, all_tensors_to_one_file=True, location=weights,
                                                        size_threshold=1024, convert_attribute=True)
    onnx.save_model(model, path)
    os.remove(os.path.join(os.path.dirname(path), weights))


def qdq_chain():
    """A QAT-style QDQ model: fake-quant = QuantizeLinear -> Clip(0, 127) -> DequantizeLinear (torch's
    export of a reduced quant range), weights as float initializer -> Q -> DQ (per channel).

        x[1,8,16,16] -FQ-> conv1(16, 3x3) -FQ-> MaxPool(2) -> conv2(16, 3x3) -+-FQ-> GlobalAveragePool
                                                                               |    -> Flatten -> fc(10) -FQ-> y
                                                                               +-> conv3(4, 1x1) -> y2 (float island)
    MaxPool, GlobalAveragePool and Flatten carry no fake-quant of their own: conv2 and fc are quantized
    through them; conv3 reads conv2's raw output and writes a model output, neither side quantized.
    """
    nodes, inits = [], [init("s", np.float32(0.05)), init("zp", np.uint8(0)), init("qmax", np.uint8(127))]

    def fake_quant(x, y, tag):
        nodes.append(helper.make_node("QuantizeLinear", [x, "s", "zp"], [tag + "_q"], name="q_" + tag))
        nodes.append(helper.make_node("Clip", [tag + "_q", "", "qmax"], [tag + "_c"], name="clip_" + tag))
        nodes.append(helper.make_node("DequantizeLinear", [tag + "_c", "s", "zp"], [y], name="dq_" + tag))

    def weight(name, shape):
        c = shape[0]
        inits.extend([init(name + "_f", RNG.standard_normal(shape).astype(np.float32)),
                      init(name + "_s", np.full(c, 0.01, np.float32)), init(name + "_zp", np.zeros(c, np.int8))])
        nodes.append(helper.make_node("QuantizeLinear", [name + "_f", name + "_s", name + "_zp"], [name + "_wq"],
                                      name="q_" + name, axis=0))
        nodes.append(helper.make_node("DequantizeLinear", [name + "_wq", name + "_s", name + "_zp"], [name],
                                      name="dq_" + name, axis=0))

    fake_quant("x", "x_dq", "in")
    weight("w1", [16, 8, 3, 3])
    nodes.append(helper.make_node("Conv", ["x_dq", "w1"], ["c1"], name="conv1", kernel_shape=[3, 3],
                                  pads=[1, 1, 1, 1]))
    fake_quant("c1", "c1_dq", "c1")
    nodes.append(helper.make_node("MaxPool", ["c1_dq"], ["p"], name="pool", kernel_shape=[2, 2], strides=[2, 2]))
    weight("w2", [16, 16, 3, 3])
    nodes.append(helper.make_node("Conv", ["p", "w2"], ["c2"], name="conv2", kernel_shape=[3, 3],
                                  pads=[1, 1, 1, 1]))
    fake_quant("c2", "c2_dq", "c2")
    nodes.append(helper.make_node("GlobalAveragePool", ["c2_dq"], ["gap"], name="gap"))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"], name="flatten"))
    weight("wfc", [10, 16])
    inits.append(init("bfc", np.zeros(10, np.float32)))
    nodes.append(helper.make_node("Gemm", ["flat", "wfc", "bfc"], ["logits"], name="fc", transB=1))
    fake_quant("logits", "y", "out")
    inits.append(init("w3", RNG.standard_normal([4, 16, 1, 1]).astype(np.float32)))
    nodes.append(helper.make_node("Conv", ["c2", "w3"], ["y2"], name="conv3", kernel_shape=[1, 1]))
    g = helper.make_graph(nodes, "qdq_chain", [helper.make_tensor_value_info("x", F, [1, 8, 16, 16])],
                          [helper.make_tensor_value_info("y", F, [1, 10]), helper.make_tensor_value_info("y2", F, [1, 4, 8, 8])],
                          inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="bpuscope-fixtures")


def constant_weights():
    """paddle2onnx style: every weight is a Constant node's output, no initializer.

        x[1,3,32,32] -> conv0(16, 3x3, s2) -> BatchNorm(16) -> Relu -> conv1(480, 1x1) -> conv2(480, 1x1)
                     -> GlobalAveragePool -> Flatten -> MatMul(480x10) -> Add(10) -> y
    Parameters: 16x3x3x3 + 4x16 + 480x16 + 480x480 + 480x10 + 10 = 243,386 (BN's four [16] vectors hold
    non-trivial values, as trained ones do).
    """
    nodes = [
        const_node("conv2d_0.w_0", RNG.standard_normal([16, 3, 3, 3]).astype(np.float32)),
        const_node("batch_norm_0.w_0", RNG.uniform(0.5, 1.5, 16).astype(np.float32)),
        const_node("batch_norm_0.b_0", RNG.uniform(-0.5, 0.5, 16).astype(np.float32)),
        const_node("batch_norm_0.w_1", RNG.uniform(-0.5, 0.5, 16).astype(np.float32)),
        const_node("batch_norm_0.w_2", RNG.uniform(0.5, 1.5, 16).astype(np.float32)),
        const_node("conv2d_1.w_0", RNG.standard_normal([480, 16, 1, 1]).astype(np.float32)),
        const_node("conv2d_2.w_0", RNG.standard_normal([480, 480, 1, 1]).astype(np.float32)),
        const_node("linear_0.w_0", RNG.standard_normal([480, 10]).astype(np.float32)),
        const_node("linear_0.b_0", RNG.standard_normal([10]).astype(np.float32)),
        helper.make_node("Conv", ["x", "conv2d_0.w_0"], ["c0"], name="conv0", kernel_shape=[3, 3],
                         pads=[1, 1, 1, 1], strides=[2, 2]),
        helper.make_node("BatchNormalization", ["c0", "batch_norm_0.w_0", "batch_norm_0.b_0", "batch_norm_0.w_1",
                                                "batch_norm_0.w_2"], ["bn0"], name="bn0"),
        helper.make_node("Relu", ["bn0"], ["r0"], name="relu0"),
        helper.make_node("Conv", ["r0", "conv2d_1.w_0"], ["c1"], name="conv1", kernel_shape=[1, 1]),
        helper.make_node("Conv", ["c1", "conv2d_2.w_0"], ["c2"], name="conv2", kernel_shape=[1, 1]),
        helper.make_node("GlobalAveragePool", ["c2"], ["gap"], name="gap"),
        helper.make_node("Flatten", ["gap"], ["flat"], name="flatten"),
        helper.make_node("MatMul", ["flat", "linear_0.w_0"], ["mm"], name="linear"),
        helper.make_node("Add", ["mm", "linear_0.b_0"], ["y"], name="linear_bias"),
    ]
    g = helper.make_graph(nodes, "constant_weights", [helper.make_tensor_value_info("x", F, [1, 3, 32, 32])],
                          [helper.make_tensor_value_info("y", F, [1, 10])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)], producer_name="paddle2onnx-style")


def constant_weights_as_initializers():
    """constant_weights with every Constant node turned into an initializer of the same name: the way torch
    stores weights. Both must estimate the same."""
    model = constant_weights()
    g = model.graph
    kept = []
    for node in g.node:
        if node.op_type == "Constant":
            t = onnx.TensorProto()
            t.CopyFrom(node.attribute[0].t)
            t.name = node.output[0]
            g.initializer.append(t)
        else:
            kept.append(node)
    del g.node[:]
    g.node.extend(kept)
    g.name = "constant_weights_as_initializers"
    return model


def ppocr_rec_like():
    """A PP-OCRv4-rec-shaped recogniser written the way paddle2onnx writes it (opset 11, every weight in a
    Constant node, BatchNormalization kept, LayerNorm decomposed). Not a PaddleOCR file: the structure follows
    PP-LCNet-style depthwise-separable blocks (strides (2,1) keep the text line's width), an SVTR-style neck
    and a CTC head over 6625 characters.

        x[1,3,48,320] -> stem conv 3x3 s2 (16) + BN + HardSwish
          -> 7 blocks: depthwise 3x3 (+BN+HardSwish) then pointwise 1x1 (+BN+HardSwish)
             channels 32, 64, 64, 128, 256, 480, 480; strides 1, 2, 1, (2,1), 1, (2,1), 1
          -> 1x1 conv 480 -> 480 (+BN+HardSwish)           [the [480,480,1,1] weights of the issue]
          -> AveragePool 3x2 -> [1,480,1,40] -> 1x1 conv 480 -> 120 -> Squeeze -> Transpose -> [1,40,120]
          -> LayerNorm (ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul gamma, Add beta)
          -> MatMul 120x240 + bias -> HardSwish -> MatMul 240x120 + bias -> Add (residual)
          -> MatMul 120x6625 + bias -> Softmax -> y[1,40,6625]
    Every Constant of two or more elements is a parameter (the scalars are Pow's 2 and LayerNorm's epsilon).
    """
    nodes = []
    count = [0]

    def uid(prefix):
        count[0] += 1
        return f"{prefix}_{count[0]}"

    def param(name, shape, low=-0.5, high=0.5):
        nodes.append(const_node(name, RNG.uniform(low, high, shape).astype(np.float32)))
        return name

    def conv_bn_hs(x, cin, cout, k, stride, group=1):
        c = uid("conv2d")
        w = param(c + ".w_0", [cout, cin // group, k, k])
        nodes.append(helper.make_node("Conv", [x, w], [c + ".tmp_0"], name=c, kernel_shape=[k, k],
                                      strides=list(stride), pads=[k // 2] * 4, group=group))
        b = uid("batch_norm")
        nodes.append(helper.make_node("BatchNormalization",
                                      [c + ".tmp_0", param(b + ".w_0", [cout], 0.5, 1.5), param(b + ".b_0", [cout]),
                                       param(b + ".w_1", [cout]), param(b + ".w_2", [cout], 0.5, 1.5)],
                                      [b + ".tmp_2"], name=b))
        return hardswish(b + ".tmp_2")

    def hardswish(x):
        # opset 11 has no HardSwish: paddle2onnx writes x * HardSigmoid(x, 1/6, 0.5).
        h = uid("hardswish")
        nodes.append(helper.make_node("HardSigmoid", [x], [h + ".tmp_0"], name=h + "_sigmoid", alpha=1.0 / 6,
                                      beta=0.5))
        nodes.append(helper.make_node("Mul", [x, h + ".tmp_0"], [h + ".tmp_1"], name=h))
        return h + ".tmp_1"

    def linear(x, cin, cout):
        m = uid("linear")
        nodes.append(helper.make_node("MatMul", [x, param(m + ".w_0", [cin, cout])], [m + ".tmp_0"], name=m))
        nodes.append(helper.make_node("Add", [m + ".tmp_0", param(m + ".b_0", [cout])], [m + ".tmp_1"],
                                      name=m + "_bias"))
        return m + ".tmp_1"

    def scalar(name, v):
        nodes.append(const_node(name, np.array(v, np.float32)))
        return name

    x = conv_bn_hs("x", 3, 16, 3, (2, 2))
    cin = 16
    for cout, stride in ((32, (1, 1)), (64, (2, 2)), (64, (1, 1)), (128, (2, 1)), (256, (1, 1)), (480, (2, 1)),
                         (480, (1, 1))):
        x = conv_bn_hs(x, cin, cin, 3, stride, group=cin)
        x = conv_bn_hs(x, cin, cout, 1, (1, 1))
        cin = cout
    x = conv_bn_hs(x, 480, 480, 1, (1, 1))
    nodes.append(helper.make_node("AveragePool", [x], ["pool.tmp_0"], name="pool", kernel_shape=[3, 2],
                                  strides=[3, 2]))
    nodes.append(helper.make_node("Conv", ["pool.tmp_0", param("neck_conv.w_0", [120, 480, 1, 1])],
                                  ["neck_conv.tmp_0"], name="neck_conv", kernel_shape=[1, 1]))
    nodes.append(helper.make_node("Squeeze", ["neck_conv.tmp_0"], ["neck.squeeze"], name="neck_squeeze", axes=[2]))
    nodes.append(helper.make_node("Transpose", ["neck.squeeze"], ["seq"], name="neck_transpose", perm=[0, 2, 1]))
    # LayerNorm, decomposed as paddle2onnx writes it for opset 11.
    nodes += [
        helper.make_node("ReduceMean", ["seq"], ["ln.mean"], name="ln_mean", axes=[-1]),
        helper.make_node("Sub", ["seq", "ln.mean"], ["ln.centered"], name="ln_sub"),
        helper.make_node("Pow", ["ln.centered", scalar("ln.two", 2.0)], ["ln.sq"], name="ln_pow"),
        helper.make_node("ReduceMean", ["ln.sq"], ["ln.var"], name="ln_var", axes=[-1]),
        helper.make_node("Add", ["ln.var", scalar("ln.eps", 1e-6)], ["ln.var_eps"], name="ln_add_eps"),
        helper.make_node("Sqrt", ["ln.var_eps"], ["ln.std"], name="ln_sqrt"),
        helper.make_node("Div", ["ln.centered", "ln.std"], ["ln.norm"], name="ln_div"),
        helper.make_node("Mul", ["ln.norm", param("layer_norm_0.w_0", [120], 0.5, 1.5)], ["ln.scaled"],
                         name="ln_gamma"),
        helper.make_node("Add", ["ln.scaled", param("layer_norm_0.b_0", [120])], ["ln.out"], name="ln_beta"),
    ]
    h = linear("ln.out", 120, 240)
    h = linear(hardswish(h), 240, 120)
    nodes.append(helper.make_node("Add", [h, "seq"], ["mlp.out"], name="mlp_residual"))
    h = linear("mlp.out", 120, 6625)
    nodes.append(helper.make_node("Softmax", [h], ["y"], name="ctc_softmax", axis=2))
    g = helper.make_graph(nodes, "ppocr_rec_like", [helper.make_tensor_value_info("x", F, [1, 3, 48, 320])],
                          [helper.make_tensor_value_info("y", F, [1, 40, 6625])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 11)], producer_name="paddle2onnx-style")


def detector_tail():
    """A small detector with its post-processing inside the graph (320x320: above the batch-mode size).

        image[1,3,320,320] -> conv0(16, 3x3, s2) -> Relu -> cls_head(2, 1x1) -> cls[1,2,160,160]
                                                         -> box_head(4, 1x1) -> box[1,4,160,160]
        cls -> Reshape[1,2,25600] -> Sigmoid -> scores ; box -> Reshape[1,4,25600] -> Transpose -> boxes[1,25600,4]
        scores -> ReduceMax(axis 1) -> best[1,25600] -> TopK(100) -> top_scores[1,100], top_idx[1,100] (int64)
        boxes -> Squeeze(0) -> Gather(top_idx) -> top_boxes[1,100,4]
        top_scores -> Unsqueeze(2) -> [1,100,1] ; Concat(top_boxes, that) -> dets[1,100,5]          (output)
        cls -> ArgMax(axis 1) -> labels[1,160,160] (int64) -> Reshape[1,25600] -> Gather(top_idx, axis 1)
                                                                              -> top_labels[1,100] (output)
        scores -> Greater(0.5) -> mask (bool) -> NonZero -> keep[3,N]                                 (output)
        boxes, scores -> NonMaxSuppression(10 per class, iou 0.5) -> selected[N,3]                  (output)
    """
    inits = [
        init("w0", RNG.standard_normal([16, 3, 3, 3]).astype(np.float32)),
        init("wc", RNG.standard_normal([2, 16, 1, 1]).astype(np.float32)),
        init("wb", RNG.standard_normal([4, 16, 1, 1]).astype(np.float32)),
        init("shape_cls", np.array([1, 2, 25600], np.int64)),
        init("shape_box", np.array([1, 4, 25600], np.int64)),
        init("shape_lab", np.array([1, 25600], np.int64)),
        init("k", np.array([100], np.int64)),
        init("thr", np.float32(0.5)),
        init("max_out", np.array([10], np.int64)),
        init("iou", np.array([0.5], np.float32)),
        init("axes0", np.array([0], np.int64)),
        init("axes2", np.array([2], np.int64)),
    ]
    n = helper.make_node
    nodes = [
        n("Conv", ["image", "w0"], ["c0"], name="conv0", kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
        n("Relu", ["c0"], ["r0"], name="relu0"),
        n("Conv", ["r0", "wc"], ["cls"], name="cls_head", kernel_shape=[1, 1]),
        n("Conv", ["r0", "wb"], ["box"], name="box_head", kernel_shape=[1, 1]),
        n("Reshape", ["cls", "shape_cls"], ["cls_flat"], name="cls_reshape"),
        n("Sigmoid", ["cls_flat"], ["scores"], name="sigmoid"),
        n("Reshape", ["box", "shape_box"], ["box_flat"], name="box_reshape"),
        n("Transpose", ["box_flat"], ["boxes"], name="box_transpose", perm=[0, 2, 1]),
        n("ReduceMax", ["scores"], ["best"], name="best_class", axes=[1], keepdims=0),
        n("TopK", ["best", "k"], ["top_scores", "top_idx"], name="topk", axis=1),
        n("Squeeze", ["boxes", "axes0"], ["boxes0"], name="squeeze"),
        n("Gather", ["boxes0", "top_idx"], ["top_boxes"], name="gather_boxes", axis=0),
        n("Unsqueeze", ["top_scores", "axes2"], ["top_scores3"], name="unsqueeze"),
        n("Concat", ["top_boxes", "top_scores3"], ["dets"], name="concat", axis=2),
        n("ArgMax", ["cls"], ["labels"], name="argmax", axis=1, keepdims=0),
        n("Reshape", ["labels", "shape_lab"], ["labels_flat"], name="labels_reshape"),
        n("Gather", ["labels_flat", "top_idx"], ["top_labels"], name="gather_labels", axis=1),
        n("Greater", ["scores", "thr"], ["mask"], name="greater"),
        n("NonZero", ["mask"], ["keep"], name="nonzero"),
        n("NonMaxSuppression", ["boxes", "scores", "max_out", "iou"], ["selected"], name="nms"),
    ]
    outs = [helper.make_tensor_value_info(x, t, s) for x, t, s in
            (("dets", F, [1, 100, 5]), ("top_labels", TensorProto.INT64, [1, 100]),
             ("keep", TensorProto.INT64, [3, "N"]), ("selected", TensorProto.INT64, ["M", 3]))]
    g = helper.make_graph(nodes, "detector_tail", [helper.make_tensor_value_info("image", F, [1, 3, 320, 320])],
                          outs, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="bpuscope-fixtures")


def grid_sample():
    """A BEV-style view transform: features sampled at a grid given as a second input (opset 16).

        x[1,3,64,64] -> conv0(16, 3x3, s2) -> feat[1,16,32,32]
        GridSample(feat, grid[1,24,24,2], bilinear) -> bev[1,16,24,24] -> conv1(16, 1x1) -> y
    """
    inits = [init("w0", RNG.standard_normal([16, 3, 3, 3]).astype(np.float32)),
             init("w1", RNG.standard_normal([16, 16, 1, 1]).astype(np.float32))]
    n = helper.make_node
    nodes = [
        n("Conv", ["x", "w0"], ["feat"], name="conv0", kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2]),
        n("GridSample", ["feat", "grid"], ["bev"], name="grid_sample", mode="bilinear", padding_mode="zeros",
          align_corners=0),
        n("Conv", ["bev", "w1"], ["y"], name="conv1", kernel_shape=[1, 1]),
    ]
    g = helper.make_graph(nodes, "grid_sample",
                          [helper.make_tensor_value_info("x", F, [1, 3, 64, 64]),
                           helper.make_tensor_value_info("grid", F, [1, 24, 24, 2])],
                          [helper.make_tensor_value_info("y", F, [1, 16, 24, 24])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 16)], producer_name="bpuscope-fixtures")


def einsum():
    """Three Einsums: attention scores (lowers to a batched MatMul), a permutation (a Transpose), and a
    diagonal (cannot be lowered: stays on the CPU).

        q[1,8,16,32], k[1,8,16,32] -> Einsum('bhqd,bhkd->bhqk') -> att[1,8,16,16]
        att -> Einsum('bhqk->bhkq') -> att_t                                               (output)
        m[16,16] -> Einsum('ii->i') -> diag[16]                                            (output)
    """
    n = helper.make_node
    nodes = [
        n("Einsum", ["q", "k"], ["att"], name="scores", equation="bhqd,bhkd->bhqk"),
        n("Einsum", ["att"], ["att_t"], name="permute", equation="bhqk->bhkq"),
        n("Einsum", ["m"], ["diag"], name="diagonal", equation="ii->i"),
    ]
    g = helper.make_graph(nodes, "einsum",
                          [helper.make_tensor_value_info("q", F, [1, 8, 16, 32]),
                           helper.make_tensor_value_info("k", F, [1, 8, 16, 32]),
                           helper.make_tensor_value_info("m", F, [16, 16])],
                          [helper.make_tensor_value_info("att_t", F, [1, 8, 16, 16]),
                           helper.make_tensor_value_info("diag", F, [16])])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="bpuscope-fixtures")


def input_norm():
    """torchvision's normalisation inside the graph: (image - mean) / std on a 1x3x64x64 image.

        image -> Sub(mean[1,3,1,1]) -> Div(std[1,3,1,1]) -> conv0(16, 3x3) -> y
    """
    inits = [init("mean", np.array([0.485, 0.456, 0.406], np.float32).reshape(1, 3, 1, 1)),
             init("std", np.array([0.229, 0.224, 0.225], np.float32).reshape(1, 3, 1, 1)),
             init("w0", RNG.standard_normal([16, 3, 3, 3]).astype(np.float32))]
    n = helper.make_node
    nodes = [n("Sub", ["image", "mean"], ["centered"], name="sub_mean"),
             n("Div", ["centered", "std"], ["normalised"], name="div_std"),
             n("Conv", ["normalised", "w0"], ["y"], name="conv0", kernel_shape=[3, 3], pads=[1, 1, 1, 1])]
    g = helper.make_graph(nodes, "input_norm", [helper.make_tensor_value_info("image", F, [1, 3, 64, 64])],
                          [helper.make_tensor_value_info("y", F, [1, 16, 64, 64])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="bpuscope-fixtures")


def segmentation_os16():
    """DeepLabV3-MobileNetV3's shape (issue 48): an image of any H x W, output stride 16 (four stride-2 3x3
    convs, 520 -> 260 -> 130 -> 65 -> 33), a dilated stage, an ASPP-like head with a pooled branch, 21 classes
    resized back to the input's H x W (Shape -> Slice -> Concat -> Resize sizes, as torch exports
    F.interpolate(size=input.shape[-2:])). The stem has 16 channels, as MobileNetV3's.

        image[1,3,H,W] -> c1(16,s2) -> c2(24,s2) -> c3(40,s2) -> c4(80,s2) -> c5(80, d2) -+-> a1(128, 1x1) ----+
                                                                                          +-> a2(128, 3x3 d6) -+-> cat
                                                                                          +-> GAP -> a3(128) ---+ (Resize to 33x33)
        cat -> proj(128, 1x1) -> cls(21, 1x1) -> Resize(sizes = [1, 21, H, W]) -> out
    """
    n = helper.make_node
    inits, nodes = [], []

    def conv(name, x, cin, cout, k=3, stride=1, dil=1, act=True):
        inits.append(init(name + "_w", RNG.standard_normal([cout, cin, k, k]).astype(np.float32) * 0.1))
        inits.append(init(name + "_b", np.zeros([cout], np.float32)))
        pad = dil * (k // 2)
        nodes.append(n("Conv", [x, name + "_w", name + "_b"], [name + "_y"], name=name, kernel_shape=[k, k],
                       strides=[stride, stride], dilations=[dil, dil], pads=[pad] * 4))
        if not act:
            return name + "_y"
        nodes.append(n("Relu", [name + "_y"], [name + "_r"], name=name + "_relu"))
        return name + "_r"

    x = conv("c1", "image", 3, 16, stride=2)
    x = conv("c2", x, 16, 24, stride=2)
    x = conv("c3", x, 24, 40, stride=2)
    x = conv("c4", x, 40, 80, stride=2)
    x = conv("c5", x, 80, 80, dil=2)
    a1 = conv("a1", x, 80, 128, k=1)
    a2 = conv("a2", x, 80, 128, dil=6)
    nodes.append(n("GlobalAveragePool", [x], ["gap"], name="gap"))
    a3 = conv("a3", "gap", 80, 128, k=1)
    nodes.append(n("Shape", [x], ["feat_shape"], name="feat_shape"))
    nodes.append(n("Shape", ["image"], ["image_shape"], name="image_shape"))
    inits += [init("hw_starts", np.array([2], np.int64)), init("hw_ends", np.array([4], np.int64)),
              init("nc_cls", np.array([1, 21], np.int64)), init("nc_feat", np.array([1, 128], np.int64)),
              init("empty_roi", np.array([], np.float32)), init("empty_scales", np.array([], np.float32))]
    nodes.append(n("Slice", ["feat_shape", "hw_starts", "hw_ends"], ["feat_hw"], name="feat_hw"))
    nodes.append(n("Concat", ["nc_feat", "feat_hw"], ["pool_sizes"], name="pool_sizes", axis=0))
    nodes.append(n("Resize", [a3, "empty_roi", "empty_scales", "pool_sizes"], ["a3_up"], name="a3_up",
                   mode="linear"))
    nodes.append(n("Concat", [a1, a2, "a3_up"], ["aspp"], name="aspp", axis=1))
    x = conv("proj", "aspp", 384, 128, k=1)
    x = conv("cls", x, 128, 21, k=1, act=False)
    nodes.append(n("Slice", ["image_shape", "hw_starts", "hw_ends"], ["image_hw"], name="image_hw"))
    nodes.append(n("Concat", ["nc_cls", "image_hw"], ["out_sizes"], name="out_sizes", axis=0))
    nodes.append(n("Resize", [x, "empty_roi", "empty_scales", "out_sizes"], ["out"], name="upsample",
                   mode="linear"))
    g = helper.make_graph(nodes, "segmentation_os16",
                          [helper.make_tensor_value_info("image", F, [1, 3, "height", "width"])],
                          [helper.make_tensor_value_info("out", F, [1, 21, "height", "width"])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="bpuscope-fixtures")


def ppocr_det_fpn_like():
    """PP-OCR's detector in outline (issue 63), as paddle2onnx writes it: BatchNormalization kept as a node of
    its own after each conv, and an FPN step whose ConvTranspose output is added to a lateral conv and then
    normalised: BN is fusable only straight after a conv, so the ConvTranspose+Add layer leaves the BN and the
    Relu after it out of its group, folded (no cost of their own).

        x[1,16,32,32] -> conv1(16, 3x3) -> bn1 -> relu1 -> convt(16, k2 s2) -+-> add -> bn2 -> relu2 -> head(8)
        lateral[1,16,64,64] -> lat(16, 1x1) -----------------------------------+
    """
    n = helper.make_node
    r = np.random.default_rng(63)

    def bn(name, c):
        return [init(name + "_g", np.ones([c], np.float32)), init(name + "_b", np.zeros([c], np.float32)),
                init(name + "_m", np.zeros([c], np.float32)), init(name + "_v", np.ones([c], np.float32))]

    inits = [init("conv1_w", r.standard_normal([16, 16, 3, 3]).astype(np.float32) * 0.1),
             init("convt_w", r.standard_normal([16, 16, 2, 2]).astype(np.float32) * 0.1),
             init("lat_w", r.standard_normal([16, 16, 1, 1]).astype(np.float32) * 0.1),
             init("head_w", r.standard_normal([8, 16, 1, 1]).astype(np.float32) * 0.1)] + bn("bn1", 16) + bn("bn2", 16)
    nodes = [n("Conv", ["x", "conv1_w"], ["c1"], name="conv1", pads=[1, 1, 1, 1]),
             n("BatchNormalization", ["c1", "bn1_g", "bn1_b", "bn1_m", "bn1_v"], ["b1"], name="bn1"),
             n("Relu", ["b1"], ["r1"], name="relu1"),
             n("ConvTranspose", ["r1", "convt_w"], ["up"], name="convt", strides=[2, 2]),
             n("Conv", ["lateral", "lat_w"], ["l1"], name="lat"),
             n("Add", ["up", "l1"], ["sum"], name="add"),
             n("BatchNormalization", ["sum", "bn2_g", "bn2_b", "bn2_m", "bn2_v"], ["b2"], name="bn2"),
             n("Relu", ["b2"], ["r2"], name="relu2"),
             n("Conv", ["r2", "head_w"], ["y"], name="head")]
    g = helper.make_graph(nodes, "ppocr_det_fpn_like",
                          [helper.make_tensor_value_info("x", F, [1, 16, 32, 32]),
                           helper.make_tensor_value_info("lateral", F, [1, 16, 64, 64])],
                          [helper.make_tensor_value_info("y", F, [1, 8, 64, 64])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], producer_name="bpuscope-fixtures")


FIXTURES = {
    "qdq_chain": (qdq_chain, False),
    "constant_weights": (constant_weights, True),
    "constant_weights_as_initializers": (constant_weights_as_initializers, True),
    "ppocr_rec_like": (ppocr_rec_like, True),
    "detector_tail": (detector_tail, False),
    "grid_sample": (grid_sample, False),
    "einsum": (einsum, False),
    "input_norm": (input_norm, False),
    "segmentation_os16": (segmentation_os16, True),
    "ppocr_det_fpn_like": (ppocr_det_fpn_like, False),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--only", action="append", choices=sorted(FIXTURES), help="write just this fixture")
    a = ap.parse_args()
    for name, (build, graph_only) in FIXTURES.items():
        if a.only and name not in a.only:
            continue
        path = os.path.join(a.out, name + ".onnx")
        save(build(), path, graph_only)
        print(f"{name}: {os.path.getsize(path)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
