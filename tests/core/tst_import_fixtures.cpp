// SPDX-License-Identifier: MIT
// Import + shape inference + metrics on tiny models built through onnx's protobuf API, each expected value
// worked out by hand in the test.
#include "OnnxFixtures.h"

#include "core/metrics/NodeMetrics.h"
#include "core/model/ImportError.h"
#include "core/model/ModelImporter.h"
#include "core/model/ShapeEngine.h"

#include <QtTest>

#include <filesystem>
#include <fstream>

#include <algorithm>

using fixtures::ModelBuilder;

namespace {

QString shapeText(const bpu::Graph& g, const std::string& tensor) {
    bpu::TensorId id = g.findTensor(tensor);
    if (!id.valid())
        return QStringLiteral("<no tensor %1>").arg(QString::fromStdString(tensor));
    return QString::fromStdString(g.tensor(id).shape.toString());
}

bpu::NodeMetrics metricsOf(const bpu::Graph& g, const std::string& node) {
    bpu::NodeId id = g.findNode(node);
    if (!id.valid())
        qFatal("no node %s", node.c_str());
    return bpu::computeNodeMetrics(g, g.node(id));
}

bool anyWarningContains(const bpu::Graph& g, const QString& needle) {
    return std::any_of(g.diagnostics.begin(), g.diagnostics.end(), [&](const bpu::Diagnostic& d) {
        return QString::fromStdString(d.text).contains(needle);
    });
}

QString allWarnings(const bpu::Graph& g) {
    QStringList l;
    for (const auto& d : g.diagnostics)
        l << QString::fromStdString(d.text);
    return l.join(QStringLiteral(" | "));
}

} // namespace

class TestImportFixtures : public QObject {
    Q_OBJECT
private slots:
    void cleanupTestCase() {
        std::error_code ec;
        std::filesystem::remove_all(fixtures::tempDir(), ec);
    }

    void conv_data() {
        QTest::addColumn<int>("cin");
        QTest::addColumn<int>("hw");
        QTest::addColumn<int>("cout");
        QTest::addColumn<int>("group");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("pad");
        QTest::addColumn<int>("dilation");
        QTest::addColumn<int>("stride");
        QTest::addColumn<bool>("bias");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<qint64>("macs");
        QTest::addColumn<qint64>("params");

        // H_out = floor((17 + 2 + 2 - 2 * (3 - 1) - 1) / 2) + 1 = floor(16 / 2) + 1 = 9.
        // Each output element sums Cin/group x k x k = 6/3 x 3 x 3 = 18 products (dilation only spreads
        // them).
        QTest::addRow("grouped+padded+dilated+strided")
            << 6 << 17 << 12 << 3 << 3 << 2 << 2 << 2 << true << "1x12x9x9"
            << qint64(12 * 9 * 9 * (2 * 3 * 3)) << qint64(12 * 2 * 3 * 3 + 12);
        // Depthwise: H_out = (10 + 1 + 1 - 3) / 1 + 1 = 10; 1 x 3 x 3 = 9 MACs per output element.
        QTest::addRow("depthwise") << 8 << 10 << 8 << 8 << 3 << 1 << 1 << 1 << false << "1x8x10x10"
                                   << qint64(8 * 10 * 10 * 9) << qint64(8 * 1 * 3 * 3);
        // Pointwise: 16 products per output; weights 32 x 16 x 1 x 1 + 32 bias.
        QTest::addRow("pointwise") << 16 << 7 << 32 << 1 << 1 << 0 << 1 << 1 << true << "1x32x7x7"
                                   << qint64(32 * 7 * 7 * 16) << qint64(32 * 16 + 32);
        // Dilation 3 on a 3x3 kernel covers 7x7: H_out = (20 + 0 - 3 * 2 - 1) / 1 + 1 = 14.
        QTest::addRow("dilated-unpadded") << 4 << 20 << 4 << 2 << 3 << 0 << 3 << 1 << false << "1x4x14x14"
                                          << qint64(4 * 14 * 14 * (2 * 9)) << qint64(4 * 2 * 9);
    }
    void conv() {
        QFETCH(int, cin);
        QFETCH(int, hw);
        QFETCH(int, cout);
        QFETCH(int, group);
        QFETCH(int, kernel);
        QFETCH(int, pad);
        QFETCH(int, dilation);
        QFETCH(int, stride);
        QFETCH(bool, bias);
        QFETCH(QString, shape);
        QFETCH(qint64, macs);
        QFETCH(qint64, params);

        ModelBuilder b;
        b.input("x", {1, cin, hw, hw});
        b.weight("w", {cout, cin / group, kernel, kernel});
        std::vector<std::string> ins{"x", "w"};
        if (bias) {
            b.weight("b", {cout});
            ins.push_back("b");
        }
        auto& conv = b.node("Conv", ins, {"y"}, "conv");
        fixtures::setInt(conv, "group", group);
        fixtures::setInts(conv, "pads", {pad, pad, pad, pad});
        fixtures::setInts(conv, "dilations", {dilation, dilation});
        fixtures::setInts(conv, "strides", {stride, stride});
        fixtures::setInts(conv, "kernel_shape", {kernel, kernel});
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("conv.onnx"));

        QCOMPARE(shapeText(g, "y"), shape);
        auto m = metricsOf(g, "conv");
        QCOMPARE(m.macs, macs);
        QCOMPARE(m.params, params);
        QVERIFY(m.complete);
        // Bias adds are "other ops", one per output element, never MACs.
        const qint64 outElems = g.tensor(g.findTensor("y")).shape.elements().value_or(-1);
        QCOMPARE(m.ops, bias ? outElems : qint64(0));
        QCOMPARE(m.weightBytes, params * 4); // float32
        bpu::ModelMetrics totals;
        bpu::computeAllMetrics(g, &totals);
        QCOMPARE(totals.macs, macs);
        QCOMPARE(totals.params, params);
    }

    void gemm_data() {
        QTest::addColumn<bool>("transA");
        QTest::addColumn<bool>("transB");
        // A is 4x64 (or 64x4 transposed), B is 64x10 (or 10x64 transposed), C is [10]: Y = 4x10, K = 64.
        QTest::addRow("transB") << false << true;
        QTest::addRow("transA+transB") << true << true;
        QTest::addRow("plain") << false << false;
    }
    void gemm() {
        QFETCH(bool, transA);
        QFETCH(bool, transB);
        ModelBuilder b;
        b.input("a", transA ? std::vector<int64_t>{64, 4} : std::vector<int64_t>{4, 64});
        b.weight("B", transB ? std::vector<int64_t>{10, 64} : std::vector<int64_t>{64, 10});
        b.weight("C", {10});
        auto& n = b.node("Gemm", {"a", "B", "C"}, {"y"}, "fc");
        fixtures::setInt(n, "transA", transA);
        fixtures::setInt(n, "transB", transB);
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("gemm.onnx"));
        QCOMPARE(shapeText(g, "y"), QStringLiteral("4x10"));
        auto m = metricsOf(g, "fc");
        QCOMPARE(m.macs, qint64(4 * 10 * 64)); // 40 outputs x 64 products
        QCOMPARE(m.params, qint64(64 * 10 + 10));
        QCOMPARE(m.ops, qint64(4 * 10)); // + C
        QCOMPARE(m.inputElements, qint64(4 * 64));
        QCOMPARE(m.outputBytes, qint64(4 * 10 * 4));
    }

    void matmul_data() {
        QTest::addColumn<QList<qint64>>("a");
        QTest::addColumn<QList<qint64>>("b");
        QTest::addColumn<bool>("bIsWeight");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<qint64>("macs");
        // [2,3,4,5] x [5,6]: B broadcasts over the 2x3 batch; 2*3 batches of 4x6 outputs, K = 5.
        QTest::addRow("batched x weight") << QList<qint64>{2, 3, 4, 5} << QList<qint64>{5, 6} << true
                                          << "2x3x4x6" << qint64(2 * 3 * 4 * 6 * 5);
        // [2,1,4,5] x [3,5,6]: batch dims broadcast to 2x3.
        QTest::addRow("broadcast both") << QList<qint64>{2, 1, 4, 5} << QList<qint64>{3, 5, 6} << false
                                        << "2x3x4x6" << qint64(2 * 3 * 4 * 6 * 5);
        // 1-D A is a row vector: [5] x [5,6] -> [6], 6 outputs x 5 products.
        QTest::addRow("vector x matrix")
            << QList<qint64>{5} << QList<qint64>{5, 6} << true << "6" << qint64(6 * 5);
        // 1-D B is a column vector: [2,3,4,5] x [5] -> [2,3,4], 24 outputs x 5 products.
        QTest::addRow("batched x vector")
            << QList<qint64>{2, 3, 4, 5} << QList<qint64>{5} << true << "2x3x4" << qint64(2 * 3 * 4 * 5);
    }
    void matmul() {
        QFETCH(QList<qint64>, a);
        QFETCH(QList<qint64>, b);
        QFETCH(bool, bIsWeight);
        QFETCH(QString, shape);
        QFETCH(qint64, macs);
        ModelBuilder mb;
        mb.input("a", {a.begin(), a.end()});
        if (bIsWeight)
            mb.weight("b", {b.begin(), b.end()});
        else
            mb.input("b", {b.begin(), b.end()});
        mb.node("MatMul", {"a", "b"}, {"y"}, "mm");
        mb.output("y");
        bpu::Graph g = bpu::ModelImporter::load(mb.save("matmul.onnx"));
        QCOMPARE(shapeText(g, "y"), shape);
        auto m = metricsOf(g, "mm");
        QCOMPARE(m.macs, macs);
        qint64 bElems = 1;
        for (auto d : b)
            bElems *= d;
        QCOMPARE(m.params, bIsWeight ? bElems : qint64(0));
    }

    // torch's channel shuffle: N and C are read back from the tensor's own shape at run time, so the
    // Reshape targets are Concat(Gather(Shape(x)), ...) chains that must fold to constants.
    void reshapeFromShapeChain() {
        ModelBuilder b;
        b.input("x", {1, 8, 6, 6});
        b.ints("idx0", {0});
        b.ints("idx1", {1});
        b.ints("two", {2});
        b.ints("minus1", {-1});
        b.ints("hw", {6, 6});
        b.node("Shape", {"x"}, {"s"}, "shape");
        b.node("Gather", {"s", "idx0"}, {"n"}, "gather_n"); // [1]
        b.node("Gather", {"s", "idx1"}, {"c"}, "gather_c"); // [8]
        b.node("Div", {"c", "two"}, {"c2"}, "half");        // [4]
        auto& c1 = b.node("Concat", {"n", "two", "c2", "hw"}, {"t1"}, "concat1");
        fixtures::setInt(c1, "axis", 0);
        b.node("Reshape", {"x", "t1"}, {"r1"}, "reshape1"); // [1,2,4,6,6]
        auto& tr = b.node("Transpose", {"r1"}, {"tr"}, "transpose");
        fixtures::setInts(tr, "perm", {0, 2, 1, 3, 4}); // [1,4,2,6,6]
        auto& c2 = b.node("Concat", {"n", "minus1", "hw"}, {"t2"}, "concat2");
        fixtures::setInt(c2, "axis", 0);
        b.node("Reshape", {"tr", "t2"}, {"y"}, "reshape2"); // [1, 8*6*6/36 = 8, 6, 6]
        // Flatten the torch way: [N, -1] with N from the shape.
        auto& c3 = b.node("Concat", {"n", "minus1"}, {"t3"}, "concat3");
        fixtures::setInt(c3, "axis", 0);
        b.node("Reshape", {"y", "t3"}, {"flat"}, "flatten"); // [1, 8*6*6 = 288]
        b.output("flat");
        bpu::Graph g = bpu::ModelImporter::load(b.save("shuffle.onnx"));

        QCOMPARE(shapeText(g, "t1"), QStringLiteral("5"));
        const auto& t1 = g.tensor(g.findTensor("t1"));
        QVERIFY2(t1.value, "Concat(Gather(Shape(x)), ...) did not fold to a constant");
        QCOMPARE(t1.value->ints, (std::vector<int64_t>{1, 2, 4, 6, 6}));
        QCOMPARE(shapeText(g, "r1"), QStringLiteral("1x2x4x6x6"));
        QCOMPARE(shapeText(g, "tr"), QStringLiteral("1x4x2x6x6"));
        QCOMPARE(shapeText(g, "y"), QStringLiteral("1x8x6x6"));
        QCOMPARE(shapeText(g, "flat"), QStringLiteral("1x288"));
        for (const auto& n : g.nodes)
            QVERIFY2(n.shapeError.empty(), (n.name + ": " + n.shapeError).c_str());
        // Shape arithmetic is free: no MACs anywhere, and Reshape/Transpose do no arithmetic either.
        bpu::ModelMetrics totals;
        bpu::computeAllMetrics(g, &totals);
        QCOMPARE(totals.macs, qint64(0));
        QCOMPARE(totals.nodesIncomplete, 0);
    }

    // One tensor feeding two inputs of a node: Mul(x, x) and a Slice whose ends and axes are the same
    // constant. Inference must see each input once (a doubled type would read as rank 4, doubled data as a
    // two-element axes list).
    void sameTensorTwice() {
        ModelBuilder b;
        b.input("x", {3, 5});
        b.ints("zero", {0});
        b.ints("one", {1});
        b.node("Mul", {"x", "x"}, {"sq"}, "square");
        b.node("Slice", {"sq", "zero", "one", "one"}, {"y"}, "slice"); // axis 1, [0, 1) -> 3x1
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("twice.onnx"));
        QCOMPARE(shapeText(g, "sq"), QStringLiteral("3x5"));
        QCOMPARE(shapeText(g, "y"), QStringLiteral("3x1"));
        QCOMPARE(metricsOf(g, "square").ops, qint64(15));
    }

    // torch's Resize to floor(size * scale): the size arithmetic is float (Cast, Mul, Floor, Cast back),
    // and the result is the Resize 'sizes' input.
    void resizeFromFloatArithmetic() {
        ModelBuilder b;
        b.input("x", {1, 3, 20, 30});
        b.ints("hw_idx", {2, 3});
        b.ints("start", {0});
        b.ints("two", {2});
        auto* scale = b.graph().add_initializer();
        scale->set_name("scale");
        scale->set_data_type(onnx::TensorProto::FLOAT);
        scale->add_float_data(1.5f);
        b.node("Shape", {"x"}, {"s"}, "shape");
        b.node("Gather", {"s", "hw_idx"}, {"hw"}, "gather");
        fixtures::setInt(b.node("Cast", {"hw"}, {"hwf"}, "to_float"), "to", onnx::TensorProto::FLOAT);
        b.node("Mul", {"hwf", "scale"}, {"scaled"}, "mul");
        b.node("Floor", {"scaled"}, {"floored"}, "floor");
        fixtures::setInt(b.node("Cast", {"floored"}, {"hwi"}, "to_int"), "to", onnx::TensorProto::INT64);
        b.node("Slice", {"s", "start", "two"}, {"nc"}, "slice");
        fixtures::setInt(b.node("Concat", {"nc", "hwi"}, {"sizes"}, "concat"), "axis", 0);
        b.node("Resize", {"x", "", "", "sizes"}, {"y"}, "resize");
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("resize.onnx"));
        // floor(20 * 1.5) = 30, floor(30 * 1.5) = 45.
        QCOMPARE(g.tensor(g.findTensor("sizes")).value->ints, (std::vector<int64_t>{1, 3, 30, 45}));
        QCOMPARE(shapeText(g, "y"), QStringLiteral("1x3x30x45"));
    }

    // torch's F.pad export: pads are built as (begin, end) pairs per axis from the last axis backwards:
    // Concat, Reshape to [-1, 2], Slice with step -1 (reverse the pairs), Transpose, Reshape to [-1].
    void padFromReversedPairs() {
        ModelBuilder b;
        b.input("x", {1, 3, 5, 5});
        b.ints("torch_pads", {0, 1, 0, 2}); // W: (0, 1), H: (0, 2)
        b.ints("four", {4});
        b.ints("pairs", {-1, 2});
        b.ints("flat", {-1});
        b.ints("last", {-1});
        b.ints("first", {-9223372036854775807LL});
        b.ints("axis0", {0});
        b.ints("minus_one", {-1});
        auto* fill = b.node("ConstantOfShape", {"four"}, {"zeros"}, "zeros").add_attribute();
        fill->set_name("value");
        fill->set_type(onnx::AttributeProto::TENSOR);
        fill->mutable_t()->set_data_type(onnx::TensorProto::INT64); // int64 zeros, as torch writes it
        fill->mutable_t()->add_dims(1);
        fill->mutable_t()->add_int64_data(0);
        fixtures::setInt(b.node("Concat", {"torch_pads", "zeros"}, {"all"}, "concat"), "axis", 0);
        b.node("Reshape", {"all", "pairs"}, {"p2"}, "reshape_pairs"); // [[0,1],[0,2],[0,0],[0,0]]
        b.node("Slice", {"p2", "last", "first", "axis0", "minus_one"}, {"rev"},
               "reverse"); // [[0,0],[0,0],[0,2],[0,1]]
        fixtures::setInts(b.node("Transpose", {"rev"}, {"tr"}, "transpose"), "perm",
                          {1, 0}); // [[0,0,0,0],[0,0,2,1]]
        b.node("Reshape", {"tr", "flat"}, {"onnx_pads"}, "flatten");
        b.node("Pad", {"x", "onnx_pads"}, {"y"}, "pad");
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("pad.onnx"));
        QCOMPARE(g.tensor(g.findTensor("onnx_pads")).value->ints,
                 (std::vector<int64_t>{0, 0, 0, 0, 0, 0, 2, 1}));
        // H: 5 + 0 + 2 = 7, W: 5 + 0 + 1 = 6.
        QCOMPARE(shapeText(g, "y"), QStringLiteral("1x3x7x6"));
    }

    void concat_data() {
        QTest::addColumn<int>("axis");
        QTest::addRow("axis 1") << 1;
        QTest::addRow("axis -3") << -3; // same axis counted from the end of a rank-4 shape
    }
    void concat() {
        QFETCH(int, axis);
        ModelBuilder b;
        b.input("a", {1, 3, 8, 8});
        b.input("b", {1, 5, 8, 8});
        b.weight("c", {1, 2, 8, 8}); // a constant branch counts as params
        auto& n = b.node("Concat", {"a", "b", "c"}, {"y"}, "cat");
        fixtures::setInt(n, "axis", axis);
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("concat.onnx"));
        QCOMPARE(shapeText(g, "y"), QStringLiteral("1x10x8x8")); // 3 + 5 + 2 channels
        auto m = metricsOf(g, "cat");
        QCOMPARE(m.macs, qint64(0));
        QCOMPARE(m.params, qint64(2 * 8 * 8));
        QCOMPARE(m.inputElements, qint64((3 + 5) * 8 * 8));
        QCOMPARE(m.outputElements, qint64(10 * 8 * 8));
    }

    void residualAdd() {
        ModelBuilder b;
        b.input("x", {1, 4, 8, 8});
        b.weight("w", {4, 4, 3, 3});
        auto& conv = b.node("Conv", {"x", "w"}, {"c"}, "conv");
        fixtures::setInts(conv, "pads", {1, 1, 1, 1});
        b.node("Relu", {"c"}, {"r"}, "relu");
        b.node("Add", {"x", "r"}, {"y"}, "add");
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("residual.onnx"));
        QCOMPARE(shapeText(g, "y"), QStringLiteral("1x4x8x8"));
        const auto& x = g.tensor(g.findTensor("x"));
        QCOMPARE(x.consumers.size(), size_t(2)); // conv and the skip connection
        QVERIFY(x.isGraphInput && !x.producer.valid());
        QCOMPARE(g.tensor(g.findTensor("r")).producer, g.findNode("relu"));
        auto add = metricsOf(g, "add");
        QCOMPARE(add.ops, qint64(4 * 8 * 8)); // one add per output element
        QCOMPARE(add.macs, qint64(0));
        QCOMPARE(add.inputElements, qint64(2 * 4 * 8 * 8));
        bpu::ModelMetrics totals;
        bpu::computeAllMetrics(g, &totals);
        QCOMPARE(totals.macs, qint64(4 * 8 * 8 * (4 * 3 * 3))); // only the conv: 256 outputs x 36
        QCOMPARE(totals.ops, qint64(256 + 256));                // relu + add
        QCOMPARE(totals.opHistogram.at("Add"), 1);
    }

    void ifSubgraph() {
        ModelBuilder b;
        b.input("x", {1, 4});
        b.input("cond", {}, onnx::TensorProto::BOOL);
        auto& n = b.node("If", {"cond"}, {"y"}, "branch");
        auto addBranch = [&](const char* key, const char* op) {
            auto* a = n.add_attribute();
            a->set_name(key);
            a->set_type(onnx::AttributeProto::GRAPH);
            auto* g = a->mutable_g();
            g->set_name(key);
            auto* inner = g->add_node();
            inner->set_op_type(op);
            inner->add_input(
                std::string("x")); // outer-scope value (std::string: GCC 12 -Wrestrict false positive)
            inner->add_output(std::string(key) + "_out");
            auto* out = g->add_output();
            out->set_name(std::string(key) + "_out");
            auto* tt = out->mutable_type()->mutable_tensor_type();
            tt->set_elem_type(onnx::TensorProto::FLOAT);
            tt->mutable_shape()->add_dim()->set_dim_value(1);
            tt->mutable_shape()->add_dim()->set_dim_value(4);
        };
        addBranch("then_branch", "Relu");
        addBranch("else_branch", "Neg");
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("if.onnx"));
        const auto& node = g.node(g.findNode("branch"));
        QCOMPARE(node.subgraphCount, 2);
        QCOMPARE(node.subgraphNodeCount, 2);
        QVERIFY2(anyWarningContains(g, QStringLiteral("subgraphs")), qPrintable(allWarnings(g)));
        QVERIFY2(anyWarningContains(g, QStringLiteral("holding 2 nodes")), qPrintable(allWarnings(g)));
        QCOMPARE(g.nodes.size(), size_t(1)); // subgraph nodes are not flattened into the top level
        QCOMPARE(shapeText(g, "y"), QStringLiteral("1x4"));
    }

    void symbolicBatch_data() {
        QTest::addColumn<qint64>("batch");
        QTest::addColumn<QList<qint64>>("override");
        QTest::addColumn<QString>("inputShape");
        QTest::addColumn<QString>("outputShape");
        QTest::addRow("default batch 1") << qint64(1) << QList<qint64>{} << "1x3x16x16"
                                         << "1x8x8x8";
        QTest::addRow("batch 4") << qint64(4) << QList<qint64>{} << "4x3x16x16"
                                 << "4x8x8x8";
        // An explicit shape wins over --batch; the 3x3/2 conv with pad 1 halves 32 to 16.
        QTest::addRow("input shape") << qint64(4) << QList<qint64>{2, 3, 32, 32} << "2x3x32x32"
                                     << "2x8x16x16";
    }
    void symbolicBatch() {
        QFETCH(qint64, batch);
        QFETCH(QList<qint64>, override);
        QFETCH(QString, inputShape);
        QFETCH(QString, outputShape);
        ModelBuilder b;
        b.input("x", {-1, 3, 16, 16}, onnx::TensorProto::FLOAT, "batch");
        b.weight("w", {8, 3, 3, 3});
        auto& conv = b.node("Conv", {"x", "w"}, {"y"}, "conv");
        fixtures::setInts(conv, "pads", {1, 1, 1, 1});
        fixtures::setInts(conv, "strides", {2, 2});
        b.output("y");
        bpu::ImportOptions opt;
        opt.batch = batch;
        if (!override.isEmpty())
            opt.inputShapes["x"] = {override.begin(), override.end()};
        bpu::Graph g = bpu::ModelImporter::load(b.save("symbolic.onnx"), opt);
        QCOMPARE(shapeText(g, "x"), inputShape);
        QCOMPARE(shapeText(g, "y"), outputShape);
        QVERIFY2(!anyWarningContains(g, QStringLiteral("unresolved")), qPrintable(allWarnings(g)));
        // MACs scale with the resolved shape: outputs x (3 x 3 x 3).
        const qint64 outElems = g.tensor(g.findTensor("y")).shape.elements().value_or(-1);
        QCOMPARE(metricsOf(g, "conv").macs, outElems * 27);
    }

    void inputShapeErrors() {
        ModelBuilder b;
        b.input("x", {-1, 3, 16, 16});
        b.node("Relu", {"x"}, {"y"}, "relu");
        b.output("y");
        const std::string path = b.save("override.onnx");
        bpu::ImportOptions wrongRank;
        wrongRank.inputShapes["x"] = {1, 3, 16};
        QVERIFY_THROWS_EXCEPTION(bpu::ImportError, bpu::ModelImporter::load(path, wrongRank));
        bpu::ImportOptions wrongName;
        wrongName.inputShapes["images"] = {1, 3, 16, 16};
        try {
            bpu::ModelImporter::load(path, wrongName);
            QFAIL("an --input-shape for a missing input was accepted");
        } catch (const bpu::ImportError& e) {
            QVERIFY2(QString::fromStdString(e.what()).contains(
                         QStringLiteral("'images', which is not a model input")),
                     e.what());
        }
    }

    void unresolvedSymbolicDim() {
        ModelBuilder b;
        b.input("x", {-1, 3, -1, 16}, onnx::TensorProto::FLOAT, "batch");
        // Give the height its own symbol, as exporters do for dynamic axes.
        b.graph()
            .mutable_input(0)
            ->mutable_type()
            ->mutable_tensor_type()
            ->mutable_shape()
            ->mutable_dim(2)
            ->set_dim_param("height");
        b.node("Relu", {"x"}, {"y"}, "relu");
        b.output("y");
        bpu::ImportOptions opt;
        opt.batch = 2;
        bpu::Graph g = bpu::ModelImporter::load(b.save("unresolved.onnx"), opt);
        // The batch resolves; the height is reported, never guessed.
        QCOMPARE(shapeText(g, "x"), QStringLiteral("2x3xheightx16"));
        QVERIFY2(anyWarningContains(g, QStringLiteral("input 'x' dim 2 ('height') is unresolved")),
                 qPrintable(allWarnings(g)));
        QVERIFY2(anyWarningContains(g, QStringLiteral("--input-shape x=")), qPrintable(allWarnings(g)));
        QVERIFY2(!anyWarningContains(g, QStringLiteral("dim 0")), qPrintable(allWarnings(g)));
        QCOMPARE(g.tensor(g.findTensor("y")).shape.toString(), std::string("2x3xheightx16"));
        QVERIFY(!metricsOf(g, "relu").complete);
        QVERIFY2(anyWarningContains(g, QStringLiteral("no complete shape inference for 1 nodes")),
                 qPrintable(allWarnings(g)));
    }

    // Shapes keep a table of dim names only where the file named a dim: a numeric shape has none (a 100k-node
    // model holds hundreds of thousands of shapes), and clearing a name never creates one.
    void symbolTableOnlyWhereNamed() {
        ModelBuilder b;
        b.input("x", {-1, 3, -1, 16}, onnx::TensorProto::FLOAT, "height"); // dim 0: the batch, resolved to 1
        b.node("Relu", {"x"}, {"y"}, "relu");
        b.output("y");
        b.input("z", {1, 3, 8, 16});
        b.node("Relu", {"z"}, {"w"}, "relu2");
        b.output("w");
        const bpu::Graph g = bpu::ModelImporter::load(b.save("named.onnx"));
        for (const char* t : {"x", "y"}) {
            const bpu::TensorShape& s = g.tensor(g.findTensor(t)).shape;
            QCOMPARE(s.toString(), std::string("1x3xheightx16")); // onnx carries the name through inference
            QCOMPARE(s.symbol(2), std::string("height"));
            QCOMPARE(s.symbol(0), std::string()); // the batch's name went with its value
            QCOMPARE(s.symbol(9), std::string()); // past the rank: no name, no out-of-range read
        }
        // No dim of z or w was ever named: their tables were never made.
        for (const char* t : {"z", "w"}) {
            QCOMPARE(g.tensor(g.findTensor(t)).shape.toString(), std::string("1x3x8x16"));
            QVERIFY(g.tensor(g.findTensor(t)).shape.symbols.empty());
        }

        bpu::TensorShape numeric({1, 2, 3});
        numeric.setSymbol(1, {});
        QVERIFY(numeric.symbols.empty());
        numeric.dims[1] = bpu::TensorShape::kUnknownDim;
        numeric.setSymbol(1, "h");
        QCOMPARE(numeric.symbols.size(), size_t(3));
        QCOMPARE(numeric.toString(), std::string("1xhx3"));
    }

    // load() parses the file as it reads it, 256 KiB at a time: an embedded 2.4 MB weight is one protobuf
    // field over ten reads. It must arrive whole (the importer refuses raw data that does not fill its dims),
    // exactly as from one buffer, and a file cut inside it must be refused, not half-read.
    void weightAcrossReadBlocks() {
        ModelBuilder b;
        b.input("x", {1, 256, 28, 28});
        b.weight("w", {256, 256, 3, 3});
        fixtures::setInts(b.node("Conv", {"x", "w"}, {"y"}, "conv"), "pads", {1, 1, 1, 1});
        b.output("y");
        const std::string path = b.save("embedded_weight.onnx");
        std::ifstream in(path, std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        QVERIFY(bytes.size() > 256 * 256 * 9 * 4); // the weight is in the file

        const bpu::Graph streamed = bpu::ModelImporter::load(path);
        const bpu::Graph whole = bpu::ModelImporter::loadBytes(path, bytes);
        QCOMPARE(shapeText(streamed, "y"), QStringLiteral("1x256x28x28"));
        const bpu::Tensor& w = streamed.tensor(streamed.findTensor("w"));
        QVERIFY(w.isInitializer);
        QCOMPARE(w.shape.toString(), std::string("256x256x3x3"));
        QCOMPARE(bpu::computeAllMetrics(streamed)[0].params, int64_t(256 * 256 * 9));
        QCOMPARE(streamed.node(streamed.findNode("conv")).proto->SerializeAsString(),
                 whole.node(whole.findNode("conv")).proto->SerializeAsString());

        const std::string cut = fixtures::tempDir() + "/embedded_weight_cut.onnx";
        std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
        try {
            bpu::ModelImporter::load(cut);
            QFAIL("a file cut inside its weight was imported");
        } catch (const bpu::ImportError& e) {
            QVERIFY2(std::string(e.what()).find("protobuf parse failed") != std::string::npos, e.what());
        }
    }

    void topologicalOrder() {
        ModelBuilder b;
        b.input("x", {1, 2, 4, 4});
        // Listed consumer-first: relu reads what add produces, add reads what neg produces.
        b.node("Relu", {"a"}, {"y"}, "relu");
        b.node("Add", {"n", "x"}, {"a"}, "add");
        b.node("Neg", {"x"}, {"n"}, "neg");
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("unordered.onnx"));
        QCOMPARE(g.topoOrder.size(), size_t(3));
        QCOMPARE(g.node(g.topoOrder[0]).name, std::string("neg"));
        QCOMPARE(g.node(g.topoOrder[1]).name, std::string("add"));
        QCOMPARE(g.node(g.topoOrder[2]).name, std::string("relu"));
        QCOMPARE(g.topoIndex()[g.findNode("relu").value], uint32_t(2));
        // Shapes flow in dependency order, not file order.
        QCOMPARE(shapeText(g, "y"), QStringLiteral("1x2x4x4"));
        // Node ids keep the file order.
        QCOMPARE(g.findNode("relu").value, uint32_t(0));
    }

    void cycle() {
        ModelBuilder b;
        b.input("x", {1, 4});
        b.node("Add", {"x", "c"}, {"a"}, "add_on_cycle");
        b.node("Relu", {"a"}, {"c"}, "relu_on_cycle");
        b.node("Neg", {"x"}, {"y"}, "neg_off_cycle");
        b.output("y");
        const std::string path = b.save("cycle.onnx");
        try {
            bpu::ModelImporter::load(path);
            QFAIL("a cyclic graph was accepted");
        } catch (const bpu::ImportError& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.startsWith(QString::fromStdString(path) + QStringLiteral(": ")), e.what());
            QVERIFY2(msg.contains(QStringLiteral("cycle")), e.what());
            QVERIFY2(msg.contains(QStringLiteral("'add_on_cycle'")) ||
                         msg.contains(QStringLiteral("'relu_on_cycle'")),
                     e.what());
            QVERIFY2(!msg.contains(QStringLiteral("neg_off_cycle")), e.what());
        }
    }

    // A what-if edit re-derives only what is downstream: change the input, re-infer, shapes follow.
    void reinferAfterInputChange() {
        ModelBuilder b;
        b.input("x", {1, 3, 16, 16});
        b.weight("w", {8, 3, 3, 3});
        auto& conv = b.node("Conv", {"x", "w"}, {"c"}, "conv");
        fixtures::setInts(conv, "pads", {1, 1, 1, 1});
        b.node("Shape", {"c"}, {"s"}, "shape");
        b.ints("minus1", {-1});
        b.ints("idx0", {0});
        b.node("Gather", {"s", "idx0"}, {"n"}, "gather");
        auto& cat = b.node("Concat", {"n", "minus1"}, {"t"}, "concat");
        fixtures::setInt(cat, "axis", 0);
        b.node("Reshape", {"c", "t"}, {"y"}, "flatten");
        b.output("y");
        bpu::Graph g = bpu::ModelImporter::load(b.save("reinfer.onnx"));
        QCOMPARE(shapeText(g, "y"), QStringLiteral("1x2048")); // 8 x 16 x 16
        auto& x = g.tensor(g.findTensor("x"));
        x.shape = bpu::TensorShape({2, 3, 8, 8});
        auto visited = bpu::ShapeEngine::reinfer(g, {x.id});
        QCOMPARE(shapeText(g, "c"), QStringLiteral("2x8x8x8"));
        QCOMPARE(shapeText(g, "y"), QStringLiteral("2x512")); // 8 x 8 x 8
        QCOMPARE(visited.size(), size_t(5));                  // every node is downstream of x
    }
};

QTEST_GUILESS_MAIN(TestImportFixtures)
#include "tst_import_fixtures.moc"
