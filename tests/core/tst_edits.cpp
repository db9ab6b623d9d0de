// SPDX-License-Identifier: MIT
// What-if edits (core/edit): every edit reverts exactly, illegal edits are rejected with the reason and leave
// the session untouched, shape edits re-derive shapes and weights downstream (numbers worked out by hand in
// the comments), and the incremental re-estimate equals a full recompute on every sample under random edit
// series.
#include "OnnxFixtures.h"
#include "SampleFiles.h"

#include "core/analysis/InputNormalization.h"
#include "core/deploy/DeployJson.h"
#include "core/edit/Edit.h"
#include "core/edit/EditError.h"
#include "core/edit/EditList.h"
#include "core/edit/EditRegistry.h"
#include "core/edit/Session.h"
#include "core/edit/TransformEdits.h"
#include "core/io/AnalysisJson.h"
#include "core/io/JsonMembers.h"
#include "core/io/JsonPretty.h"
#include "core/model/ModelImporter.h"
#include "core/model/ShapeEngine.h"
#include "core/target/TargetProfile.h"

#include <onnx/onnx_pb.h>

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>

using fixtures::ModelBuilder;
using nlohmann::json;

namespace {

using samples::s100;
using samples::sampleFiles;
using samples::samplePath;

const bpu::Graph& sampleGraph(const std::string& file) {
    static std::map<std::string, bpu::Graph> cache;
    auto it = cache.find(file);
    if (it == cache.end())
        it = cache.emplace(file, bpu::ModelImporter::load(samplePath(file))).first;
    return it->second;
}

json optionsJson(const bpu::AnalysisOptions& o) {
    json placements = json::object();
    for (const auto& [k, v] : o.placementOverrides)
        placements[k] = bpu::placementName(v);
    return {{"placement", placements},
            {"fuse", o.fuse},
            {"unfused", o.unfusedHeads},
            {"fused", o.fusedHeads},
            {"deploy", bpu::deployToJson(o.deploy)},
            {"precision", bpu::precisionName(o.defaultPrecision)},
            {"model_precision", o.modelPrecision ? bpu::precisionName(*o.modelPrecision) : "-"},
            {"precision_overrides",
             [&] {
                 json p = json::object();
                 for (const auto& [k, v] : o.precisionOverrides)
                     p[k] = bpu::precisionName(v);
                 return p;
             }()},
            {"force_fused", o.forceFusedHeads},
            {"resident", o.assumeResident},
            {"aligned", o.assumeAligned},
            {"removed", o.assumeRemoved},
            {"keep", o.filterOutputsKeep}};
}

// The graph state an edit may touch: every tensor's dtype, shape and folded value, every node's attributes
// (the proto) and inference error.
json graphJson(const bpu::Graph& g) {
    json tensors = json::array();
    for (const auto& t : g.tensors) {
        json v = nullptr;
        if (t.value)
            v = {{"dims", t.value->dims}, {"ints", t.value->ints}, {"floats", t.value->floats}};
        tensors.push_back({{"name", t.name},
                           {"dtype", int(t.dtype)},
                           {"rank_known", t.shape.rankKnown},
                           {"dims", t.shape.dims},
                           {"value", v}});
    }
    json nodes = json::array();
    for (const auto& n : g.nodes)
        nodes.push_back(
            {{"name", n.name},
             {"proto", n.proto ? std::hash<std::string>{}(n.proto->SerializeAsString()) : size_t{0}},
             {"shape_error", n.shapeError},
             {"data_dependent_on", n.dataDependentOn.valid() ? int64_t(n.dataDependentOn.value) : -1}});
    return {{"tensors", tensors}, {"nodes", nodes}};
}

// Everything a session shows: the full analysis document (findings refreshed), the graph and the options.
json dump(bpu::Session& s) {
    s.findings();
    json j = bpu::analysisJson(s.graph(), s.target(), s.analysis(), &s.cost());
    j["graph"] = graphJson(s.graph());
    j["options"] = optionsJson(s.options());
    j["cost_totals"] = {s.cost().bpuUs,     s.cost().cpuUs,   s.cost().qdqUs, s.cost().transitionUs,
                        s.cost().runtimeUs, s.cost().totalUs, s.cost().batch};
    j["cost_rows"] = bpu::costRowsJson(s.graph(), s.cost());
    return j;
}

// The first path where two documents differ, for a readable failure.
std::string firstDiff(const json& a, const json& b, const std::string& path = "") {
    if (a.type() != b.type())
        return path + ": " + a.dump().substr(0, 200) + " vs " + b.dump().substr(0, 200);
    if (a.is_object()) {
        for (auto it = a.begin(); it != a.end(); ++it) {
            if (!b.contains(it.key()))
                return path + "/" + it.key() + ": missing on the right";
            if (*it != b[it.key()])
                return firstDiff(*it, b[it.key()], path + "/" + it.key());
        }
        for (auto it = b.begin(); it != b.end(); ++it)
            if (!a.contains(it.key()))
                return path + "/" + it.key() + ": missing on the left";
        return {};
    }
    if (a.is_array()) {
        if (a.size() != b.size())
            return path + ": " + std::to_string(a.size()) + " vs " + std::to_string(b.size()) + " entries";
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i] != b[i]) {
                std::string label = std::to_string(i);
                if (a[i].is_object() && a[i].contains("name") && a[i]["name"].is_string())
                    label += "(" + a[i]["name"].get<std::string>() + ")";
                return firstDiff(a[i], b[i], path + "/" + label);
            }
        return {};
    }
    return a == b ? std::string() : path + ": " + a.dump().substr(0, 200) + " vs " + b.dump().substr(0, 200);
}

void applyEdit(bpu::Session& s, const json& edit) {
    bpu::editFromJson(edit)->apply(s);
}

bpu::Session session(const std::string& path, const bpu::AnalysisOptions& o = {}) {
    return bpu::Session(bpu::ModelImporter::load(path), s100(), o);
}

std::vector<bpu::NodeId> convNodes(const bpu::Graph& g, bool depthwise) {
    std::vector<bpu::NodeId> out;
    for (bpu::NodeId id : g.topoOrder) {
        const bpu::Node& n = g.node(id);
        if (n.opType != "Conv" || n.inputs.size() < 2 || !n.inputs[1].valid())
            continue;
        const bpu::Tensor& w = g.tensor(n.inputs[1]);
        if (!w.isInitializer || !w.shape.fullyKnown() || w.shape.rank() < 3 || !n.inputs[0].valid() ||
            !g.tensor(n.inputs[0]).shape.fullyKnown())
            continue;
        const bool dw = n.attrIntOr("group", 1) > 1 && w.shape.dims[1] == 1;
        if (dw == depthwise)
            out.push_back(id);
    }
    return out;
}

// Candidates around the middle of the graph first: an edit there has both upstream and downstream work.
template <typename T> std::vector<T> middleFirst(std::vector<T> v) {
    std::vector<T> out;
    const size_t mid = v.size() / 2;
    for (size_t d = 0; d <= v.size(); ++d) {
        if (mid + d < v.size())
            out.push_back(v[mid + d]);
        if (d > 0 && d <= mid)
            out.push_back(v[mid - d]);
    }
    return out;
}

// The first candidate edit that applies to a copy of `s` (a legal instance of an edit kind on this model).
std::optional<json> firstLegal(const bpu::Session& s, const std::vector<json>& candidates) {
    for (const auto& c : candidates) {
        bpu::Session trial = s;
        try {
            applyEdit(trial, c);
            return c;
        } catch (const bpu::EditError&) {
        }
    }
    return std::nullopt;
}

// Legal instances of each edit kind on a model, plus the edits to run first so the edit has something to do.
struct EditCase {
    std::vector<json> setup;
    std::optional<json> edit;
};

EditCase editCase(const std::string& kind, bpu::Session& s) {
    const bpu::Graph& g = s.graph();
    const bpu::AnalysisResult& r = s.analysis();
    EditCase c;
    std::vector<json> cands;
    auto name = [&](bpu::NodeId id) {
        return g.node(id).name;
    };
    std::string head;
    for (const auto& grp : r.groups)
        if (grp.fused && head.empty())
            head = name(grp.nodes.front());
    const auto dense = middleFirst(convNodes(g, false));
    if (kind == "fuse_all") {
        c.setup = {{{"op", "unfuse_all"}}};
        c.edit = json{{"op", "fuse_all"}};
    } else if (kind == "unfuse_all") {
        c.edit = json{{"op", "unfuse_all"}};
    } else if (kind == "fuse") {
        if (!head.empty()) {
            c.setup = {{{"op", "unfuse"}, {"node", head}}};
            c.edit = json{{"op", "fuse"}, {"node", head}};
        } else if (!r.missed.empty()) {
            c.edit = json{{"op", "fuse"}, {"node", name(r.missed.front().nodes.front())}};
        }
    } else if (kind == "unfuse") {
        if (!head.empty())
            c.edit = json{{"op", "unfuse"}, {"node", head}};
    } else if (kind == "move_input_normalization") {
        // An in-graph normalisation with known constants (none in the samples: tst_rewrites has its own).
        for (const auto& norm : bpu::InputNormalization::find(g))
            if (!norm.mean.empty()) {
                c.edit = json{{"op", "move_input_normalization"}, {"input", g.tensor(norm.input).name}};
                break;
            }
    } else if (kind == "remove_transform_pair") {
        // A transform undone by the next (none in the samples: the edit is skipped there).
        for (bpu::NodeId id : g.topoOrder)
            if (bpu::transformPairCancels(g, id)) {
                c.edit = json{{"op", "remove_transform_pair"}, {"nodes", {g.node(id).name}}};
                break;
            }
    } else if (kind == "replace_activation") {
        // The first SiLU written out (x * Sigmoid(x)): its Mul (yolov8n; none in resnet50 or mobilenet_v2).
        for (bpu::NodeId id : g.topoOrder) {
            const bpu::Node& n = g.node(id);
            if (n.opType != "Mul" || n.inputs.size() != 2)
                continue;
            const bpu::NodeId p = g.tensor(n.inputs[1]).producer;
            if (p.valid() && g.node(p).opType == "Sigmoid" && g.node(p).inputs[0] == n.inputs[0]) {
                c.edit = json{{"op", "replace_activation"}, {"nodes", {n.name}}, {"to", "relu"}};
                break;
            }
        }
    } else if (kind == "set_group") {
        for (bpu::NodeId id : dense) {
            const bpu::Node& n = g.node(id);
            const int64_t cin = g.tensor(n.inputs[0]).shape.dims[1],
                          cout = g.tensor(n.inputs[1]).shape.dims[0];
            const int64_t gcd = std::gcd(cin, cout);
            for (int64_t grp : {int64_t{2}, int64_t{4}, int64_t{3}, gcd})
                if (grp > 1 && gcd % grp == 0)
                    cands.push_back({{"op", "set_group"}, {"node", n.name}, {"group", grp}});
        }
        c.edit = firstLegal(s, cands);
    } else if (kind == "set_channels") {
        for (bpu::NodeId id : dense) {
            const bpu::Node& n = g.node(id);
            const int64_t cout = g.tensor(n.inputs[1]).shape.dims[0];
            cands.push_back({{"op", "set_channels"}, {"node", n.name}, {"channels", cout + 8}});
        }
        c.edit = firstLegal(s, cands);
    } else if (kind == "set_batch") {
        c.edit = firstLegal(s, {{{"op", "set_batch"}, {"batch", 4}}, {{"op", "set_batch"}, {"batch", 2}}});
    } else if (kind == "set_input_shape") {
        for (bpu::TensorId in : g.inputs) {
            const auto& d = g.tensor(in).shape.dims;
            if (d.size() == 4 && g.tensor(in).shape.fullyKnown())
                for (int64_t grow : {64, 32, -32})
                    cands.push_back({{"op", "set_input_shape"},
                                     {"input", g.tensor(in).name},
                                     {"shape", {d[0], d[1], d[2] + grow, d[3] + grow}}});
        }
        c.edit = firstLegal(s, cands);
    } else if (kind == "assume_reexported") {
        for (bpu::TensorId in : g.inputs) {
            const auto& d = g.tensor(in).shape.dims;
            if (d.size() == 4 && g.tensor(in).shape.fullyKnown())
                for (int64_t grow : {64, 32, -32})
                    cands.push_back({{"op", "assume_reexported"},
                                     {"input", g.tensor(in).name},
                                     {"shape", {d[0], d[1], d[2] + grow, d[3] + grow}}});
        }
        c.edit = firstLegal(s, cands);
    } else if (kind == "remove_boundary_qdq") {
        c.edit = json{{"op", "remove_boundary_qdq"}};
    } else if (kind == "set_placement") {
        if (!dense.empty())
            c.edit = json{{"op", "set_placement"}, {"node", name(dense.front())}, {"placement", "CPU"}};
    } else if (kind == "assume_resident") {
        // A feature map that spills to DDR; a model whose maps all fit gets a larger input or batch first.
        std::vector<std::vector<json>> setups{{}, {{{"op", "set_batch"}, {"batch", 8}}}};
        for (bpu::TensorId in : g.inputs) {
            const auto& d = g.tensor(in).shape.dims;
            if (d.size() == 4 && g.tensor(in).shape.fullyKnown())
                setups.push_back({{{"op", "set_input_shape"},
                                   {"input", g.tensor(in).name},
                                   {"shape", {d[0], d[1], 2 * d[2], 2 * d[3]}}}});
        }
        for (const auto& setup : setups) {
            bpu::Session trial = s;
            try {
                for (const auto& e : setup)
                    applyEdit(trial, e);
            } catch (const bpu::EditError&) {
                continue;
            }
            for (const auto& t : trial.graph().tensors)
                if (trial.analysis().tensors[t.id.value].spillsToDdr && !t.isGraphInput && !t.isGraphOutput &&
                    t.producer.valid()) {
                    c.setup = setup;
                    c.edit = json{{"op", "assume_resident"}, {"tensors", {t.name}}};
                    return c;
                }
        }
    } else if (kind == "assume_aligned") {
        for (const auto& t : g.tensors)
            if (r.tensors[t.id.value].padded.wasteBytes > 0) {
                c.edit = json{{"op", "assume_aligned"}, {"tensors", {t.name}}};
                break;
            }
    } else if (kind == "assume_removed") {
        if (!dense.empty())
            c.edit = json{{"op", "assume_removed"}, {"nodes", {name(dense.front())}}};
    } else if (kind == "filter_outputs") {
        c.edit = json{{"op", "filter_outputs"}, {"keep", 10}};
    } else if (kind == "set_precision") {
        if (!dense.empty())
            c.edit = json{{"op", "set_precision"}, {"precision", "int16"}, {"nodes", {name(dense.front())}}};
    } else if (kind == "cut_at") {
        // End the model at the input of the node that writes its first output: that node is dropped.
        const bpu::NodeId last = g.tensor(g.outputs.front()).producer;
        if (last.valid() && !g.node(last).inputs.empty() && g.node(last).inputs[0].valid() &&
            !g.tensor(g.node(last).inputs[0]).value)
            c.edit = json{{"op", "cut_at"}, {"tensors", {g.tensor(g.node(last).inputs[0]).name}}};
    }
    return c;
}

const std::vector<std::string> kEditKinds{"fuse_all",
                                          "unfuse_all",
                                          "fuse",
                                          "unfuse",
                                          "set_group",
                                          "set_batch",
                                          "set_input_shape",
                                          "set_channels",
                                          "remove_boundary_qdq",
                                          "set_placement",
                                          "assume_resident",
                                          "assume_aligned",
                                          "assume_removed",
                                          "assume_reexported",
                                          "filter_outputs",
                                          "set_precision",
                                          "cut_at",
                                          "replace_activation",
                                          "remove_transform_pair",
                                          "move_input_normalization"};

// ---- fixtures -------------------------------------------------------------------------------------------

// x[1,3,32,32] -> conv1 (16 out, 3x3 pad 1, bias) -> relu -> conv2 (3x3 pad 1, 16 -> 8) -> y2
//                                                        \-> dw (depthwise 3x3 pad 1, group 16) -> y3
std::string chainModel() {
    ModelBuilder b;
    b.input("x", {1, 3, 32, 32});
    b.weight("w1", {16, 3, 3, 3});
    b.weight("b1", {16});
    b.weight("w2", {8, 16, 3, 3});
    b.weight("wd", {16, 1, 3, 3});
    auto& c1 = b.node("Conv", {"x", "w1", "b1"}, {"c1"}, "conv1");
    fixtures::setInts(c1, "pads", {1, 1, 1, 1});
    b.node("Relu", {"c1"}, {"r1"}, "relu");
    auto& c2 = b.node("Conv", {"r1", "w2"}, {"y2"}, "conv2");
    fixtures::setInts(c2, "pads", {1, 1, 1, 1});
    auto& dw = b.node("Conv", {"r1", "wd"}, {"y3"}, "dw");
    fixtures::setInts(dw, "pads", {1, 1, 1, 1});
    fixtures::setInt(dw, "group", 16);
    b.output("y2");
    b.output("y3");
    return b.save("edits_chain.onnx");
}

// The bench's scale "chain" in small (app/bench/gen_scale_models.py): x[1,32,28,28] -> `blocks` x (Conv 3x3
// pad 1, 32 -> 32 -> Relu -> Add with the block's input), scoped /stage<s>/block<b>/..., 16 blocks a stage.
std::string scaleChainModel(int blocks) {
    ModelBuilder b;
    b.input("x", {1, 32, 28, 28});
    std::string cur = "x";
    for (int i = 0; i < blocks; ++i) {
        const std::string p = "/stage" + std::to_string(i / 16) + "/block" + std::to_string(i);
        b.weight(p + "/conv.weight", {32, 32, 3, 3});
        auto& conv = b.node("Conv", {cur, p + "/conv.weight"}, {p + "/conv/Conv_output_0"}, p + "/conv/Conv");
        fixtures::setInts(conv, "pads", {1, 1, 1, 1});
        b.node("Relu", {p + "/conv/Conv_output_0"}, {p + "/relu/Relu_output_0"}, p + "/relu/Relu");
        b.node("Add", {p + "/relu/Relu_output_0", cur}, {p + "/Add_output_0"}, p + "/Add");
        cur = p + "/Add_output_0";
    }
    b.output(cur);
    return b.save("edits_scale_chain_" + std::to_string(blocks) + ".onnx");
}

// x[1,3,8,8] -> conv (1x1, 3 -> 4) -> Reshape to the constant [1, 256] -> y
std::string reshapeModel() {
    ModelBuilder b;
    b.input("x", {1, 3, 8, 8});
    b.weight("w", {4, 3, 1, 1});
    b.ints("shape", {1, 256});
    b.node("Conv", {"x", "w"}, {"c"}, "conv");
    b.node("Reshape", {"c", "shape"}, {"y"}, "reshape");
    b.output("y");
    return b.save("edits_reshape.onnx");
}

// x[1,64,16,16] -> conv (3x3 pad 1, 64 -> 64) -> y
std::string groupModel() {
    ModelBuilder b;
    b.input("x", {1, 64, 16, 16});
    b.weight("w", {64, 64, 3, 3});
    auto& c = b.node("Conv", {"x", "w"}, {"y"}, "conv");
    fixtures::setInts(c, "pads", {1, 1, 1, 1});
    b.output("y");
    return b.save("edits_group.onnx");
}

// x[1,16,8,8] -> conv a (1x1, 16 -> 16) -> Add(a, x) -> y: a's channels must match the shortcut.
std::string residualModel() {
    ModelBuilder b;
    b.input("x", {1, 16, 8, 8});
    b.weight("w", {16, 16, 1, 1});
    b.node("Conv", {"x", "w"}, {"a"}, "a");
    b.node("Add", {"a", "x"}, {"y"}, "add");
    b.output("y");
    return b.save("edits_residual.onnx");
}

// x[1,3,16,16] -> conv1 (16 out) -> convA (1x1, weight wS) -> yA
//              \-> conv0 (16 out) -> convB (1x1, the same weight wS) -> yB
std::string sharedWeightModel() {
    ModelBuilder b;
    b.input("x", {1, 3, 16, 16});
    b.weight("w1", {16, 3, 1, 1});
    b.weight("w0", {16, 3, 1, 1});
    b.weight("wS", {8, 16, 1, 1});
    b.node("Conv", {"x", "w1"}, {"c1"}, "conv1");
    b.node("Conv", {"x", "w0"}, {"c0"}, "conv0");
    b.node("Conv", {"c1", "wS"}, {"yA"}, "convA");
    b.node("Conv", {"c0", "wS"}, {"yB"}, "convB");
    b.output("yA");
    b.output("yB");
    return b.save("edits_shared.onnx");
}

// x[1,16,8,8] -> conv (3x3 pad 1, 16 -> 32) -> BN -> relu -> conv (1x1, 32 -> 32) -> y
std::string batchModel() {
    ModelBuilder b;
    b.input("x", {1, 16, 8, 8});
    b.weight("w1", {32, 16, 3, 3});
    for (const char* p : {"s", "bb", "m", "v"})
        b.weight(p, {32});
    b.weight("w2", {32, 32, 1, 1});
    auto& c1 = b.node("Conv", {"x", "w1"}, {"c1"}, "conv1");
    fixtures::setInts(c1, "pads", {1, 1, 1, 1});
    b.node("BatchNormalization", {"c1", "s", "bb", "m", "v"}, {"n1"}, "bn");
    b.node("Relu", {"n1"}, {"r1"}, "relu");
    b.node("Conv", {"r1", "w2"}, {"y"}, "conv2");
    b.output("y");
    return b.save("edits_batch.onnx");
}

const bpu::NodeAnalysis& nodeOf(const bpu::Session& s, const std::string& name) {
    return s.analysis().nodes[s.graph().findNode(name).value];
}
const bpu::NodeMetrics& metricsOf(const bpu::Session& s, const std::string& name) {
    return s.analysis().metrics[s.graph().findNode(name).value];
}
std::vector<int64_t> dimsOf(const bpu::Session& s, const std::string& tensor) {
    return s.graph().tensor(s.graph().findTensor(tensor)).shape.dims;
}

bool close(double a, double b) {
    return a == b || std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}

// Compares the incrementally maintained session with a full recompute of the same graph and options: shapes
// against a whole-graph re-inference, then every node's numbers and the latency against a fresh Session.
// Returns an empty string when they agree.
std::string compareWithFull(bpu::Session& s) {
    const bpu::Graph& g = s.graph();
    bpu::Graph reinferred = g;
    bpu::ShapeEngine::inferAll(reinferred);
    for (size_t i = 0; i < g.tensors.size(); ++i) {
        const bpu::Tensor &a = g.tensors[i], &b = reinferred.tensors[i];
        if (!(a.shape == b.shape) || a.dtype != b.dtype || bool(a.value) != bool(b.value))
            return "tensor '" + a.name + "': incremental shape " + a.shape.toString() + ", full inference " +
                   b.shape.toString();
    }
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].shapeError != reinferred.nodes[i].shapeError)
            return "node '" + g.nodes[i].name + "': shape error '" + g.nodes[i].shapeError + "' vs '" +
                   reinferred.nodes[i].shapeError + "'";

    bpu::Session full(g, s.targetPtr(), s.options());
    const auto &ia = s.analysis(), &fa = full.analysis();
    const auto &ic = s.cost(), &fc = full.cost();
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const auto &a = ia.nodes[i], &b = fa.nodes[i];
        const auto &ma = ia.metrics[i], &mb = fa.metrics[i];
        const std::string n = "node '" + g.nodes[i].name + "' (" + g.nodes[i].opType + "): ";
        if (a.placement != b.placement)
            return n + "placement " + bpu::placementName(a.placement) + " vs " +
                   bpu::placementName(b.placement);
        if (a.macs != b.macs || a.paddedMacs != b.paddedMacs || a.ops != b.ops)
            return n + "MACs " + std::to_string(a.paddedMacs) + " vs " + std::to_string(b.paddedMacs);
        if (a.inputBytes != b.inputBytes || a.outputBytes != b.outputBytes || a.weightBytes != b.weightBytes)
            return n + "bytes in/out/weights " + std::to_string(a.inputBytes) + "/" +
                   std::to_string(a.outputBytes) + "/" + std::to_string(a.weightBytes) + " vs " +
                   std::to_string(b.inputBytes) + "/" + std::to_string(b.outputBytes) + "/" +
                   std::to_string(b.weightBytes);
        if (a.ddrBytes != b.ddrBytes)
            return n + "DDR bytes " + std::to_string(a.ddrBytes) + " vs " + std::to_string(b.ddrBytes);
        if (a.bound != b.bound)
            return n + "bound " + bpu::boundName(a.bound) + " vs " + bpu::boundName(b.bound);
        if (a.fusionGroup != b.fusionGroup)
            return n + "fusion group differs";
        if (ma.macs != mb.macs || ma.params != mb.params || ma.weightBytes != mb.weightBytes ||
            ma.inputBytes != mb.inputBytes || ma.outputBytes != mb.outputBytes || ma.complete != mb.complete)
            return n + "metrics differ (MACs " + std::to_string(ma.macs) + " vs " + std::to_string(mb.macs) +
                   ")";
        if (!close(a.computeUs, b.computeUs) || !close(a.memoryUs, b.memoryUs))
            return n + "roofline times differ";
        if (!close(ic.nodes[i].latencyUs, fc.nodes[i].latencyUs))
            return n + "latency " + std::to_string(ic.nodes[i].latencyUs) + " vs " +
                   std::to_string(fc.nodes[i].latencyUs) + " us";
    }
    if (!close(ic.totalUs, fc.totalUs) || ic.batch != fc.batch)
        return "model latency " + std::to_string(ic.totalUs) + " vs " + std::to_string(fc.totalUs) + " us";
    // And the whole document, findings included.
    full.findings();
    s.findings();
    const json a = bpu::analysisJson(g, s.target(), s.analysis(), &s.cost());
    const json b = bpu::analysisJson(g, full.target(), full.analysis(), &full.cost());
    if (a != b)
        return "analysis documents differ at " + firstDiff(a, b);
    return {};
}

// One random legal-looking edit (it may still be rejected: that is fine).
json randomEdit(std::mt19937& rng, const bpu::Session& s) {
    const bpu::Graph& g = s.graph();
    auto pick = [&](size_t n) {
        return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
    };
    const auto dense = convNodes(g, false);
    std::vector<bpu::NodeId> convs = dense;
    for (bpu::NodeId id : convNodes(g, true))
        convs.push_back(id);
    for (int attempt = 0; attempt < 20; ++attempt) {
        switch (pick(8)) {
        case 0: { // set_group with a divisor of both channel counts
            if (convs.empty())
                break;
            const bpu::Node& n = g.node(convs[pick(convs.size())]);
            const int64_t cin = g.tensor(n.inputs[0]).shape.dims[1],
                          cout = g.tensor(n.inputs[1]).shape.dims[0];
            const int64_t gcd = std::gcd(cin, cout);
            std::vector<int64_t> divisors;
            for (int64_t d = 1; d <= gcd; ++d)
                if (gcd % d == 0)
                    divisors.push_back(d);
            return {{"op", "set_group"}, {"node", n.name}, {"group", divisors[pick(divisors.size())]}};
        }
        case 1: { // set_channels to a multiple of the group
            if (dense.empty())
                break;
            const bpu::Node& n = g.node(dense[pick(dense.size())]);
            const int64_t group = std::max<int64_t>(1, n.attrIntOr("group", 1));
            const int64_t cout = g.tensor(n.inputs[1]).shape.dims[0];
            const int64_t k = std::max<int64_t>(1, cout / group);
            const int64_t mult =
                std::uniform_int_distribution<int64_t>(std::max<int64_t>(1, k / 2), 2 * k)(rng);
            return {{"op", "set_channels"}, {"node", n.name}, {"channels", mult * group}};
        }
        case 2:
            return {{"op", "set_batch"}, {"batch", std::uniform_int_distribution<int>(1, 8)(rng)}};
        case 3: { // set_input_shape: H/W multiples of 32
            std::vector<bpu::TensorId> images;
            for (bpu::TensorId in : g.inputs)
                if (g.tensor(in).shape.rank() == 4 && g.tensor(in).shape.fullyKnown())
                    images.push_back(in);
            if (images.empty())
                break;
            const bpu::Tensor& t = g.tensor(images[pick(images.size())]);
            const int64_t h = 32 * std::uniform_int_distribution<int64_t>(2, 20)(rng);
            const int64_t w = 32 * std::uniform_int_distribution<int64_t>(2, 20)(rng);
            return {{"op", "set_input_shape"},
                    {"input", t.name},
                    {"shape", {t.shape.dims[0], t.shape.dims[1], h, w}}};
        }
        case 4:
        case 5: { // fuse / unfuse
            if (convs.empty())
                break;
            return {{"op", pick(2) ? "fuse" : "unfuse"}, {"node", g.node(convs[pick(convs.size())]).name}};
        }
        case 6: { // set_placement of a conv or any node
            const bool conv = !convs.empty() && pick(2);
            const bpu::NodeId id = conv ? convs[pick(convs.size())] : g.topoOrder[pick(g.topoOrder.size())];
            return {
                {"op", "set_placement"}, {"node", g.node(id).name}, {"placement", pick(2) ? "CPU" : "BPU"}};
        }
        case 7:
            return {{"op", "remove_boundary_qdq"}};
        }
    }
    return {{"op", "set_batch"}, {"batch", 2}};
}

} // namespace

class TestEdits : public QObject {
    Q_OBJECT

private slots:
    void revertRestoresExactly_data();
    void revertRestoresExactly();
    void absorbedFixesRevertAsOne_data();
    void absorbedFixesRevertAsOne();
    void revertSeriesInReverseOrder();
    void illegalEditsAreRejected_data();
    void illegalEditsAreRejected();
    void setChannelsRederivesDownstream();
    void setGroupDividesMacs();
    void setBatchScalesActivations();
    void jsonRoundTrip();
    void describeCapsLongLists();
    void incrementalEqualsFull_data();
    void incrementalEqualsFull();
    void editListIsAtomic();
    void editListEqualsOneByOne_data();
    void editListEqualsOneByOne();
    void optionEditsEqualFull_data();
    void optionEditsEqualFull();
    void editKindsAreRegisteredOnce();
    void streamedJsonEqualsDocument_data();
    void streamedJsonEqualsDocument();
    void prettyPiecesEqualDump();
    void objectWriterEqualsDump();
};

void TestEdits::revertRestoresExactly_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kind");
    for (const char* file : {"resnet50.onnx", "mobilenet_v2.onnx", "yolov8n.onnx"})
        for (const auto& kind : kEditKinds)
            QTest::addRow("%s/%s", file, kind.c_str()) << QString(file) << QString::fromStdString(kind);
}

// apply -> revert is the identity on every number the session shows (the whole analysis document, findings
// included, the graph's shapes/attributes/values and the options).
void TestEdits::revertRestoresExactly() {
    QFETCH(QString, file);
    QFETCH(QString, kind);
    // remove_boundary_qdq changes something only where the deployment leaves the boundary passes on the CPU.
    bpu::AnalysisOptions o;
    if (kind == QLatin1String("remove_boundary_qdq"))
        o.deploy = bpu::DeploySettings::keepIoQdq();
    bpu::Session s(sampleGraph(file.toStdString()), s100(), o);
    EditCase c = editCase(kind.toStdString(), s);
    if (!c.edit)
        QSKIP("no legal instance of this edit on this model");
    for (const auto& e : c.setup)
        applyEdit(s, e);
    const json before = dump(s);
    auto edit = bpu::editFromJson(*c.edit);
    bpu::UndoToken token = edit->apply(s);
    const json applied = dump(s);
    QVERIFY2(applied != before, ("the edit changed nothing: " + c.edit->dump()).c_str());
    token.revert(s);
    const json after = dump(s);
    QVERIFY2(after == before,
             (c.edit->dump() + " did not revert exactly: " + firstDiff(before, after)).c_str());
    // Re-applying after a revert gives the same state again.
    edit->apply(s);
    const json again = dump(s);
    QVERIFY2(again == applied, ("re-apply differs: " + firstDiff(applied, again)).c_str());
}

// A series of edits reverted newest first (the undo stack) returns to the imported model exactly.
void TestEdits::revertSeriesInReverseOrder() {
    bpu::Session s(sampleGraph("resnet50.onnx"), s100());
    const json original = dump(s);
    std::vector<bpu::UndoToken> stack;
    for (const auto& kind : kEditKinds) {
        EditCase c = editCase(kind, s);
        if (!c.edit)
            continue;
        auto e = bpu::editFromJson(*c.edit);
        try {
            stack.push_back(e->apply(s));
        } catch (const bpu::EditError&) {
            continue; // an earlier edit of the series made this instance illegal
        }
    }
    QVERIFY(stack.size() >= 10);
    for (auto it = stack.rbegin(); it != stack.rend(); ++it)
        it->revert(s);
    const json after = dump(s);
    QVERIFY2(after == original, firstDiff(original, after).c_str());
}

void TestEdits::illegalEditsAreRejected_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("edit");
    QTest::addColumn<QString>("reason");
    auto row = [](const char* tag, const char* model, json edit, const char* reason) {
        QTest::newRow(tag) << model << QString::fromStdString(edit.dump()) << reason;
    };
    row("group does not divide C", "chain", {{"op", "set_group"}, {"node", "conv2"}, {"group", 3}},
        "group 3 does not divide the channels of 'conv2' (in 16, out 8)");
    row("group zero", "chain", {{"op", "set_group"}, {"node", "conv2"}, {"group", 0}},
        "group must be positive");
    row("group on a Relu", "chain", {{"op", "set_group"}, {"node", "relu"}, {"group", 2}},
        "is a Relu, not a Conv");
    row("zero dim", "chain", {{"op", "set_input_shape"}, {"input", "x"}, {"shape", {1, 3, 0, 32}}},
        "input 'x': dim 2 is 0: it must be in 1..1048576");
    row("negative dim", "chain", {{"op", "set_input_shape"}, {"input", "x"}, {"shape", {1, 3, -32, 32}}},
        "dim 2 is -32");
    // The batch limit of set_batch (4096) holds for the leading dim of a new input shape too.
    row("batch over 4096", "chain", {{"op", "set_input_shape"}, {"input", "x"}, {"shape", {4097, 3, 32, 32}}},
        "the batch (dim 0) is 4097: it must be in 1..4096");
    row("wrong rank", "chain", {{"op", "set_input_shape"}, {"input", "x"}, {"shape", {1, 3, 32}}},
        "has rank 4, the new shape has 3");
    row("unknown input", "chain", {{"op", "set_input_shape"}, {"input", "nope"}, {"shape", {1, 3, 32, 32}}},
        "no model input named 'nope'");
    row("channels on a depthwise conv", "chain", {{"op", "set_channels"}, {"node", "dw"}, {"channels", 24}},
        "'dw' is depthwise");
    row("zero channels", "chain", {{"op", "set_channels"}, {"node", "conv1"}, {"channels", 0}},
        "channels must be in 1..65536");
    row("channels break an Add", "residual", {{"op", "set_channels"}, {"node", "a"}, {"channels", 24}},
        "breaks downstream node 'add' (Add)");
    row("channels resize a shared weight", "shared",
        {{"op", "set_channels"}, {"node", "conv1"}, {"channels", 24}},
        "the change resizes 'wS', which 'convB' shares but the new shape does not reach");
    row("group on a shared weight", "shared", {{"op", "set_group"}, {"node", "convA"}, {"group", 2}},
        "the weight of 'convA' is shared with other nodes");
    row("batch breaks a constant Reshape", "reshape", {{"op", "set_batch"}, {"batch", 2}},
        "breaks downstream node 'reshape' (Reshape)");
    row("input shape breaks a constant Reshape", "reshape",
        {{"op", "set_input_shape"}, {"input", "x"}, {"shape", {1, 3, 16, 16}}},
        "breaks downstream node 'reshape' (Reshape)");
    // Real exports: torchvision detection takes one CHW image; shufflenet's channel shuffle bakes batch 1 in.
    row("batch on a CHW image input", "sample:ssdlite320_mobilenet_v3_large.onnx",
        {{"op", "set_batch"}, {"batch", 8}},
        "input 'image' is 3x320x320, one CHW image without a batch dimension");
    row("batch baked into a constant Reshape", "sample:shufflenet_v2_x1_0.onnx",
        {{"op", "set_batch"}, {"batch", 8}},
        "breaks downstream node '/stage2/stage2.0/Reshape' (Reshape): its input 8x116x28x28 has 727552 "
        "elements "
        "but its constant target shape 1x2x58x28x28 holds 90944 (the exported graph fixes the batch there");
    row("zero batch", "chain", {{"op", "set_batch"}, {"batch", 0}}, "batch must be in 1..4096, got 0");
    for (const char* op : {"fuse", "unfuse"})
        row(op, "chain", {{"op", op}, {"node", "nope"}}, "no node named 'nope'");
    row("fuse a Relu", "chain", {{"op", "fuse"}, {"node", "relu"}}, "fusion groups start at a Conv");
    row("set_group unknown node", "chain", {{"op", "set_group"}, {"node", "nope"}, {"group", 2}},
        "no node named 'nope'");
    row("set_channels unknown node", "chain", {{"op", "set_channels"}, {"node", "nope"}, {"channels", 8}},
        "no node named 'nope'");
    row("set_placement unknown node", "chain",
        {{"op", "set_placement"}, {"node", "nope"}, {"placement", "CPU"}}, "no node named 'nope'");
    row("assume_removed unknown node", "chain", {{"op", "assume_removed"}, {"nodes", {"relu", "nope"}}},
        "no node named 'nope'");
    row("assume_resident unknown tensor", "chain", {{"op", "assume_resident"}, {"tensors", {"nope"}}},
        "no tensor named 'nope'");
    row("assume_aligned unknown tensor", "chain", {{"op", "assume_aligned"}, {"tensors", {"nope"}}},
        "no tensor named 'nope'");
    row("filter_outputs zero", "chain", {{"op", "filter_outputs"}, {"keep", 0}}, "keep must be positive");
    // Rejected by the parser (editFromJson) before they reach the session.
    row("unknown op", "chain", {{"op", "frobnicate"}, {"node", "conv1"}}, "unknown edit op 'frobnicate'");
    row("no op", "chain", {{"node", "conv1"}}, "each edit must be an object with a string \"op\"");
    row("missing field", "chain", {{"op", "set_group"}, {"node", "conv1"}}, "needs an integer 'group'");
    row("mistyped field", "chain", {{"op", "set_batch"}, {"batch", "8"}}, "needs an integer 'batch'");
    row("bad placement", "chain", {{"op", "set_placement"}, {"node", "conv1"}, {"placement", "GPU"}},
        "placement must be BPU, CPU or folded");
    row("shape not integers", "chain",
        {{"op", "set_input_shape"}, {"input", "x"}, {"shape", {1, 3, 32.5, 32}}}, "dims must be integers");
}

void TestEdits::illegalEditsAreRejected() {
    QFETCH(QString, model);
    QFETCH(QString, edit);
    QFETCH(QString, reason);
    const std::string path = model.startsWith("sample:") ? samplePath(model.mid(7).toStdString())
                             : model == "chain"          ? chainModel()
                             : model == "reshape"        ? reshapeModel()
                             : model == "residual"       ? residualModel()
                             : model == "shared"         ? sharedWeightModel()
                                                         : groupModel();
    bpu::Session s = session(path);
    const json before = dump(s);
    std::string message;
    try {
        applyEdit(s, json::parse(edit.toStdString()));
    } catch (const bpu::EditError& e) {
        message = e.what();
    }
    QVERIFY2(!message.empty(), "the edit was accepted");
    QVERIFY2(message.find(reason.toStdString()) != std::string::npos, message.c_str());
    const json after = dump(s);
    QVERIFY2(after == before, ("the session changed: " + firstDiff(before, after)).c_str());
}

// set_channels re-derives every shape and weight its channels reach (numbers by hand):
//   conv1 out 16 -> 24: w1 [24,3,3,3], b1 [24], c1/r1 [1,24,32,32]
//   conv2 (3x3, pad 1, 8 out): w2 [8,24,3,3]; MACs = 8x32x32 outputs x 24x3x3 = 8192 x 216 = 1,769,472
//     (was 8192 x 144 = 1,179,648); weights 8x24x9 = 1728 params = 6912 float bytes, 1728 int8 bytes on the
//     BPU
//   dw follows the new width: group 24, wd [24,1,3,3], y3 [1,24,32,32]; MACs 24x32x32 x 9 = 221,184
void TestEdits::setChannelsRederivesDownstream() {
    bpu::Session s = session(chainModel());
    const json before = dump(s);
    QCOMPARE(metricsOf(s, "conv2").macs, int64_t{1179648});
    auto e = bpu::editFromJson({{"op", "set_channels"}, {"node", "conv1"}, {"channels", 24}});
    bpu::UndoToken token = e->apply(s);
    QCOMPARE(dimsOf(s, "w1"), (std::vector<int64_t>{24, 3, 3, 3}));
    QCOMPARE(dimsOf(s, "b1"), (std::vector<int64_t>{24}));
    QCOMPARE(dimsOf(s, "r1"), (std::vector<int64_t>{1, 24, 32, 32}));
    QCOMPARE(dimsOf(s, "w2"), (std::vector<int64_t>{8, 24, 3, 3}));
    QCOMPARE(dimsOf(s, "y2"), (std::vector<int64_t>{1, 8, 32, 32}));
    QCOMPARE(metricsOf(s, "conv2").macs, int64_t{1769472});
    QCOMPARE(nodeOf(s, "conv2").macs, int64_t{1769472});
    QCOMPARE(metricsOf(s, "conv2").params, int64_t{1728});
    QCOMPARE(metricsOf(s, "conv2").weightBytes, int64_t{6912});
    QCOMPARE(nodeOf(s, "conv2").weightBytes, int64_t{1728});
    const bpu::Node& dw = s.graph().node(s.graph().findNode("dw"));
    QCOMPARE(dw.attrIntOr("group", 0), int64_t{24});
    QCOMPARE(dimsOf(s, "wd"), (std::vector<int64_t>{24, 1, 3, 3}));
    QCOMPARE(dimsOf(s, "y3"), (std::vector<int64_t>{1, 24, 32, 32}));
    QCOMPARE(metricsOf(s, "dw").macs, int64_t{221184});
    // conv1 itself: 24x32x32 outputs x 3x3x3 = 663,552 MACs.
    QCOMPARE(metricsOf(s, "conv1").macs, int64_t{663552});
    QVERIFY2(compareWithFull(s).empty(), compareWithFull(s).c_str());
    token.revert(s);
    QVERIFY2(dump(s) == before, firstDiff(before, dump(s)).c_str());
}

// set_group g on a dense conv divides its MACs by exactly g:
//   64 -> 64, 3x3 pad 1 on 16x16: 64x16x16 = 16384 outputs x 64x9 = 9,437,184 MACs; group 4: 16384 x 16x9 =
//   2,359,296 (= 9,437,184 / 4). Nothing is padded (C 64 = 2x32, H 16 = 2x8, W 16), so padded MACs too.
//   The weight becomes [64,16,3,3] (9216 params).
void TestEdits::setGroupDividesMacs() {
    bpu::Session s = session(groupModel());
    QCOMPARE(nodeOf(s, "conv").macs, int64_t{9437184});
    QCOMPARE(nodeOf(s, "conv").paddedMacs, int64_t{9437184});
    for (int64_t group : {2, 4, 8, 16, 64}) {
        bpu::Session t = s;
        applyEdit(t, {{"op", "set_group"}, {"node", "conv"}, {"group", group}});
        QCOMPARE(nodeOf(t, "conv").macs * group, int64_t{9437184});
        QCOMPARE(nodeOf(t, "conv").paddedMacs * group, int64_t{9437184});
        QCOMPARE(dimsOf(t, "w"), (std::vector<int64_t>{64, 64 / group, 3, 3}));
        QCOMPARE(metricsOf(t, "conv").params * group, int64_t{64 * 64 * 9});
        QCOMPARE(dimsOf(t, "y"), (std::vector<int64_t>{1, 64, 16, 16}));
    }
    applyEdit(s, {{"op", "set_group"}, {"node", "conv"}, {"group", 4}});
    QCOMPARE(nodeOf(s, "conv").macs, int64_t{2359296});
}

// set_batch 8 multiplies every activation's bytes by 8 (the batch dim is never padded) and keeps every
// weight's bytes; on mobilenet_v2 too, through its Flatten and classifier.
void TestEdits::setBatchScalesActivations() {
    for (const std::string& path : {batchModel(), samplePath("mobilenet_v2.onnx")}) {
        bpu::Session s = session(path);
        bpu::Session b = s;
        applyEdit(b, {{"op", "set_batch"}, {"batch", 8}});
        QCOMPARE(b.cost().batch, 8);
        const bpu::Graph& g = s.graph();
        // Tensors that are no batched feature maps although they are no initializers: a Constant node's
        // output (Clip's min/max), shape arithmetic, and a weight passed through an Identity (torch's export
        // shares equal initializers that way). The metrics and the traffic pass count those as activations
        // today.
        auto weightLike = [&](bpu::TensorId id) {
            const bpu::Tensor& t = g.tensor(id);
            if (t.isInitializer || t.value)
                return true;
            const bpu::Node* p = t.producer.valid() ? &g.node(t.producer) : nullptr;
            return p && p->opType == "Identity" && !p->inputs.empty() && p->inputs[0].valid() &&
                   g.tensor(p->inputs[0]).isInitializer;
        };
        int checked = 0, exact = 0;
        int64_t act1 = 0, act8 = 0;
        for (const auto& n : g.nodes) {
            const auto &m1 = s.analysis().metrics[n.id.value], &m8 = b.analysis().metrics[n.id.value];
            const auto &a1 = s.analysis().nodes[n.id.value], &a8 = b.analysis().nodes[n.id.value];
            const std::string where = path + ": " + n.name;
            QVERIFY2(m8.weightBytes == m1.weightBytes && m8.params == m1.params, where.c_str());
            QVERIFY2(a8.weightBytes == a1.weightBytes, where.c_str());
            bool feature = false, otherInputs = false, featureOut = true;
            for (bpu::TensorId in : n.inputs)
                if (in.valid())
                    (weightLike(in) ? otherInputs : feature) = true;
            for (bpu::TensorId o : n.outputs)
                featureOut = featureOut && (!o.valid() || !weightLike(o));
            if (!feature || !featureOut)
                continue; // shape arithmetic or weight plumbing
            QVERIFY2(m8.outputBytes == 8 * m1.outputBytes, where.c_str());
            QVERIFY2(a8.outputBytes == 8 * a1.outputBytes, where.c_str());
            QVERIFY2(a8.macs == 8 * a1.macs, where.c_str());
            act1 += m1.outputBytes;
            act8 += m8.outputBytes;
            ++checked;
            const bool plainInputs =
                !otherInputs || std::all_of(n.inputs.begin(), n.inputs.end(), [&](bpu::TensorId in) {
                    return !in.valid() || !weightLike(in) || g.tensor(in).isInitializer;
                });
            if (!plainInputs)
                continue;
            QVERIFY2(m8.inputBytes == 8 * m1.inputBytes, where.c_str());
            QVERIFY2(a8.inputBytes == 8 * a1.inputBytes, where.c_str());
            ++exact;
        }
        QVERIFY(checked >= 4 && exact >= 4);
        QCOMPARE(act8, 8 * act1);
        QCOMPARE(b.analysis().totals.weightBytes, s.analysis().totals.weightBytes);
    }
}

// Every edit writes the JSON it was read from (project files and --edits share the vocabulary).
void TestEdits::jsonRoundTrip() {
    const json doc = json::parse(R"({"edits":[{"op":"fuse_all"},{"op":"unfuse_all"},{"op":"fuse","node":"c"},
        {"op":"unfuse","node":"c"},{"op":"set_group","node":"conv5","group":4},{"op":"set_batch","batch":8},
        {"op":"set_input_shape","input":"images","shape":[1,3,512,512]},
        {"op":"set_channels","node":"conv7","channels":64},{"op":"remove_boundary_qdq"},
        {"op":"set_placement","node":"topk","placement":"BPU"},{"op":"assume_resident","tensors":["a","b"]},
        {"op":"assume_aligned","tensors":["t"]},{"op":"assume_removed","nodes":["n"]},
        {"op":"filter_outputs","keep":300}]})");
    auto edits = bpu::editListFromJson(doc);
    QCOMPARE(edits.size(), doc["edits"].size());
    for (size_t i = 0; i < edits.size(); ++i)
        QCOMPARE(edits[i]->toJson(), doc["edits"][i]);
    QCOMPARE(bpu::editListFromJson(doc["edits"]).size(), edits.size()); // a bare array too
    QCOMPARE(bpu::editListToJson(edits), doc);
    QCOMPARE(QString::fromStdString(edits[4]->describe()), QString("set_group group=4 node=conv5"));
    try {
        bpu::editListFromJson(json::parse(R"({"edits":[{"op":"fuse_all"},{"op":"nope"}]})"));
        QFAIL("accepted an unknown op");
    } catch (const bpu::EditError& e) {
        QCOMPARE(QString(e.what()), QString("edit 2: unknown edit op 'nope'"));
    }
}

// describe(cap): a list longer than the cap prints its count, the first items and how many more (labels,
// the report); the default prints every item (Session keys gain estimates by the text).
void TestEdits::describeCapsLongLists() {
    const auto edit = [](const char* text) {
        return bpu::editFromJson(json::parse(text));
    };
    const auto removed = edit(R"({"op":"assume_removed","nodes":["n1","n2","n3","n4","n5"]})");
    QCOMPARE(removed->describe(), std::string(R"(assume_removed nodes=["n1","n2","n3","n4","n5"])"));
    QCOMPARE(removed->describe(5), removed->describe());
    QCOMPARE(removed->describe(3), std::string("assume_removed nodes=[5: n1, n2, n3, ... 2 more]"));
    QCOMPARE(removed->describe(0), std::string("assume_removed nodes=[5: ... 5 more]"));
    // Only the long list is cut; scalars and short lists read as before, keys in JSON order.
    const auto precision = edit(
        R"({"op":"set_precision","precision":"int16","nodes":["a","b"],"op_types":["Conv","Mul","Add","Sigmoid"]})");
    QCOMPARE(
        precision->describe(3),
        std::string(
            R"(set_precision nodes=["a","b"] op_types=[4: Conv, Mul, Add, ... 1 more] precision=int16)"));
    QCOMPARE(edit(R"({"op":"set_group","node":"conv5","group":4})")->describe(3),
             std::string("set_group group=4 node=conv5"));
    // cut_at has its own wording and honours the cap the same way.
    const auto cut = edit(R"({"op":"cut_at","tensors":["t1","t2","t3","t4"]})");
    QCOMPARE(cut->describe(), std::string("cut_at 4 tensors (t1, t2, t3, t4)"));
    QCOMPARE(cut->describe(2), std::string("cut_at 4 tensors (t1, t2, ... 2 more)"));
    QCOMPARE(edit(R"({"op":"cut_at","tensors":["out"]})")->describe(1), std::string("cut_at 1 tensor (out)"));
}

void TestEdits::incrementalEqualsFull_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<unsigned>("seed");
    const auto files = sampleFiles();
    QVERIFY(files.size() >= 10);
    for (const auto& f : files)
        for (unsigned seed : {20240605u, 7u})
            QTest::addRow("%s/seed %u", f.c_str(), seed) << QString::fromStdString(f) << seed;
}

// The key property of the incremental path: after each of a seeded random series of edits, the session's
// state equals a fresh Session built from a copy of the edited graph (full inference, metrics, passes, cost).
// Then reverting the series newest first returns to the imported model exactly.
void TestEdits::incrementalEqualsFull() {
    QFETCH(QString, file);
    QFETCH(unsigned, seed);
    bpu::Session s(sampleGraph(file.toStdString()), s100());
    const json original = dump(s);
    std::mt19937 rng(seed);
    std::vector<bpu::UndoToken> applied;
    int rejected = 0;
    std::string history;
    for (int step = 0; step < 10; ++step) {
        const json e = randomEdit(rng, s);
        auto edit = bpu::editFromJson(e);
        try {
            applied.push_back(edit->apply(s));
        } catch (const bpu::EditError&) {
            ++rejected;
            continue;
        }
        history += "\n  " + e.dump();
        const std::string diff = compareWithFull(s);
        QVERIFY2(diff.empty(), (file.toStdString() + " after:" + history + "\n" + diff).c_str());
    }
    QVERIFY2(applied.size() >= 3, ("only " + std::to_string(applied.size()) + " edits applied").c_str());
    for (auto it = applied.rbegin(); it != applied.rend(); ++it)
        it->revert(s);
    const json after = dump(s);
    QVERIFY2(after == original,
             (file.toStdString() + ":" + history + "\nreverted: " + firstDiff(original, after)).c_str());
    qInfo("%s: %zu edits applied, %d rejected", qPrintable(file), applied.size(), rejected);
}

// applyEditList is all or nothing: the third edit of this list does not apply (group 3 does not divide 16
// and 8, worked out in illegalEditsAreRejected), so the two before it, which did apply on their own, leave
// no trace, and the error names the third edit by its position and description.
void TestEdits::editListIsAtomic() {
    bpu::Session s = session(chainModel());
    const json before = dump(s);
    const bpu::EditList list = bpu::editListFromJson(json::parse(
        R"([{"op":"unfuse_all"},{"op":"set_channels","node":"conv1","channels":24},
            {"op":"set_group","node":"conv2","group":3},{"op":"remove_boundary_qdq"}])"));
    try {
        bpu::applyEditList(s, list);
        QFAIL("the list applied");
    } catch (const bpu::EditListError& e) {
        QCOMPARE(e.index(), size_t(2));
        QCOMPARE(QString::fromStdString(e.edit()), QString("set_group group=3 node=conv2"));
        // conv2 reads conv1's new 24 channels by then: the reason is about the edited model.
        QCOMPARE(QString::fromStdString(e.reason()),
                 QString("group 3 does not divide the channels of 'conv2' (in 24, out 8)"));
        QCOMPARE(QString(e.what()), QString("edit 3 (set_group group=3 node=conv2): group 3 does not "
                                            "divide the channels of 'conv2' (in 24, out 8)"));
    }
    const json after = dump(s);
    QVERIFY2(after == before, ("the failed list left a trace: " + firstDiff(before, after)).c_str());
    // The first two alone apply, and their token reverts them together.
    bpu::UndoToken token = bpu::applyEditList(s, {list[0], list[1]});
    QVERIFY(dump(s) != before);
    token.revert(s);
    QVERIFY2(dump(s) == before, firstDiff(before, dump(s)).c_str());
}

void TestEdits::editListEqualsOneByOne_data() {
    QTest::addColumn<QString>("file");
    for (const char* f : {"resnet50.onnx", "mobilenet_v2.onnx", "yolov8n.onnx"})
        QTest::addRow("%s", f) << QString(f);
}

// A list applied at once (one re-estimate over every node the edits dirtied) reaches exactly the state the
// same edits reach one at a time (a re-estimate each), and that state equals a full recompute.
void TestEdits::editListEqualsOneByOne() {
    QFETCH(QString, file);
    bpu::Session one(sampleGraph(file.toStdString()), s100());
    const json original = dump(one);
    bpu::EditList list;
    for (const auto& kind : kEditKinds) {
        EditCase c = editCase(kind, one);
        if (!c.edit)
            continue;
        auto e = bpu::editFromJson(*c.edit);
        try {
            e->apply(one); // legal after the ones before it: keep it
        } catch (const bpu::EditError&) {
            continue;
        }
        list.push_back(e);
    }
    QVERIFY(list.size() >= 8);
    bpu::Session all(sampleGraph(file.toStdString()), s100());
    bpu::UndoToken token = bpu::applyEditList(all, list);
    const json a = dump(one), b = dump(all);
    QVERIFY2(a == b, firstDiff(a, b).c_str());
    QVERIFY2(compareWithFull(all).empty(), compareWithFull(all).c_str());
    token.revert(all);
    QVERIFY2(dump(all) == original, firstDiff(original, dump(all)).c_str());
}

void TestEdits::optionEditsEqualFull_data() {
    QTest::addColumn<QString>("path");
    const auto files = sampleFiles();
    QVERIFY(files.size() >= 10);
    for (const auto& f : files)
        QTest::addRow("%s", f.c_str()) << QString::fromStdString(samplePath(f));
    // A generated model like the bench's scale chain (placement edits in the middle of a long chain split
    // its segment and move every segment index after it).
    QTest::addRow("generated chain") << QString::fromStdString(scaleChainModel(40));
}

// The option edits the what-if loop re-estimates most (a node's placement, a node's or an op type's
// precision: what a drag of the placement / precision controls and most finding fixes are; a tensor assumed
// aligned, which the padding pass keeps per tensor between re-estimates) keep every node's analysis and cost
// and the totals equal to a fresh full analysis of the same edited model, one edit at a time and after each
// revert, so a faster incremental re-estimate can never drift from the full one.
void TestEdits::optionEditsEqualFull() {
    QFETCH(QString, path);
    bpu::Session s = session(path.toStdString());
    const json original = dump(s);
    const bpu::Graph& g = s.graph();
    std::mt19937 rng(20261203u);
    auto pick = [&](size_t n) {
        return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
    };
    const char* placements[] = {"CPU", "BPU", "folded"};
    std::vector<bpu::UndoToken> applied;
    std::string history;
    for (int step = 0; step < 8; ++step) {
        const bpu::Node& n = g.node(g.topoOrder[pick(g.topoOrder.size())]);
        json e;
        switch (pick(4)) {
        case 0:
            e = {{"op", "set_placement"}, {"node", n.name}, {"placement", placements[pick(3)]}};
            break;
        case 3:
            if (n.outputs.empty() || !n.outputs[0].valid())
                continue;
            e = {{"op", "assume_aligned"}, {"tensors", {g.tensor(n.outputs[0]).name}}};
            break;
        case 1:
            e = {{"op", "set_precision"}, {"precision", pick(2) ? "int16" : "int8"}, {"nodes", {n.name}}};
            break;
        default:
            e = {
                {"op", "set_precision"}, {"precision", pick(2) ? "int16" : "int8"}, {"op_types", {n.opType}}};
            break;
        }
        try {
            applied.push_back(bpu::editFromJson(e)->apply(s));
        } catch (const bpu::EditError&) {
            continue;
        }
        history += "\n  " + e.dump();
        const std::string diff = compareWithFull(s);
        QVERIFY2(diff.empty(), (path.toStdString() + " after:" + history + "\n" + diff).c_str());
    }
    QVERIFY2(applied.size() >= 4, ("only " + std::to_string(applied.size()) + " edits applied").c_str());
    for (auto it = applied.rbegin(); it != applied.rend(); ++it) {
        it->revert(s);
        const std::string diff = compareWithFull(s);
        QVERIFY2(diff.empty(), (path.toStdString() + " reverting:" + history + "\n" + diff).c_str());
    }
    const json after = dump(s);
    QVERIFY2(after == original,
             (path.toStdString() + ":" + history + "\nreverted: " + firstDiff(original, after)).c_str());
}

// One registry: every op of the vocabulary (docs/edits.md) parses through it, once, and writes itself back.
void TestEdits::editKindsAreRegisteredOnce() {
    std::set<std::string> ops;
    for (const auto& k : bpu::editKinds())
        QVERIFY2(ops.insert(std::string(k.op)).second, std::string(k.op).c_str());
    for (const auto& kind : kEditKinds)
        QVERIFY2(ops.count(kind), kind.c_str());
    QCOMPARE(ops.size(), kEditKinds.size());
    QVERIFY(bpu::findEditKind("set_batch"));
    QVERIFY(!bpu::findEditKind("set_batc"));
}

void TestEdits::streamedJsonEqualsDocument_data() {
    QTest::addColumn<QString>("file");
    for (const char* file : {"resnet50.onnx", "mobilenet_v2.onnx", "yolov8n.onnx"})
        QTest::addRow("%s", file) << QString(file);
}

// analyze --json streams the document (writeSessionJson): the text, piece by piece, is exactly the dump of
// the document sessionJson builds whole, with the extra members, after an edit and with estimated gains.
void TestEdits::streamedJsonEqualsDocument() {
    QFETCH(QString, file);
    bpu::Session s(sampleGraph(file.toStdString()), s100());
    const bpu::CostEstimate baseline = s.cost();
    bpu::EditList edits; // a finding's fix, or its what-if when it has none (yolov8n)
    for (const auto& f : s.findings())
        if (!f.fix.empty() || !f.whatIf.empty()) {
            edits = f.fix.empty() ? f.whatIf : f.fix;
            break;
        }
    QVERIFY(!edits.empty());
    bpu::applyEditList(s, edits);
    s.estimateFindingGains();
    const json extra = {{"plan", json::array({1, "two"})}, {"plan_summary", {{"text", "a\nb"}}}};
    std::string streamed;
    size_t pieces = 0;
    bpu::writeSessionJson(
        [&](std::string_view piece) {
            streamed += piece;
            ++pieces;
        },
        s, baseline, edits, extra);
    json whole = bpu::sessionJson(s, baseline, edits);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        whole[it.key()] = it.value();
    QVERIFY(!whole["nodes"].empty());
    QVERIFY(pieces >= 1);
    QCOMPARE(streamed, whole.dump(2) + "\n");
}

// appendPretty writes a value holding long lists (a finding's 96k tensor names at 100k nodes) in pieces, and
// the text is exactly what nlohmann's dump(2) makes of the same value at the same depth: escapes, empty
// containers, numbers, nested long lists in objects in arrays.
void TestEdits::prettyPiecesEqualDump() {
    json names = json::array();
    for (int i = 0; i < 1000; ++i)
        names.push_back("/model." + std::to_string(i) + "/conv \"q\"\n\t\x01 \xc3\xa9");
    json longOfShort = json::array();
    for (int i = 0; i < 300; ++i)
        longOfShort.push_back({{"i", i}, {"x", i * 0.1}, {"empty", json::array()}, {"none", json::object()}});
    const json value = {{"names", names},
                        {"steps", json::array({{{"edit", {{"op", "assume_aligned"}, {"tensors", names}}}},
                                               json::array(),
                                               json::object(),
                                               nullptr})},
                        {"rows", longOfShort},
                        {"small", {1, 2.5, "three", false}},
                        {"", "empty key"}};
    for (const json& v : {value, names, json(42), json::array(), json("x\ny")}) {
        // At depth 2 the value sits in {"a": {"b": v}}.
        const json wrapped = {{"a", {{"b", v}}}};
        std::string text;
        int spills = 0;
        bpu::appendPretty(text, v, 2, [&] { ++spills; });
        QCOMPARE("{\n  \"a\": {\n    \"b\": " + text + "\n  }\n}", wrapped.dump(2));
        text.clear();
        bpu::appendPretty(text, v, 0, [&] { ++spills; });
        QCOMPARE(text, v.dump(2));
        if (v.is_array() && v.size() == 1000)
            QVERIFY(spills >= 2000); // one piece per name, at both depths
    }
}

void TestEdits::absorbedFixesRevertAsOne_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("cuts");
    // yolov8n: its SiLU swapped for ReLU (a structural edit: the graph is rewritten) and padding what-ifs
    // (options); ssdlite: its post-processing tail cut off (structural) among shape and option edits.
    QTest::addRow("yolov8n") << QStringLiteral("yolov8n.onnx") << true;
    QTest::addRow("ssdlite") << QStringLiteral("ssdlite320_mobilenet_v3_large.onnx") << true;
}

// The optimization plan keeps its steps as one token (UndoToken::absorb) and reverts them with one
// re-estimate: every finding's fix applied on top of the ones before, absorbed, then reverted once, leaves
// the session exactly as a fresh one.
void TestEdits::absorbedFixesRevertAsOne() {
    QFETCH(QString, file);
    QFETCH(bool, cuts);
    bpu::Session s(sampleGraph(file.toStdString()), s100());
    const json before = dump(s);
    std::vector<bpu::EditList> fixes; // fixes and what-ifs alike: edit lists the plan or a user stacks
    for (const auto& f : s.findings())
        for (const bpu::EditList* l : {&f.fix, &f.whatIf})
            if (!l->empty())
                fixes.push_back(*l);
    QVERIFY(fixes.size() >= 2);
    bpu::UndoToken all;
    int applied = 0;
    bool structural = false;
    for (const auto& fix : fixes) {
        try {
            bpu::UndoToken t = bpu::applyEditList(s, fix);
            structural |= t.structural();
            all.absorb(std::move(t));
            ++applied;
        } catch (const bpu::EditError&) {
            // An earlier fix removed or changed what this one edits: the plan skips it too.
        }
    }
    QVERIFY(applied >= 2);
    QVERIFY(dump(s) != before);
    QCOMPARE(structural, cuts);
    all.revert(s);
    const json after = dump(s);
    QVERIFY2(after == before, firstDiff(before, after).c_str());
    QVERIFY(all.empty());
}

// The node table is written member by member (PrettyObjectWriter); the same member calls into an nlohmann
// object (JsonObjectBuilder) must dump to the same text: escapes, UTF-8, every kind of double nlohmann
// formats its own way (shortest round trip, "1.0", "1e-07", non-finite as null), integer limits, empty lists.
void TestEdits::objectWriterEqualsDump() {
    const double inf = std::numeric_limits<double>::infinity();
    const std::vector<double> numbers = {0.0,     -0.0,       1.0,     0.1,
                                         1e-7,    1e21,       1e15,    1e16,
                                         -2.5e-5, 123456.789, 1.0 / 3, std::numeric_limits<double>::max(),
                                         5e-324,  NAN,        inf,     -inf};
    const std::vector<std::string> texts = {
        "",         "plain /model.22/cv3.0/Conv", "quote \" back \\ slash", "ctrl \x01\x1f\n\t\r\b\f",
        "del \x7f", "utf8 \xc3\xa9 \xe4\xb8\xad"};
    const std::vector<int64_t> ints = {0, -1, 7, std::numeric_limits<int64_t>::min(),
                                       std::numeric_limits<int64_t>::max()};
    auto members = [&](auto& w, size_t k) {
        w.boolean("a_bool", k % 2 == 0);
        w.ints("b_empty_ints", {});
        w.integer("c_int", ints[k % ints.size()]);
        w.ints("d_ints", ints);
        w.null("e_null");
        w.number("f_number", numbers[k % numbers.size()]);
        w.str("g_str", texts[k % texts.size()]);
        w.strings("h_empty_strings", {});
        w.strings("i_strings", texts);
    };
    for (size_t k = 0; k < numbers.size() + texts.size(); ++k) {
        bpu::JsonObjectBuilder b;
        members(b, k);
        const json doc = b.take();
        std::string text;
        bpu::PrettyObjectWriter top(text, 0);
        members(top, k);
        top.finish();
        QCOMPARE(text, doc.dump(2));
        // Two levels deep, as a table entry: {"t": [entry]}.
        text.clear();
        bpu::PrettyObjectWriter entry(text, 2);
        members(entry, k);
        entry.finish();
        const json wrapped = {{"t", json::array({doc})}};
        QCOMPARE("{\n  \"t\": [\n    " + text + "\n  ]\n}", wrapped.dump(2));
    }
    std::string empty;
    bpu::PrettyObjectWriter none(empty, 1);
    none.finish();
    QCOMPARE(empty, json::object().dump(2));
    // A double on its own, as a member would hold it.
    for (double d : numbers) {
        std::string t;
        bpu::appendJsonNumber(t, d);
        QCOMPARE(t, json(d).dump());
    }
}

QTEST_GUILESS_MAIN(TestEdits)
#include "tst_edits.moc"
