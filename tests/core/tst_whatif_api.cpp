// SPDX-License-Identifier: MIT
// The what-if API the workbench is built on (core/edit), tested without widgets: the dims a user may drag
// with their alignment units, the sweep behind the drag editor's curve (on every sample), the undo history,
// a structural edit's revert, and the formula terms behind each node's latency.
#include "OnnxFixtures.h"
#include "SampleFiles.h"

#include "core/analysis/Alignment.h"
#include "core/cost/CostTerms.h"
#include "core/edit/EditContext.h"
#include "core/edit/EditHistory.h"
#include "core/edit/EditList.h"
#include "core/edit/EditableDims.h"
#include "core/edit/Session.h"
#include "core/edit/Sweep.h"
#include "core/io/AnalysisJson.h"
#include "core/model/ModelImporter.h"
#include "core/model/ShapeEngine.h"
#include "core/target/TargetProfile.h"

#include <QtTest>

#include <atomic>
#include <cmath>
#include <filesystem>

using nlohmann::json;

namespace {

using samples::s100;
using samples::sampleFiles;
using samples::samplePath;

bpu::Session sessionOf(const std::string& file) {
    return bpu::Session(bpu::ModelImporter::load(samplePath(file)), s100());
}

json dump(bpu::Session& s) {
    s.findings();
    json j = bpu::analysisJson(s.graph(), s.target(), s.analysis(), &s.cost());
    j["cost_total"] = s.cost().totalUs;
    return j;
}

const bpu::EditableDim* find(const std::vector<bpu::EditableDim>& dims, bpu::DimKind k) {
    for (const auto& d : dims)
        if (d.kind == k)
            return &d;
    return nullptr;
}

/// A structural edit for the test: hands the session a whole new graph (here: the same graph with the model
/// input resized and shapes re-inferred), as an edit that adds or drops nodes would.
class ReplaceGraphEdit : public bpu::Edit {
public:
    explicit ReplaceGraphEdit(std::vector<int64_t> shape)
        : shape_(std::move(shape)) {}
    json toJson() const override { return {{"op", "test_replace_graph"}, {"shape", shape_}}; }

protected:
    void change(bpu::EditContext& ctx) const override {
        bpu::Graph g = ctx.graph();
        g.tensor(g.inputs.front()).shape = bpu::TensorShape(shape_);
        bpu::ShapeEngine::inferAll(g);
        ctx.replaceGraph(std::move(g));
    }

private:
    std::vector<int64_t> shape_;
};

} // namespace

class TestWhatIfApi : public QObject {
    Q_OBJECT

private slots:
    // yolov8n, worked out from resources/targets/s100.json: the input images 1x3x640x640 is an image input
    // (C 3 <= input_c_max 4): H steps by input_h = 16, W by input_w = 32. /model.0/conv/Conv writes 16
    // channels, a conv-like tensor: C steps by conv_c = 32 and 16 pads to 32.
    void editableDimsCarryTheProfileUnits() {
        bpu::Session s = sessionOf("yolov8n.onnx");
        const bpu::NodeId conv = s.graph().findNode("/model.0/conv/Conv");
        const auto dims = bpu::editableDims(s, conv);
        const bpu::EditableDim* c = find(dims, bpu::DimKind::OutputChannels);
        const bpu::EditableDim* h = find(dims, bpu::DimKind::InputHeight);
        const bpu::EditableDim* w = find(dims, bpu::DimKind::InputWidth);
        QVERIFY(c && h && w);
        QCOMPARE(c->current, int64_t(16));
        QCOMPARE(c->unit, int64_t(32));
        QCOMPARE(QString::fromStdString(c->unitParam), QString("alignment.conv_c"));
        QCOMPARE(c->padded(16), int64_t(32));
        QCOMPARE(c->padded(33), int64_t(64));
        QCOMPARE(h->current, int64_t(640));
        QCOMPARE(h->unit, int64_t(16));
        QCOMPARE(QString::fromStdString(h->unitParam), QString("alignment.input_h"));
        QCOMPARE(w->unit, int64_t(32));
        QCOMPARE(h->padded(650), int64_t(656));
        QCOMPARE(w->padded(650), int64_t(672));
        // Its edits: absolute values of one control each.
        QCOMPARE(c->at(48)->toJson(),
                 (json{{"op", "set_channels"}, {"node", "/model.0/conv/Conv"}, {"channels", 48}}));
        QCOMPARE(h->at(480)->toJson(),
                 (json{{"op", "set_input_shape"}, {"input", "images"}, {"shape", {1, 3, 480, 640}}}));
        // A Sigmoid has no channels of its own; the input's H/W are offered with any node, and with none.
        QVERIFY(!find(bpu::editableDims(s, s.graph().findNode("/model.0/act/Sigmoid")),
                      bpu::DimKind::OutputChannels));
        QCOMPARE(bpu::editableDims(s, bpu::NodeId{}).size(), size_t(2));
    }

    // A depthwise conv's channels follow its input: not offered (mobilenet_v2's features.1 conv.0.0 is 32
    // channels, group 32).
    void depthwiseChannelsAreNotOffered() {
        bpu::Session s = sessionOf("mobilenet_v2.onnx");
        int depthwise = 0;
        for (const auto& n : s.graph().nodes) {
            if (n.opType != "Conv" || n.attrIntOr("group", 1) == 1)
                continue;
            ++depthwise;
            QVERIFY(!find(bpu::editableDims(s, n.id), bpu::DimKind::OutputChannels));
        }
        QVERIFY(depthwise > 10);
    }

    void sweepOnEverySample_data() {
        QTest::addColumn<QString>("file");
        for (const auto& f : sampleFiles())
            QTest::addRow("%s", f.c_str()) << QString::fromStdString(f);
    }

    // The curve of the first draggable dim of each sample (a conv's channels where there is one, else the
    // input's H): ascending values, the current value's point is the session's own estimate, every point that
    // applies equals a fresh session with that edit (so the apply/revert of one point leaks nothing into the
    // next), and the sweep leaves its session untouched.
    void sweepOnEverySample() {
        QFETCH(QString, file);
        bpu::Session s = sessionOf(file.toStdString());
        const json before = dump(s);
        std::vector<bpu::EditableDim> dims;
        for (bpu::NodeId id : s.graph().topoOrder) {
            dims = bpu::editableDims(s, id);
            if (find(dims, bpu::DimKind::OutputChannels))
                break;
        }
        if (dims.empty())
            QSKIP("no draggable dim (no conv with a resizable weight, no NCHW input)");
        const bpu::EditableDim& dim =
            *(find(dims, bpu::DimKind::OutputChannels) ? find(dims, bpu::DimKind::OutputChannels)
                                                       : &dims.front());
        QVERIFY(dim.lo <= dim.current && dim.current <= dim.hi);
        const std::vector<int64_t> values = bpu::sweepValues(dim, dim.lo, dim.hi, 12);
        QVERIFY(std::is_sorted(values.begin(), values.end()));
        QVERIFY(std::find(values.begin(), values.end(), dim.current) != values.end());
        for (int64_t v : values)
            QVERIFY2(v % dim.step == 0 && v >= dim.lo && v <= dim.hi, std::to_string(v).c_str());
        // Every alignment boundary in the range is visited (where the padding jumps).
        for (int64_t x = (dim.lo + dim.unit - 1) / dim.unit * dim.unit; dim.unit > 1 && x <= dim.hi;
             x += dim.unit)
            if (x % dim.step == 0)
                QVERIFY2(std::find(values.begin(), values.end(), x) != values.end(),
                         std::to_string(x).c_str());

        const bpu::SweepResult r = bpu::sweep(s, dim, values);
        QCOMPARE(r.points.size(), values.size());
        QVERIFY2(dump(s) == before, "the sweep changed its session");
        int checked = 0;
        for (const auto& p : r.points) {
            if (p.value == dim.current) {
                QVERIFY(p.applies);
                QCOMPARE(p.perImageMs, s.cost().perImageMs);
                continue;
            }
            if (!p.applies || checked >= 3 ||
                (p.value != values[values.size() / 2] && checked > 0 && p.value != values.back()))
                continue;
            bpu::Session fresh = sessionOf(file.toStdString());
            dim.at(p.value)->apply(fresh);
            QCOMPARE(p.perImageMs, fresh.cost().perImageMs);
            QCOMPARE(p.modelWaste, fresh.analysis().summary.paddingWasteRatio);
            QCOMPARE(p.tensorWaste, fresh.analysis().tensors[dim.tensor.value].padded.wasteRatio());
            ++checked;
        }
        if (r.movable)
            QVERIFY(checked >= 1);
        else
            QVERIFY(!r.error.empty()); // says why nothing else applies
    }

    // Where a drag lands (dragValue): yolov8n's input H is refused between the values its stride allows (an
    // upsampled map must meet its Concat partner), so a drag lands on the nearest value the curve saw apply;
    // resnet18 ends in a global pool, takes every H, and a drag goes where it is dragged.
    void dragLandsOnValuesTheCurveSawApply_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("snaps");
        QTest::addRow("yolov8n input H") << "yolov8n.onnx" << true;
        QTest::addRow("resnet18 input H") << "resnet18.onnx" << false;
    }
    void dragLandsOnValuesTheCurveSawApply() {
        QFETCH(QString, file);
        QFETCH(bool, snaps);
        bpu::Session s = sessionOf(file.toStdString());
        const auto dims = bpu::editableDims(s, bpu::NodeId{});
        const bpu::EditableDim* d = find(dims, bpu::DimKind::InputHeight);
        QVERIFY(d);
        // The values the drag editor's curve visits.
        const auto values = bpu::limitSweepValues(bpu::sweepValues(*d, d->lo, d->hi), d->current,
                                                  bpu::sweepPointLimit(s.target(), s.graph()));
        const bpu::SweepResult r = bpu::sweep(s, *d, values);
        QCOMPARE(bpu::dragSnaps(r), snaps);
        for (int64_t v = d->lo; v <= d->hi; v += 7) {
            const int64_t to = bpu::dragValue(r, v);
            if (!snaps) {
                QCOMPARE(to, v);
                continue;
            }
            // An applying point, and none nearer to v.
            const auto at = std::find_if(r.points.begin(), r.points.end(),
                                         [&](const bpu::SweepPoint& p) { return p.value == to; });
            QVERIFY(at != r.points.end() && at->applies);
            for (const auto& p : r.points)
                if (p.applies)
                    QVERIFY2(std::llabs(p.value - v) >= std::llabs(to - v), std::to_string(v).c_str());
        }
        if (!snaps)
            return;
        // 239: 224 applies 15 below, 255 applies 16 above (ceil(H/8) must stay a multiple of 4).
        QCOMPARE(bpu::dragValue(r, 239), int64_t(224));
        bpu::Session landed = sessionOf(file.toStdString());
        d->at(bpu::dragValue(r, 239))->apply(landed); // does not throw
        bpu::Session refused = sessionOf(file.toStdString());
        QVERIFY_THROWS_EXCEPTION(bpu::EditError, d->at(239)->apply(refused));
    }

    // yolo12n's export fixed its attention's sizes in Reshape constants: set_input_shape applies at 636..640
    // only (the maps at stride 32 stay 20 x 20), so its curve was one vertical line and a drag from 640
    // landed on 636 (issue 63). Its input dims move as a re-export (assume_reexported, idealized), and the
    // curve then covers the range as yolov8n's does: every value whose stride-32 map a Concat partner
    // meets, i.e. one applying value per 32. yolov8n fixes no size and moves as set_input_shape.
    void bakedInputSizesMoveAsAReexport() {
        bpu::Session s = sessionOf("yolo12n.onnx");
        const auto dims = bpu::editableDims(s, bpu::NodeId{});
        const bpu::EditableDim* d = find(dims, bpu::DimKind::InputHeight);
        QVERIFY(d);
        QVERIFY(d->reexport);
        QVERIFY(d->bakedCount > 0);
        QVERIFY2(d->bakedExample.find("Reshape") != std::string::npos, d->bakedExample.c_str());
        QCOMPARE(d->at(320)->toJson().at("op").get<std::string>(), std::string("assume_reexported"));
        QVERIFY(d->at(320)->idealized());
        const auto values = bpu::limitSweepValues(bpu::sweepValues(*d, d->lo, d->hi), d->current,
                                                  bpu::sweepPointLimit(s.target(), s.graph()));
        const bpu::SweepResult r = bpu::sweep(s, *d, values);
        QVERIFY(r.movable);
        int64_t lowest = d->hi, highest = d->lo;
        for (const auto& p : r.points)
            if (p.applies) {
                lowest = std::min(lowest, p.value);
                highest = std::max(highest, p.value);
            }
        QVERIFY2(lowest <= 2 * 160 && highest >= 1248, std::to_string(lowest).c_str());
        // A drag to 600 lands within one stride-32 step of it, not back at 636.
        QVERIFY(std::llabs(bpu::dragValue(r, 600) - 600) <= 32);

        // A drag applies each value on top of the last (EditHistory::applyDragStep) and records its last
        // value alone: 640 -> 512 -> 415 -> 352 must be the state the edit at 352 gives on the loaded model,
        // as a project or a redo replays it. Each step reads the constants at the size before it, 512 x 640
        // among them, where yolo12n's 64 channels equal H / 8 and its 128 equal H / 4.
        bpu::EditHistory h;
        bpu::Session dragged = sessionOf("yolo12n.onnx");
        for (int64_t v : {512, 415, 352}) {
            const auto now = bpu::editableDims(dragged, bpu::NodeId{});
            QVERIFY(h.applyDragStep(dragged, find(now, bpu::DimKind::InputHeight)->at(v), v == 352));
        }
        bpu::Session replay = sessionOf("yolo12n.onnx");
        bpu::applyEditList(replay, h.appliedEdits());
        QCOMPARE(h.appliedEdits().size(), size_t(1));
        QVERIFY(dump(replay) == dump(dragged));
        QCOMPARE(dragged.graph().tensor(dragged.graph().inputs[0]).shape.dims,
                 (std::vector<int64_t>{1, 3, 352, 640}));

        const bpu::Session v8 = sessionOf("yolov8n.onnx");
        const auto v8dims = bpu::editableDims(v8, bpu::NodeId{});
        QVERIFY(!find(v8dims, bpu::DimKind::InputHeight)->reexport);
    }

    // yolov8n's /model.2/cv1/conv/Conv feeds a Split with fixed sizes: no other value of its channels
    // applies, and the sweep says why.
    void sweepSaysWhyADimIsFixed() {
        bpu::Session s = sessionOf("yolov8n.onnx");
        const auto dims = bpu::editableDims(s, s.graph().findNode("/model.2/cv1/conv/Conv"));
        const bpu::EditableDim* c = find(dims, bpu::DimKind::OutputChannels);
        QVERIFY(c);
        const auto r = bpu::sweep(s, *c, bpu::sweepValues(*c, c->lo, c->hi, 8));
        QVERIFY(!r.movable);
        QVERIFY2(r.error.find("Split") != std::string::npos, r.error.c_str());
    }

    // A raised cancel flag stops a sweep between points (Cancelled), after the points already done.
    void sweepIsCancellable() {
        bpu::Session s = sessionOf("yolov8n.onnx");
        const auto dims = bpu::editableDims(s, s.graph().findNode("/model.0/conv/Conv"));
        const bpu::EditableDim& c = *find(dims, bpu::DimKind::OutputChannels);
        std::atomic<bool> cancel{false};
        int reported = 0;
        bpu::Progress p;
        p.cancel = &cancel;
        p.report = [&](double, std::string_view) {
            if (++reported == 3)
                cancel = true;
        };
        QVERIFY_THROWS_EXCEPTION(bpu::Cancelled, bpu::sweep(s, c, bpu::sweepValues(c, c.lo, c.hi, 20), p));
        QCOMPARE(reported, 3);
    }

    // On a big model the curve's points are bounded by the profile's sweep_node_budget (points x nodes):
    // thinned evenly by index, both ends and the current value kept, never fewer than kSweepMinPoints; a
    // small model's curve is left whole.
    void sweepPointsAreBoundedBySize() {
        bpu::Session s = sessionOf("yolov8n.onnx");
        const bpu::TargetProfile& t = s.target();
        const double budget = t.sweepNodeBudget.value;
        QVERIFY(budget > 0);
        const size_t limit = bpu::sweepPointLimit(t, s.graph());
        QCOMPARE(limit, std::max(bpu::kSweepMinPoints, size_t(budget / double(s.graph().nodes.size()))));
        const auto dims = bpu::editableDims(s, s.graph().findNode("/model.0/conv/Conv"));
        const bpu::EditableDim& c = *find(dims, bpu::DimKind::OutputChannels);
        const std::vector<int64_t> all = bpu::sweepValues(c, c.lo, c.hi);
        QVERIFY(all.size() < limit); // a sample's curve is not thinned
        QCOMPARE(bpu::limitSweepValues(all, c.current, limit), all);
        for (size_t cap : {size_t(1), size_t(3), size_t(5), all.size() / 2}) {
            const std::vector<int64_t> few = bpu::limitSweepValues(all, c.current, cap);
            const size_t want = std::max(cap, bpu::kSweepMinPoints);
            QVERIFY2(few.size() <= want && few.size() >= want - 1, std::to_string(few.size()).c_str());
            QVERIFY(std::is_sorted(few.begin(), few.end()));
            QCOMPARE(few.front(), all.front());
            QCOMPARE(few.back(), all.back());
            QVERIFY(std::find(few.begin(), few.end(), c.current) != few.end());
            for (int64_t v : few)
                QVERIFY(std::binary_search(all.begin(), all.end(), v));
        }
        // The limit at 100k nodes: the budget's share, floored at the minimum.
        bpu::Graph big;
        big.nodes.resize(100000);
        QCOMPARE(bpu::sweepPointLimit(t, big), std::max(bpu::kSweepMinPoints, size_t(budget / 100000)));
    }

    // The undo history: steps apply, undo and redo exactly; a drag's steps are one step; a rejected edit and
    // an edit that changes nothing are no step; goTo walks both ways; the clean mark follows the position.
    void historyUndoRedoAndDrags() {
        bpu::Session s = sessionOf("yolov8n.onnx");
        const json loaded = dump(s);
        bpu::EditHistory h;
        QVERIFY(h.isClean());
        QVERIFY(!h.apply(s, {bpu::editFromJson({{"op", "fuse_all"}})}, "fuse all")); // already fused
        QCOMPARE(h.size(), size_t(0));
        QVERIFY(h.apply(s, {bpu::editFromJson({{"op", "set_batch"}, {"batch", 2}})}, "batch 2"));
        const json batch2 = dump(s);
        QVERIFY(!h.isClean());
        // A rejected list is no step and leaves everything as it was.
        QVERIFY_THROWS_EXCEPTION(
            bpu::EditListError,
            h.apply(s,
                    {bpu::editFromJson({{"op", "set_group"}, {"node", "/model.0/conv/Conv"}, {"group", 3}})},
                    "bad"));
        QCOMPARE(h.size(), size_t(1));
        QVERIFY(dump(s) == batch2);
        // A drag of one conv's channels: three values, one step, the last value; a value that does not apply
        // (zero channels) is dropped and the drag goes on.
        const std::string conv = "/model.0/conv/Conv";
        auto channels = [&](int c) {
            return bpu::editFromJson({{"op", "set_channels"}, {"node", conv}, {"channels", c}});
        };
        QVERIFY(h.applyDragStep(s, channels(24), false));
        QVERIFY(h.applyDragStep(s, channels(40), false));
        QVERIFY_THROWS_EXCEPTION(bpu::EditListError, h.applyDragStep(s, channels(0), false));
        QVERIFY(h.applyDragStep(s, channels(48), true));
        QCOMPARE(h.size(), size_t(2));
        QCOMPARE(h.step(1).edits.size(), size_t(1));
        QCOMPARE(h.step(1).edits[0]->toJson()["channels"].get<int>(), 48);
        const json dragged = dump(s);
        // The next drag of the same control is a step of its own.
        QVERIFY(h.applyDragStep(s, channels(64), true));
        QCOMPARE(h.size(), size_t(3));
        // Undo walks back exactly, redo forward exactly.
        h.undo(s);
        QVERIFY(dump(s) == dragged);
        h.undo(s);
        QVERIFY(dump(s) == batch2);
        h.redo(s);
        QVERIFY(dump(s) == dragged);
        h.goTo(s, 0);
        QVERIFY(dump(s) == loaded);
        QVERIFY(h.isClean());
        h.goTo(s, 2);
        QVERIFY(dump(s) == dragged);
        // The applied edits, each drag as its last value, reproduce the state on the loaded model.
        const bpu::EditList applied = h.appliedEdits();
        QCOMPARE(applied.size(), size_t(2));
        bpu::Session replay = sessionOf("yolov8n.onnx");
        bpu::applyEditList(replay, applied);
        QVERIFY(dump(replay) == dragged);
        // A new step drops the undone one.
        h.markClean();
        QVERIFY(h.apply(s, {bpu::editFromJson({{"op", "set_precision"}, {"precision", "int16"}})}, "int16"));
        QCOMPARE(h.size(), size_t(3));
        QVERIFY(!h.isClean());
        h.undo(s);
        QVERIFY(h.isClean());
    }

    // applyWhatFits: a project whose model changed applies what still fits and names the rest.
    void historyAppliesWhatFits() {
        bpu::Session s = sessionOf("yolov8n.onnx");
        bpu::EditHistory h;
        const bpu::EditList list = bpu::editListFromJson(json::parse(
            R"([{"op":"set_batch","batch":2},{"op":"set_channels","node":"no_such_conv","channels":8},
                {"op":"remove_boundary_qdq"},{"op":"fuse","node":"nope"}])"));
        const auto rejected = h.applyWhatFits(s, list, "project");
        QCOMPARE(rejected.size(), size_t(2));
        QCOMPARE(rejected[0].index(), size_t(1));
        QCOMPARE(rejected[1].index(), size_t(3));
        QVERIFY(rejected[0].reason().find("no node named 'no_such_conv'") != std::string::npos);
        QCOMPARE(h.size(), size_t(1));
        QCOMPARE(h.step(0).edits.size(), size_t(2));
        bpu::Session expected = sessionOf("yolov8n.onnx");
        bpu::applyEditList(expected, {list[0], list[2]});
        QVERIFY(dump(s) == dump(expected));
    }

    // A structural edit hands over a whole graph; the session re-estimates from scratch and the token puts
    // the old graph back.
    void structuralEditReverts() {
        bpu::Session s = sessionOf("yolov8n.onnx");
        const json before = dump(s);
        const auto graphBefore = s.sharedGraph();
        bpu::UndoToken t = ReplaceGraphEdit({1, 3, 320, 320}).apply(s);
        QVERIFY(t.structural());
        QCOMPARE(s.graph().tensor(s.graph().inputs.front()).shape.dims,
                 (std::vector<int64_t>{1, 3, 320, 320}));
        bpu::Session full(s.graph(), s100());
        QCOMPARE(s.cost().totalUs, full.cost().totalUs);
        t.revert(s);
        QCOMPARE(s.sharedGraph(), graphBefore); // the same graph object, not a copy
        QVERIFY(dump(s) == before);
    }

    // Each node's terms rebuild its latency: the compute term is the profile's rate applied to the work
    // (worked out here from the profile's numbers), and the node's part plus its Q/DQ and switch terms add
    // up to the latency the cost model gives the node.
    void costTermsRebuildTheLatency() {
        bpu::Session s = sessionOf("yolov8n.onnx");
        const auto& t = s.target();
        const auto& r = s.analysis();
        const auto& c = s.cost();
        int bpu = 0;
        for (bpu::NodeId id : s.graph().topoOrder) {
            const auto terms = bpu::nodeCostTerms(s.graph(), r, c, t, id);
            double sum = 0;
            for (const auto& term : terms)
                if (term.name == "node's part" || term.name == "Q/DQ" || term.name == "CPU<->BPU switch" ||
                    term.name == "CPU compute" || term.name == "CPU memory")
                    sum += term.us;
            QVERIFY2(std::fabs(sum - c.nodes[id.value].latencyUs) <=
                         1e-6 * std::max(1.0, c.nodes[id.value].latencyUs),
                     (s.graph().node(id).name + ": terms " + std::to_string(sum) + " vs " +
                      std::to_string(c.nodes[id.value].latencyUs))
                         .c_str());
            const auto& a = r.nodes[id.value];
            if (a.placement != bpu::Placement::BPU || a.opClass != bpu::OpClass::Conv ||
                s.graph().node(id).attrIntOr("group", 1) != 1)
                continue;
            // Dense conv: padded MACs / (peak_int8_tops x 1e12 / 2 x dense_conv_efficiency), in us.
            const double byHand =
                double(a.paddedMacs) / (t.peakInt8Tops.value * 1e12 / 2 * t.denseConvEfficiency.value) * 1e6;
            QCOMPARE(terms.front().name, std::string("compute"));
            QVERIFY(std::fabs(terms.front().us - byHand) <= 1e-9 * byHand);
            QCOMPARE(terms.front().inputs.at(0).first, std::string("padded MACs"));
            QCOMPARE(terms.front().params.at(1).key, std::string("dense_conv_efficiency"));
            QCOMPARE(terms.front().params.at(1).value, t.denseConvEfficiency.value);
            ++bpu;
        }
        QVERIFY(bpu > 20);
    }
};

QTEST_GUILESS_MAIN(TestWhatIfApi)
#include "tst_whatif_api.moc"
