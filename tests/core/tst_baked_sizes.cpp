// SPDX-License-Identifier: MIT
// Issue 61, step 2: sizes an export baked in are named, with the recipe, and a re-export is estimated.
// The models are tests/data/baked/make_fixtures.py's (each builder draws its graph): baked_resize.onnx at
// 64x64, whose Resize takes sizes = Concat(Slice(Shape(.)), Constant[32, 32]); deeplabv3_like.onnx,
// torchvision's DeepLabV3 in outline at 520x520, whose ASPP pooling branch is resized to the traced 33x33
// (ceil(520 / 16)) and whose output to the traced 520x520.
#include "CliRun.h"
#include "TestPaths.h"

#include "core/advice/FixTrial.h"
#include "core/edit/EditError.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/edit/UndoToken.h"
#include "core/model/BakedSizes.h"
#include "core/model/Completeness.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <QtTest>
#include <nlohmann/json.hpp>

namespace {

std::string baked(const char* name) {
    return bpu::test::testDataDir() + "/baked/" + name;
}

std::shared_ptr<const bpu::TargetProfile> s100() {
    static auto p = std::make_shared<const bpu::TargetProfile>(bpu::loadTargetProfile("s100"));
    return p;
}

std::vector<int64_t> shapeOf(const bpu::Graph& g, const char* tensor) {
    return g.tensor(g.findTensor(tensor)).shape.dims;
}

bpu::EditList reexportAt(const char* input, std::vector<int64_t> dims) {
    return bpu::editListFromJson(
        nlohmann::json{{{"op", "assume_reexported"}, {"input", input}, {"shape", std::move(dims)}}});
}

} // namespace

class TestBakedSizes : public QObject {
    Q_OBJECT

private slots:
    // The tracer reads which elements of a size are the file's numbers and how they follow the input.
    void tracerFindsTheTracedSizes() {
        const bpu::Graph g = bpu::ModelImporter::load(baked("baked_resize.onnx"));
        const std::vector<bpu::BakedSize> found = bpu::bakedSizes(g, {64, 64});
        QCOMPARE(found.size(), size_t(1));
        const bpu::BakedSize& b = found[0];
        QCOMPARE(g.node(b.node).name, std::string("upsample"));
        QCOMPARE(b.value,
                 (std::vector<int64_t>{1, 8, 32, 32})); // N, C from Shape; 32 = 64 / 2 from the Constant
        QCOMPARE(b.fixed, (std::vector<bool>{false, false, true, true}));
        QVERIFY(b.rewritable);
        QCOMPARE(b.follows[2].axis, bpu::SizeFollow::H);
        QCOMPARE(b.follows[2].stride, int64_t(2));
        QCOMPARE(bpu::reexportedValue(b, 48, 40), (std::vector<int64_t>{1, 8, 24, 20}));
        QCOMPARE(bpu::bakedSizeText(g, b), std::string("'upsample' (Resize sizes 1x8x32x32)"));

        const bpu::Graph d = bpu::ModelImporter::load(baked("deeplabv3_like.onnx"));
        const auto sizes = bpu::bakedSizes(d, {520, 520});
        QCOMPARE(sizes.size(), size_t(2));
        QCOMPARE(d.node(sizes[0].node).name, std::string("/classifier/classifier.0/convs.4/Resize"));
        // 520 -> 260 -> 130 -> 65 -> 33 (stride-2 convs round up): the stage at stride 16; at 512 it is 32.
        QCOMPARE(sizes[0].value, (std::vector<int64_t>{1, 256, 33, 33}));
        QCOMPARE(bpu::reexportedValue(sizes[0], 512, 512), (std::vector<int64_t>{1, 256, 32, 32}));
        QCOMPARE(d.node(sizes[1].node).name, std::string("/Resize"));
        QCOMPARE(bpu::reexportedValue(sizes[1], 512, 512), (std::vector<int64_t>{1, 21, 512, 512}));
        // Behind the ASPP's Concat is the pooling branch's Resize only (the output Resize is after it).
        const auto behind = bpu::bakedSizesBehind(d, d.findNode("/classifier/classifier.0/Concat"),
                                                  bpu::TracedInput{520, 520});
        QCOMPARE(behind.size(), size_t(1));
        QCOMPARE(behind[0].node, sizes[0].node);
    }

    // yolo12n's area attention reshapes to NHWC [1, 40, 40, 64] at 640x640: the two 40s are the stage's H
    // then W (not H twice), so a re-export at 320x640 sets [1, 20, 40, 64] and every shape infers; read as H
    // and H it set [1, 20, 20, 64] and broke there (issue 63: the drag editor's input-H curve on yolo12n was
    // three points at 636..640).
    void nhwcReshapeReadsHThenW() {
        const bpu::Graph g = bpu::ModelImporter::load(bpu::test::samplesDir() + "/yolo12n.onnx");
        const auto sizes = bpu::bakedSizes(g, {640, 640});
        const auto at = std::find_if(sizes.begin(), sizes.end(), [&](const bpu::BakedSize& b) {
            return g.node(b.node).name == "/model.6/m.0/m.0.0/attn/Reshape_5";
        });
        QVERIFY(at != sizes.end());
        QCOMPARE(at->value, (std::vector<int64_t>{1, 40, 40, 64}));
        QCOMPARE(at->follows[1].axis, bpu::SizeFollow::H);
        QCOMPARE(at->follows[2].axis, bpu::SizeFollow::W);
        // 640 / 16 = 40: the stage at stride 16; at 320 x 640 it is 20 x 40.
        QCOMPARE(bpu::reexportedValue(*at, 320, 640), (std::vector<int64_t>{1, 20, 40, 64}));
        bpu::Session s(bpu::ModelImporter::load(bpu::test::samplesDir() + "/yolo12n.onnx"), s100());
        bpu::applyEditList(s, reexportAt("images", {1, 3, 320, 640}));
        QVERIFY(bpu::completeness(s.graph()).complete());
        QCOMPARE(shapeOf(s.graph(), "/model.6/m.0/m.0.0/attn/Reshape_5_output_0"),
                 (std::vector<int64_t>{1, 20, 40, 64}));
    }

    // assume_reexported sets the input and the traced constants together: where set_input_shape breaks the
    // Concat, it infers every shape; its revert restores the constant.
    void reexportEditRewritesTheConstants() {
        bpu::Session s(bpu::ModelImporter::load(baked("baked_resize.onnx")), s100());
        QVERIFY_THROWS_EXCEPTION(
            bpu::EditError,
            bpu::applyEditList(s,
                               bpu::editListFromJson(nlohmann::json{
                                   {{"op", "set_input_shape"}, {"input", "x"}, {"shape", {1, 3, 48, 48}}}})));
        const auto before = s.graph().tensor(s.graph().findTensor("hw")).value->ints;
        bpu::UndoToken token = bpu::applyEditList(s, reexportAt("x", {1, 3, 48, 48}));
        QVERIFY(bpu::completeness(s.graph()).complete());
        QCOMPARE(shapeOf(s.graph(), "up"), (std::vector<int64_t>{1, 8, 24, 24}));
        QCOMPARE(shapeOf(s.graph(), "cat"), (std::vector<int64_t>{1, 16, 24, 24}));
        QCOMPARE(s.graph().tensor(s.graph().findTensor("hw")).value->ints, (std::vector<int64_t>{24, 24}));
        token.revert(s);
        QCOMPARE(s.graph().tensor(s.graph().findTensor("hw")).value->ints, before);
        QCOMPARE(shapeOf(s.graph(), "cat"), (std::vector<int64_t>{1, 16, 32, 32}));
        // Idealized: the re-export is the owner's to make; export refuses it by name.
        QVERIFY(reexportAt("x", {1, 3, 48, 48}).front()->idealized());
    }

    // A batch the graph refuses at a Concat: the Resize behind it, whose sizes are one Constant [1, 8, 32,
    // 32] (the batch baked in too), is named with the recipe. (A Reshape that breaks on its own constant
    // target is named by the refusal itself.)
    void refusalNamesTheTracedSizeBehind() {
        bpu::Session s(bpu::ModelImporter::load(baked("baked_batch.onnx")), s100());
        const bpu::EditList batch =
            bpu::editListFromJson(nlohmann::json{{{"op", "set_batch"}, {"batch", 2}}});
        const auto out = bpu::tryEach(s, {&batch}, {});
        const auto* no = std::get_if<bpu::TrialRefusal>(&out.at(0));
        QVERIFY(no);
        QCOMPARE(no->brokenNode, std::string("cat"));
        nlohmann::json evidence = nlohmann::json::object();
        const std::string text = bpu::refusalText(s.graph(), *no, evidence);
        QVERIFY2(text.rfind(no->why, 0) == 0, text.c_str());
        const std::string tail =
            " (the export fixes the size at 'upsample' (Resize sizes 1x8x32x32): export with "
            "a dynamic size for this change to apply)";
        QVERIFY2(text.size() > tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0,
                 text.c_str());
        QCOMPARE(evidence["baked_sizes"][0]["node"].get<std::string>(), std::string("upsample"));
    }

    // The input-size finding on the DeepLabV3-shaped model says why 512x512 is missing, how to get it, and
    // what a re-export at it would give, labelled as an estimate; it never becomes the fix.
    void deeplabNamesTheBakedSizeAndTheRecipe() {
        const auto r =
            clirun::runCli({QStringLiteral("analyze"), QString::fromStdString(baked("deeplabv3_like.onnx")),
                            QStringLiteral("--json"), QStringLiteral("-")});
        QCOMPARE(r.exitCode, 0);
        const auto doc = nlohmann::json::parse(r.out.toStdString());
        const nlohmann::json* input = nullptr;
        for (const auto* list : {&doc["findings"], &doc["folded_findings"]})
            for (const auto& f : *list)
                if (f["title"].get<std::string>().rfind("Input 520x520", 0) == 0)
                    input = &f;
        QVERIFY(input);
        const std::string text = (*input)["recommendation"].get<std::string>();
        QVERIFY2(text.find("512x512") != std::string::npos &&
                     text.find("not apply as exported: the export fixes the size at "
                               "'/classifier/classifier.0/convs.4/Resize' (Resize sizes 1x256x33x33)") !=
                         std::string::npos,
                 text.c_str());
        QVERIFY2(text.find("Export with a dynamic size, or at 512x512") != std::string::npos, text.c_str());
        QVERIFY2(text.find("As re-exported at 512x512 (an estimate") != std::string::npos, text.c_str());
        const auto& ev = (*input)["evidence"];
        QCOMPARE(ev["baked_sizes"][0]["node"].get<std::string>(), "/classifier/classifier.0/convs.4/Resize");
        QCOMPARE(ev["baked_sizes"][0]["broken_node"].get<std::string>(), "/classifier/classifier.0/Concat");
        // At 512 every stage divides by the stride (32x32, not 33x33 padded): cheaper per pixel than today.
        QCOMPARE(ev["reexport"]["shape"], nlohmann::json::array({512, 512}));
        QVERIFY(ev["reexport"]["ms_per_megapixel"].get<double>() < ev["ms_per_megapixel"].get<double>());
        for (const auto& e : (*input)["fix"])
            QVERIFY(e["op"] != "assume_reexported");

        // Imported at 512, the PARTIAL line names the same constant and the recipe.
        const auto at512 =
            clirun::runCli({QStringLiteral("info"), QString::fromStdString(baked("deeplabv3_like.onnx")),
                            QStringLiteral("--input-shape"), QStringLiteral("input=1x3x512x512")});
        QCOMPARE(at512.exitCode, 0);
        QVERIFY2(at512.out.startsWith("PARTIAL: shape inference stops at '/classifier/classifier.0/Concat' "
                                      "(Concat): the export fixed the size at "
                                      "'/classifier/classifier.0/convs.4/Resize' (Resize sizes 1x256x33x33); "
                                      "export with a dynamic size, or at this input size"),
                 at512.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestBakedSizes)
#include "tst_baked_sizes.moc"
