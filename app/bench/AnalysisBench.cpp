// SPDX-License-Identifier: MIT
// Benchmark family: the analysis engine and the what-if path.
//
//   analysis/<sample>      import + full analysis (findings included) + cost, in process, one run per
//                          repetition (median over --benchmark_repetitions, 5 by default). Next to it the
//                          same file through /usr/bin/python3 (onnx.load without external data +
//                          infer_shapes) as a subprocess, python's start-up (`import onnx` alone), and
//                          bpuscope-cli analyze as a subprocess; peak RSS of both subprocesses (wait4).
//                          x_py = our CPU time / python's whole run; x_py_infer = our CPU time / python's
//                          load + infer_shapes alone (py_infer_ms, timed inside python: the fair floor).
//   reestimate/<model>/... one edit applied to a live session (incremental: re-inference downstream, metrics
//                          of the dirty nodes, the linear sweeps, the cost) against a full re-estimate, on
//                          the ~1k-node sample and on synthetic residual nets of ~1k and ~10k nodes (built
//                          below with onnx's protobuf API, saved to /tmp, loaded through ModelImporter).
//   reestimate/<model>/editable_dims: the drag editor's dims on a selection (GUI thread), beside `full`.
//   gains/<sample>         every finding's estimated gain (each fix applied to the session and reverted).
//
// Targets (issue 4): analysis <= 1.5x python's load + infer time; incremental <= 2 ms at 1k nodes, <= 16 ms
// at 10k. Run: bpuscope-bench --benchmark_filter='analysis/|reestimate/' --benchmark_counters_tabular=true
#include "BenchPaths.h"
#include "BenchProcess.h"
#include "BenchSupport.h"

#include "core/analysis/Analyzer.h"
#include "core/cost/CostModel.h"
#include "core/edit/EditError.h"
#include "core/edit/EditList.h"
#include "core/edit/EditableDims.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <onnx/onnx_pb.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

namespace {

using bench::cpuSeconds;
using bench::peakRssMb;
using bench::ProcessRun;
using bench::runProcess;

using bench::kPython;
using bench::kPythonInfer;
using bench::s100;

// ---- analysis/<sample>
// -------------------------------------------------------------------------------------

void BM_Analysis(benchmark::State& state, const std::string& file) {
    const std::string path = bench::samplesDir() + "/" + file;
    size_t nodes = 0;
    double cpuMs = 0, importMs = 0;
    ProcessRun py, pyStart, cli;
    for (auto _ : state) {
        const double c0 = cpuSeconds();
        const auto t0 = std::chrono::steady_clock::now();
        bpu::Graph g = bpu::ModelImporter::load(path);
        const auto t1 = std::chrono::steady_clock::now();
        bpu::Session s(std::move(g), s100()); // metrics, every pass, findings, cost
        benchmark::DoNotOptimize(s.cost().totalUs);
        const auto t2 = std::chrono::steady_clock::now();
        cpuMs = (cpuSeconds() - c0) * 1e3;
        importMs = std::chrono::duration<double, std::milli>(t1 - t0).count();
        state.SetIterationTime(std::chrono::duration<double>(t2 - t0).count());
        nodes = s.graph().nodes.size();
        // The floor to compare against, and python's start-up on its own.
        py = runProcess({kPython, "-c", kPythonInfer, path});
        pyStart = runProcess({kPython, "-c", "import onnx"});
        cli = runProcess({bench::cliPath(), "analyze", path});
    }
    state.counters["nodes"] = double(nodes);
    state.counters["import_ms"] = importMs;
    state.counters["cpu_ms"] = cpuMs;
    if (py.ok && pyStart.ok) {
        state.counters["py_ms"] = py.wallMs;
        state.counters["py_cpu_ms"] = py.cpuMs;
        state.counters["py_start_ms"] = pyStart.wallMs;
        state.counters["py_rss_mb"] = py.peakRssMb;
        // Ours in process against python's whole run (CPU time: the machine may be shared) ...
        state.counters["x_py"] = cpuMs / py.cpuMs;
        // ... and against python's load + infer_shapes alone, timed inside python: the fair floor.
        const double pyInferMs = std::atof(py.out.c_str()) * 1e3;
        if (pyInferMs > 0) {
            state.counters["py_infer_ms"] = pyInferMs;
            state.counters["x_py_infer"] = cpuMs / pyInferMs;
        }
    } else {
        state.SkipWithError("/usr/bin/python3 with onnx did not run (python3-onnx installed?)");
    }
    if (cli.ok) {
        state.counters["cli_cpu_ms"] = cli.cpuMs; // process start, import, analysis, finding gains, report
        state.counters["cli_rss_mb"] = cli.peakRssMb;
    }
    state.counters["rss_mb"] = peakRssMb();
}

// ---- synthetic residual nets
// -------------------------------------------------------------------------------

void extWeight(onnx::GraphProto& g, const std::string& name, std::vector<int64_t> dims) {
    auto* t = g.add_initializer();
    t->set_name(name);
    t->set_data_type(onnx::TensorProto::FLOAT);
    for (auto d : dims)
        t->add_dims(d);
    t->set_data_location(onnx::TensorProto::EXTERNAL); // graph-only: the weights file is never written
    auto* kv = t->add_external_data();
    kv->set_key("location");
    kv->set_value("weights.bin");
}

onnx::NodeProto* addNode(onnx::GraphProto& g, const std::string& op, const std::string& name,
                         std::vector<std::string> in, std::vector<std::string> out) {
    auto* n = g.add_node();
    n->set_op_type(op);
    n->set_name(name);
    for (auto& i : in)
        n->add_input(i);
    for (auto& o : out)
        n->add_output(o);
    return n;
}

void intsAttr(onnx::NodeProto* n, const std::string& key, std::vector<int64_t> v) {
    auto* a = n->add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::INTS);
    for (auto x : v)
        a->add_ints(x);
}

/// A ResNet-style net of about `targetNodes` nodes: a stem conv, then residual blocks
/// conv3x3 -> BN -> Relu -> conv3x3 -> BN -> Add(shortcut) -> Relu (7 nodes each), 64 channels at 56x56,
/// then GlobalAveragePool. Saved under /tmp (cached); the path.
std::string residualNet(int targetNodes) {
    const std::string path = "/tmp/bpuscope-bench-resnet-" + std::to_string(targetNodes) + ".onnx";
    if (std::filesystem::exists(path))
        return path;
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.set_producer_name("bpuscope-bench");
    auto* op = m.add_opset_import();
    op->set_domain("");
    op->set_version(13);
    onnx::GraphProto& g = *m.mutable_graph();
    g.set_name("synthetic_resnet");
    auto* in = g.add_input();
    in->set_name("x");
    auto* tt = in->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(onnx::TensorProto::FLOAT);
    for (int64_t d : {1, 3, 56, 56})
        tt->mutable_shape()->add_dim()->set_dim_value(d);
    constexpr int64_t C = 64;
    auto conv = [&](const std::string& name, const std::string& x, int64_t cin, const std::string& y) {
        extWeight(g, name + ".w", {C, cin, 3, 3});
        intsAttr(addNode(g, "Conv", name, {x, name + ".w"}, {y}), "pads", {1, 1, 1, 1});
    };
    auto bn = [&](const std::string& name, const std::string& x, const std::string& y) {
        for (const char* p : {".s", ".b", ".m", ".v"})
            extWeight(g, name + p, {C});
        addNode(g, "BatchNormalization", name, {x, name + ".s", name + ".b", name + ".m", name + ".v"}, {y});
    };
    conv("stem", "x", 3, "t0");
    std::string cur = "t0";
    const int blocks = std::max(1, (targetNodes - 2) / 7);
    for (int b = 0; b < blocks; ++b) {
        const std::string p = "b" + std::to_string(b);
        conv(p + ".conv1", cur, C, p + ".c1");
        bn(p + ".bn1", p + ".c1", p + ".n1");
        addNode(g, "Relu", p + ".relu1", {p + ".n1"}, {p + ".r1"});
        conv(p + ".conv2", p + ".r1", C, p + ".c2");
        bn(p + ".bn2", p + ".c2", p + ".n2");
        addNode(g, "Add", p + ".add", {p + ".n2", cur}, {p + ".s"});
        addNode(g, "Relu", p + ".relu2", {p + ".s"}, {p + ".out"});
        cur = p + ".out";
    }
    addNode(g, "GlobalAveragePool", "pool", {cur}, {"y"});
    g.add_output()->set_name("y");
    std::ofstream out(path + ".tmp", std::ios::binary);
    m.SerializeToOstream(&out);
    out.close();
    std::filesystem::rename(path + ".tmp", path);
    return path;
}

// ---- reestimate/<model>/<edit>
// -----------------------------------------------------------------------------

struct Model {
    std::string label;
    std::string path;
};

/// The models the what-if path is measured on: the sample closest to 1k nodes and synthetic 1k / 10k nets.
const std::vector<Model>& reestimateModels() {
    static const std::vector<Model> models = [] {
        std::vector<Model> out;
        std::string best;
        long bestDist = -1;
        for (const auto& f : bench::sampleFiles())
            if (const bpu::Graph* g = bench::sample(f)) {
                const long d = std::labs(long(g->nodes.size()) - 1000);
                if (bestDist < 0 || d < bestDist) {
                    bestDist = d;
                    best = f;
                }
            }
        if (!best.empty())
            out.push_back({bench::stem(best), bench::samplesDir() + "/" + best});
        out.push_back({"synthetic1k", residualNet(1000)});
        out.push_back({"synthetic10k", residualNet(10000)});
        return out;
    }();
    return models;
}

/// The session for a model, imported once.
bpu::Session& sessionFor(const std::string& path) {
    static std::map<std::string, std::unique_ptr<bpu::Session>> cache;
    auto& s = cache[path];
    if (!s)
        s = std::make_unique<bpu::Session>(bpu::ModelImporter::load(path), s100());
    return *s;
}

/// A mid-graph dense conv whose set_channels (+32) and set_group (2) are legal: the edits a user drags.
std::pair<nlohmann::json, nlohmann::json> midConvEdits(const bpu::Session& s) {
    const bpu::Graph& g = s.graph();
    std::vector<bpu::NodeId> convs;
    for (bpu::NodeId id : g.topoOrder)
        if (g.node(id).opType == "Conv" && g.node(id).attrIntOr("group", 1) == 1)
            convs.push_back(id);
    nlohmann::json channels, group;
    const size_t mid = convs.size() / 2;
    for (size_t d = 0; d < convs.size() && (channels.is_null() || group.is_null()); ++d) {
        for (size_t i : {mid + d, mid - std::min(mid, d)}) {
            if (i >= convs.size())
                continue;
            const bpu::Node& n = g.node(convs[i]);
            const auto& w = g.tensor(n.inputs[1]).shape.dims;
            const auto& x = g.tensor(n.inputs[0]).shape.dims;
            if (w.size() != 4 || x.size() != 4)
                continue;
            auto legal = [&](const nlohmann::json& e) {
                bpu::Session trial = s;
                try {
                    bpu::editFromJson(e)->apply(trial);
                    return true;
                } catch (const bpu::EditError&) {
                    return false;
                }
            };
            nlohmann::json c = {{"op", "set_channels"}, {"node", n.name}, {"channels", w[0] + 32}};
            nlohmann::json gr = {{"op", "set_group"}, {"node", n.name}, {"group", 2}};
            if (channels.is_null() && legal(c))
                channels = c;
            if (group.is_null() && x[1] % 2 == 0 && w[0] % 2 == 0 && legal(gr))
                group = gr;
        }
    }
    return {channels, group};
}

void addModelCounters(benchmark::State& state, const bpu::Session& s, double targetMs) {
    state.counters["nodes"] = double(s.graph().nodes.size());
    if (targetMs > 0)
        state.counters["target_ms"] = targetMs;
    state.counters["rss_mb"] = peakRssMb();
}

double targetFor(const bpu::Session& s) {
    return s.graph().nodes.size() > 3000 ? 16.0 : 2.0;
}

/// One edit applied to the live session (timed), then reverted (not timed).
void BM_Incremental(benchmark::State& state, const std::string& path, const std::string& model,
                    const std::string& which) {
    bpu::Session& s = sessionFor(path);
    const auto [channels, group] = midConvEdits(s);
    const nlohmann::json edit = which == "set_channels" ? channels
                                : which == "set_group"  ? group
                                                        : nlohmann::json{{"op", "unfuse_all"}};
    if (edit.is_null()) {
        state.SkipWithError("no legal mid-graph conv for the edit");
        return;
    }
    auto e = bpu::editFromJson(edit);
    double revertMs = 0;
    for (auto _ : state) {
        const auto t0 = std::chrono::steady_clock::now();
        bpu::UndoToken token = e->apply(s);
        const auto t1 = std::chrono::steady_clock::now();
        token.revert(s);
        const auto t2 = std::chrono::steady_clock::now();
        state.SetIterationTime(std::chrono::duration<double>(t1 - t0).count());
        revertMs = std::chrono::duration<double, std::milli>(t2 - t1).count();
    }
    state.counters["revert_ms"] = revertMs;
    addModelCounters(state, s, targetFor(s));
    state.SetLabel(model + ": " + edit.dump());
}

/// The re-estimate alone, as an option edit does it (no shape change): the linear sweeps and the cost.
void BM_Sweeps(benchmark::State& state, const std::string& path) {
    bpu::Session& s = sessionFor(path);
    for (auto _ : state) {
        s.reestimate({});
        benchmark::DoNotOptimize(s.cost().totalUs);
    }
    addModelCounters(state, s, 0);
}

/// Where the re-estimate goes, as the session runs it (in place, the previous result's storage reused):
/// the dirty metrics and the per-run tables (`prepare`), each analysis pass (timed between the analyzer's
/// progress reports) and the cost model, as ms_<pass> counters.
void BM_Passes(benchmark::State& state, const std::string& path) {
    bpu::Session& s = sessionFor(path);
    const std::vector<bpu::NodeId> none;
    const auto ops = bpu::OpTable::build(s.graph(), s.target());
    bpu::AnalysisIndex index(s.graph(), *ops);
    bpu::AnalysisResult r = s.analysis();
    std::map<std::string, double> ms;
    using Clock = std::chrono::steady_clock;
    for (auto _ : state) {
        Clock::time_point last = Clock::now();
        std::string stage = "prepare";
        bpu::Progress progress;
        progress.report = [&](double, std::string_view next) {
            const auto now = Clock::now();
            ms[stage] += std::chrono::duration<double, std::milli>(now - last).count();
            stage = std::string(next);
            last = now;
        };
        index.refresh(s.graph(), none);
        bpu::Analyzer::reanalyze(s.graph(), s.target(), s.options(), index, none, r, progress);
        const auto t0 = Clock::now();
        bpu::CostEstimate e = bpu::CostModel::estimate(s.graph(), r, s.target(), s.options().deploy);
        ms["cost"] += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
        benchmark::DoNotOptimize(e.totalUs);
    }
    for (const auto& [k, v] : ms)
        if (k != "analysis done")
            state.counters["ms_" + (k == "quantize/dequantize" ? std::string("qdq") : k)] =
                v / double(state.iterations());
    addModelCounters(state, s, 0);
}

/// From scratch: metrics of every node, every pass, findings, cost (what a non-incremental engine would do).
void BM_Full(benchmark::State& state, const std::string& path) {
    bpu::Session& s = sessionFor(path);
    for (auto _ : state) {
        s.fullReestimate();
        benchmark::DoNotOptimize(s.cost().totalUs);
    }
    addModelCounters(state, s, 0);
}

/// Every finding's gain: each distinct fix applied to the session and reverted (two incremental
/// re-estimates).
void BM_FindingGains(benchmark::State& state, const std::string& file) {
    const bpu::Graph* g = bench::sample(file);
    if (!g) {
        state.SkipWithError("the sample did not import");
        return;
    }
    bpu::Session s(*g, s100());
    size_t fixes = 0;
    for (const auto& f : s.findings())
        fixes += !f.fix.empty();
    for (auto _ : state) {
        s.estimateFindingGains();
        benchmark::DoNotOptimize(s.analysis().findings.data());
    }
    state.counters["findings"] = double(s.analysis().findings.size());
    state.counters["with_fix"] = double(fixes);
}

[[maybe_unused]] const bool registered = [] {
    for (const std::string& file : bench::sampleFiles())
        benchmark::RegisterBenchmark(("analysis/" + bench::stem(file)).c_str(), BM_Analysis, file)
            ->Iterations(1)
            ->Repetitions(5)
            ->ReportAggregatesOnly(true)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    for (const std::string& file : bench::sampleFiles())
        benchmark::RegisterBenchmark(("gains/" + bench::stem(file)).c_str(), BM_FindingGains, file)
            ->Unit(benchmark::kMillisecond);
    // The models are resolved lazily (the samples import on first use), so names come from a fixed list.
    for (const char* label : {"sample1k", "synthetic1k", "synthetic10k"}) {
        const int index = std::string(label) == "sample1k" ? 0 : std::string(label) == "synthetic1k" ? 1 : 2;
        auto path = [index] {
            return reestimateModels()[size_t(index)].path;
        };
        auto model = [index] {
            return reestimateModels()[size_t(index)].label;
        };
        const std::string base = std::string("reestimate/") + label + "/";
        for (const char* edit : {"set_channels", "set_group", "unfuse_all"})
            benchmark::RegisterBenchmark(
                (base + edit).c_str(),
                [path, model, edit](benchmark::State& st) { BM_Incremental(st, path(), model(), edit); })
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((base + "sweeps").c_str(), [path](benchmark::State& st) {
            BM_Sweeps(st, path());
        })->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((base + "passes").c_str(), [path](benchmark::State& st) {
            BM_Passes(st, path());
        })->Unit(benchmark::kMillisecond);
        // What the drag editor computes on the GUI thread when a node is selected (editableDims: the
        // alignment of the dims, and the sizes an export fixed, read over the whole graph; issue 63), to
        // set beside `full` in the same run.
        benchmark::RegisterBenchmark((base + "editable_dims").c_str(), [path](benchmark::State& st) {
            const bpu::Session& s = sessionFor(path());
            for (auto _ : st)
                benchmark::DoNotOptimize(bpu::editableDims(s, bpu::NodeId{}).size());
        })->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark((base + "full").c_str(), [path](benchmark::State& st) {
            BM_Full(st, path());
        })->Unit(benchmark::kMillisecond);
    }
    return true;
}();

} // namespace
