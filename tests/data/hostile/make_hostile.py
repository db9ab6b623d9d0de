#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Rebuilds the hostile models of issue 15 with onnx's own helper (Debian python3-onnx 1.12).

Each file reproduces one way a crafted model used to crash, hang or mislead BpuScope; tst_bad_inputs
checks that each is now refused with a clear error naming the node and the problem (or, for the
big-but-legal ones, that it imports quickly and correctly). Run from anywhere:

    /usr/bin/python3 tests/data/hostile/make_hostile.py

The big-but-legal models (rank 100k, 100k outputs, 8,000 If nodes; 2.8 MB together) are not kept in the
repository: tst_bad_inputs builds the same graphs with its C++ fixture builder. `--big DIR` writes them
from here too, e.g. to time the GUI on them.

Files found by the fuzz targets (tests/fuzz) are copied here as they are, named crash-<target>-<what>.*.
"""
import os
import sys

import onnx
from onnx import TensorProto, helper

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = HERE
F = TensorProto.FLOAT


def save(name, graph, opset=13, ir=8, extra_opsets=()):
    opsets = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, v) for d, v in extra_opsets]
    model = helper.make_model(graph, opset_imports=opsets, producer_name="hostile")
    model.ir_version = ir
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(model.SerializeToString())


def vi(name, shape, dtype=F):
    return helper.make_tensor_value_info(name, dtype, shape)


def weight(name, dims):
    """A graph-only initializer (dims, no data), as the samples carry: external data that is absent."""
    t = TensorProto()
    t.name = name
    t.data_type = F
    t.dims.extend(dims)
    t.data_location = TensorProto.EXTERNAL
    kv = t.external_data.add()
    kv.key, kv.value = "location", "absent.weights"
    return t


def one_node(name, node, inputs, outputs, inits=(), **kw):
    save(name, helper.make_graph([node], "g", inputs, outputs, initializer=list(inits)), **kw)


def conv_family():
    # onnx's convPoolShapeInference divides by each stride: a 0 was SIGFPE inside the library.
    x = [vi("x", [1, 8, 16, 16])]
    y = [vi("y", None)]
    one_node("conv_stride0.onnx", helper.make_node("Conv", ["x", "w"], ["y"], "conv", strides=[0, 1]),
             x, y, [weight("w", [8, 8, 3, 3])])
    for op in ("MaxPool", "AveragePool", "LpPool"):
        one_node(op.lower() + "_stride0.onnx",
                 helper.make_node(op, ["x"], ["y"], "pool", kernel_shape=[2, 2], strides=[1, 0]), x, y)
    one_node("conv_dilation0.onnx", helper.make_node("Conv", ["x", "w"], ["y"], "conv", dilations=[0, 1]),
             x, y, [weight("w", [8, 8, 3, 3])])
    for g in (0, -2):
        one_node("conv_group%s.onnx" % ("0" if g == 0 else "_negative"),
                 helper.make_node("Conv", ["x", "w"], ["y"], "conv", group=g), x, y,
                 [weight("w", [8, 8, 3, 3])])
    one_node("conv_kernel_shape_rank.onnx",
             helper.make_node("Conv", ["x", "w"], ["y"], "conv", kernel_shape=[3, 3, 3]), x, y,
             [weight("w", [8, 8, 3, 3])])
    one_node("conv_pads_negative.onnx",
             helper.make_node("Conv", ["x", "w"], ["y"], "conv", pads=[-5, 0, 0, 0]), x, y,
             [weight("w", [8, 8, 3, 3])])
    # Input rank 4, weight rank 3: convTransposeShapeInference indexed past the weight's dims (SIGSEGV).
    one_node("convtranspose_rank_mismatch.onnx",
             helper.make_node("ConvTranspose", ["x", "w"], ["y"], "deconv"), x, y, [weight("w", [8, 8, 3])])


def control_flow_unknown_op():
    # A com.microsoft op (no schema in onnx) inside an If body: the GraphInferenceContext's
    # model_local_functions reference dangled (a default-argument temporary) -> SIGSEGV.
    def body(tag):
        n = helper.make_node("FusedGemm", ["x"], [tag + "_y"], tag + "_fused", domain="com.microsoft")
        return helper.make_graph([n], tag, [], [vi(tag + "_y", [1, 4])])

    node = helper.make_node("If", ["cond"], ["y"], "branch", then_branch=body("then"), else_branch=body("else"))
    save("if_body_com_microsoft.onnx",
         helper.make_graph([node], "g", [vi("cond", [], TensorProto.BOOL), vi("x", [1, 4])], [vi("y", None)]),
         extra_opsets=[("com.microsoft", 1)])

    # The conv crashes again, one level down: onnx infers If bodies itself.
    def conv_body(tag, **attrs):
        n = helper.make_node("Conv", ["x", tag + "_w"], [tag + "_y"], tag + "_conv", **attrs)
        return helper.make_graph([n], tag, [], [vi(tag + "_y", None)], initializer=[weight(tag + "_w", [8, 8, 3, 3])])

    node = helper.make_node("If", ["cond"], ["y"], "branch", then_branch=conv_body("then", strides=[1, 0]),
                            else_branch=conv_body("else"))
    save("if_body_conv_stride0.onnx",
         helper.make_graph([node], "g", [vi("cond", [], TensorProto.BOOL), vi("x", [1, 8, 16, 16])],
                           [vi("y", None)]))

    def deconv_body(tag, wdims):
        n = helper.make_node("ConvTranspose", ["x", tag + "_w"], [tag + "_y"], tag + "_deconv")
        return helper.make_graph([n], tag, [], [vi(tag + "_y", None)], initializer=[weight(tag + "_w", wdims)])

    # Only the shapes (known inside onnx's own body inference) make this one invalid: no attribute check can
    # see it, so the guarded schema must.
    node = helper.make_node("If", ["cond"], ["y"], "branch", then_branch=deconv_body("then", [8, 8, 3]),
                            else_branch=deconv_body("else", [8, 8, 3, 3]))
    save("if_body_convtranspose_rank_mismatch.onnx",
         helper.make_graph([node], "g", [vi("cond", [], TensorProto.BOOL), vi("x", [1, 8, 16, 16])],
                           [vi("y", None)]))


def graph_structure():
    # 'a' reads 't' and also writes it, while 'b' writes it too: the G6 transform walk never ended.
    nodes = [helper.make_node("Reshape", ["x", "s"], ["t"], "b"),
             helper.make_node("Reshape", ["t", "s"], ["t"], "a")]
    s = helper.make_tensor("s", TensorProto.INT64, [2], [1, 4])
    save("duplicate_producer_loop.onnx", helper.make_graph(nodes, "g", [vi("x", [1, 4])], [vi("t", None)],
                                                           initializer=[s]))
    nodes = [helper.make_node("Relu", ["x"], ["y"], "first"), helper.make_node("Sigmoid", ["x"], ["y"], "second")]
    save("duplicate_producer.onnx", helper.make_graph(nodes, "g", [vi("x", [1, 4])], [vi("y", None)]))
    nodes = [helper.make_node("Relu", ["x"], ["y"], "relu")]
    save("undefined_output.onnx",
         helper.make_graph(nodes, "g", [vi("x", [1, 4])], [vi("y", None), vi("nobody_makes_this", None)]))
    nodes = [helper.make_node("Relu", ["x"], ["x"], "relu")]
    save("output_overwrites_input.onnx", helper.make_graph(nodes, "g", [vi("x", [1, 4])], [vi("x", None)]))


def bad_types_and_versions():
    nodes = [helper.make_node("Relu", ["x"], ["y"], "relu")]
    for tag, dtype in (("dtype99", 99), ("dtype_negative", -3)):
        save("input_%s.onnx" % tag, helper.make_graph(nodes, "g", [vi("x", [1, 4], dtype)], [vi("y", None)]))
    save("opset99.onnx", helper.make_graph(nodes, "g", [vi("x", [1, 4])], [vi("y", None)]), opset=99)
    # 16 bytes of raw data for 1000 x 1000 floats.
    w = TensorProto(name="w", data_type=F, dims=[1000, 1000], raw_data=b"\0" * 16)  # helper checks sizes
    nodes = [helper.make_node("MatMul", ["x", "w"], ["y"], "mm")]
    save("raw_data_short.onnx", helper.make_graph(nodes, "g", [vi("x", [1, 1000])], [vi("y", None)],
                                                  initializer=[w]))


def arithmetic_overflow():
    # Every tensor holds at most 2^40 elements (the import limit), but MACs = out elements x Cin x kH x kW =
    # 2^40 x 2^30 pass int64: negative macs/ddr_bytes in the JSON, exit 0. Now saturated and flagged.
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], "conv")]
    save("macs_overflow.onnx", helper.make_graph(nodes, "g", [vi("x", [1, 1, 65535, 65535])], [vi("y", None)],
                                                 initializer=[weight("w", [1024, 1, 32768, 32768])]))
    # A feature map of 2^52 elements: beyond any device's memory, refused at import.
    big = 1 << 20
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], "conv", pads=[1, 1, 1, 1])]
    save("tensor_too_large.onnx", helper.make_graph(nodes, "g", [vi("x", [1, 4096, big, big])], [vi("y", None)],
                                                    initializer=[weight("w", [4096, 4096, 3, 3])]))
    # Constant folding of int64 arithmetic: Mul of two huge shape values, Range with a huge count.
    a = helper.make_tensor("a", TensorProto.INT64, [1], [1 << 62])
    nodes = [helper.make_node("Mul", ["a", "a"], ["p"], "mul"),
             helper.make_node("Reshape", ["x", "p"], ["y"], "reshape")]
    save("fold_mul_overflow.onnx", helper.make_graph(nodes, "g", [vi("x", [1, 4])], [vi("y", None)],
                                                     initializer=[a]))
    lo = helper.make_tensor("lo", TensorProto.INT64, [], [-(1 << 62)])
    hi = helper.make_tensor("hi", TensorProto.INT64, [], [1 << 62])
    st = helper.make_tensor("st", TensorProto.INT64, [], [1])
    nodes = [helper.make_node("Range", ["lo", "hi", "st"], ["r"], "range"),
             helper.make_node("Shape", ["r"], ["s"], "shape"),
             helper.make_node("Reshape", ["x", "s"], ["y"], "reshape")]
    save("fold_range_huge.onnx", helper.make_graph(nodes, "g", [vi("x", [1, 4])], [vi("y", None)],
                                                   initializer=[lo, hi, st]))


def names_with_control_characters():
    # A terminal escape sequence and a newline in names that reach error lines, and HTML in the report.
    nodes = [helper.make_node("Relu", ["x"], ["y"], "evil\x1b[2J\x1b[31mnode\nFAKE: all good")]
    g = helper.make_graph(nodes, "g\x1b]0;pwned\x07", [vi("x", [1, 4])],
                          [vi("y", None), vi("missing\x1b[31m\nline", None)])
    save("control_chars_in_names.onnx", g)
    nodes = [helper.make_node("Relu", ["x"], ["r"], "<img src=x onerror=alert(1)>|`*"),
             helper.make_node("Sigmoid", ["r"], ["<script>alert(1)</script>"], "[click](javascript:alert(1))")]
    g = helper.make_graph(nodes, "g", [vi("x", [1, 3, 64, 64])], [vi("<script>alert(1)</script>", None)])
    save("html_in_names.onnx", g)


def big_but_legal():
    # Rank 100k input: fine in the CLI, the inspector used to lay out a 200 kB shape on the GUI thread.
    nodes = [helper.make_node("Relu", ["x"], ["y"], "relu")]
    save("rank_100k.onnx", helper.make_graph(nodes, "g", [vi("x", [1] * 100000)], [vi("y", None)]))
    outs = ["o%d" % i for i in range(100000)]
    nodes = [helper.make_node("Split", ["x"], outs, "split", axis=1)]
    save("outputs_100k.onnx",
         helper.make_graph(nodes, "g", [vi("x", [1, 100000])], [vi(o, None) for o in outs[:1]]))
    # 8,000 If nodes, each with a one-node body: import was quadratic in control-flow nodes (33 s).
    nodes, prev = [], "x"
    for i in range(8000):
        def body(tag):
            n = helper.make_node("Identity", [prev], ["%s%d" % (tag, i)], "%s%d_id" % (tag, i))
            return helper.make_graph([n], "%s%d" % (tag, i), [], [vi("%s%d" % (tag, i), [1, 4])])
        out = "y%d" % i
        nodes.append(helper.make_node("If", ["cond"], [out], "if%d" % i, then_branch=body("t"),
                                      else_branch=body("e")))
        prev = out
    save("if_8000.onnx", helper.make_graph(nodes, "g", [vi("cond", [], TensorProto.BOOL), vi("x", [1, 4])],
                                           [vi(prev, None)]))


def single_assignment():
    """Issue 41: every value name is produced once per scope (an input, an initializer or one output slot of
    one node), and a body's nodes see the names around them. The first three crashed the CLI and the GUI:
    the second write of one node's output was reported from a node not yet added."""
    i64 = TensorProto.INT64
    x6 = [vi("x", [1, 6])]
    split = helper.make_node("Split", ["x"], ["a", "a", "b"], "split", axis=1)
    save("output_twice_split.onnx", helper.make_graph([split], "g", x6, [vi("a", None), vi("b", None)]))
    k = helper.make_tensor("k", i64, [1], [2])
    topk = helper.make_node("TopK", ["x", "k"], ["y", "y"], "topk")
    save("output_twice_topk.onnx", helper.make_graph([topk], "g", x6, [vi("y", None)], initializer=[k]))
    pool = helper.make_node("MaxPool", ["x"], ["y", "y"], "pool", kernel_shape=[2, 2])
    save("output_twice_maxpool.onnx",
         helper.make_graph([pool], "g", [vi("x", [1, 4, 8, 8])], [vi("y", None)]))

    relu = helper.make_node("Add", ["x", "w"], ["y"], "add")
    w1, w2 = helper.make_tensor("w", F, [6], [0.0] * 6), helper.make_tensor("w", F, [6], [1.0] * 6)
    save("initializer_twice.onnx", helper.make_graph([relu], "g", x6, [vi("y", None)], initializer=[w1, w2]))
    relu = helper.make_node("Relu", ["x"], ["y"], "relu")
    save("input_twice.onnx", helper.make_graph([relu], "g", x6 + x6, [vi("y", None)]))

    # One level down: onnx's checker refuses each of these too (check_graph with its lexical scopes).
    def body(nodes, outputs, inputs=(), inits=()):
        return helper.make_graph(nodes, "body", list(inputs), [vi(o, None) for o in outputs],
                                 initializer=list(inits))

    def if_model(name, then_branch):
        else_branch = body([helper.make_node("Relu", ["x"], ["e_y"], "e_relu")], ["e_y"])
        node = helper.make_node("If", ["cond"], ["y"], "branch", then_branch=then_branch, else_branch=else_branch)
        pre = helper.make_node("Sigmoid", ["x"], ["s"], "sig")
        save(name, helper.make_graph([pre, node], "g", [vi("cond", [], TensorProto.BOOL)] + x6,
                                     [vi("y", None), vi("s", None)]))

    if_model("if_body_output_twice.onnx",
             body([helper.make_node("Split", ["x"], ["t_a", "t_a"], "t_split", axis=1)], ["t_a"]))
    if_model("if_body_two_producers.onnx",
             body([helper.make_node("Relu", ["x"], ["t_y"], "t_first"),
                   helper.make_node("Sigmoid", ["x"], ["t_y"], "t_second")], ["t_y"]))
    if_model("if_body_writes_outer_input.onnx",
             body([helper.make_node("Relu", ["cond"], ["x"], "t_relu")], ["x"]))
    if_model("if_body_writes_outer_value.onnx",
             body([helper.make_node("Relu", ["x"], ["s"], "t_relu")], ["s"]))
    t1, t2 = helper.make_tensor("t_w", F, [6], [0.0] * 6), helper.make_tensor("t_w", F, [6], [1.0] * 6)
    if_model("if_body_initializer_twice.onnx",
             body([helper.make_node("Add", ["x", "t_w"], ["t_y"], "t_add")], ["t_y"], inits=[t1, t2]))

    # A Loop body's inputs are (iteration, condition, carried...): one listed twice.
    trip = helper.make_tensor("trip", i64, [], [2])
    loop_body = body([helper.make_node("Identity", ["c"], ["c_out"], "b_id"),
                      helper.make_node("Relu", ["i"], ["v_out"], "b_relu")], ["c_out", "v_out"],
                     inputs=[vi("i", [], i64), vi("c", [], TensorProto.BOOL), vi("i", [1, 6])])
    loop = helper.make_node("Loop", ["trip", "", "x"], ["y"], "loop", body=loop_body)
    save("loop_body_input_twice.onnx", helper.make_graph([loop], "g", x6, [vi("y", None)], initializer=[trip]))

    # Legal, and must stay accepted: omitted optional outputs ('' may repeat), an initializer that is also an
    # input (its default), and a body input that shadows an outer name (onnx's checker allows it).
    lstm = helper.make_node("LSTM", ["x3", "W", "R"], ["", "", "yc"], "lstm", hidden_size=3)
    save("legal_empty_outputs_repeat.onnx",
         helper.make_graph([lstm], "g", [vi("x3", [2, 1, 4])], [vi("yc", None)],
                           initializer=[helper.make_tensor("W", F, [1, 12, 4], [0.1] * 48),
                                        helper.make_tensor("R", F, [1, 12, 3], [0.1] * 36)]))
    w = helper.make_tensor("w", F, [6], [1.0] * 6)
    save("legal_initializer_is_input.onnx",
         helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"], "add")], "g", x6 + [vi("w", [6])],
                           [vi("y", None)], initializer=[w]))
    shadow = body([helper.make_node("Identity", ["c"], ["c_out"], "b_id"),
                   helper.make_node("Relu", ["x"], ["x_out"], "b_relu")], ["c_out", "x_out"],
                  inputs=[vi("i", [], i64), vi("c", [], TensorProto.BOOL), vi("x", [1, 6])])
    loop = helper.make_node("Loop", ["trip", "", "x"], ["y"], "loop", body=shadow)
    save("legal_body_input_shadows_outer.onnx",
         helper.make_graph([loop], "g", x6, [vi("y", None)], initializer=[trip]))


def inference_guards():
    """onnx 1.12's STFT inference reads its signal's dims 0-2 unchecked (fuzz_import found rank 1: SIGSEGV).
    With the signal's shape unknown it must not run at all: the node just gets no inferred shape."""
    i64 = TensorProto.INT64
    stft = helper.make_node("STFT", ["signal", "step", "", "length"], ["out"], "stft")
    save("stft_signal_unshaped.onnx",
         helper.make_graph([stft], "g", [vi("signal", None), vi("step", [], i64), vi("length", [], i64)],
                           [vi("out", None)]), opset=17)


def check_single_assignment():
    """`--check`: onnx's own checker on the files of single_assignment(), the independent word on which are
    legal. Graph outputs written without a shape get an empty one first (the checker wants the field)."""
    from onnx import checker

    def give_shapes(g):
        for v in list(g.input) + list(g.output):
            if not v.type.tensor_type.HasField("shape"):
                v.type.tensor_type.shape.SetInParent()
        for n in g.node:
            for a in n.attribute:
                if a.HasField("g"):
                    give_shapes(a.g)

    names = [f for f in sorted(os.listdir(HERE)) if f.startswith(
        ("output_twice_", "initializer_twice", "input_twice", "if_body_output_twice", "if_body_two_producers",
         "if_body_writes_outer_", "if_body_initializer_twice", "loop_body_input_twice", "legal_"))]
    wrong = 0
    for name in names:
        m = onnx.load(os.path.join(HERE, name))
        give_shapes(m.graph)
        try:
            checker.check_model(m)
            verdict = "accepted"
        except checker.ValidationError as e:
            verdict = "refused: " + str(e).splitlines()[0]
        ok = name.startswith("legal_") == (verdict == "accepted")
        wrong += not ok
        print(("ok   " if ok else "WRONG ") + name + ": " + verdict)
    return wrong


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--check":
        sys.exit(1 if check_single_assignment() else 0)
    if len(sys.argv) == 3 and sys.argv[1] == "--big":
        OUT = sys.argv[2]
        big_but_legal()
        sys.exit(0)
    conv_family()
    control_flow_unknown_op()
    graph_structure()
    bad_types_and_versions()
    arithmetic_overflow()
    names_with_control_characters()
    single_assignment()
    inference_guards()
