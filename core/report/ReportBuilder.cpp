// SPDX-License-Identifier: MIT
#include "ReportBuilder.h"

#include "ReportFormat.h"
#include "ReportSections.h"
#include "core/analysis/AnalysisResult.h"
#include "core/analysis/DrawnGroups.h"
#include "core/analysis/ResultDiagnostics.h"
#include "core/edit/EditList.h"
#include "core/model/Completeness.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <deque>
#include <filesystem>
#include <stdexcept>

namespace bpu::report {

namespace detail {

Table makeTable(std::vector<std::string> headers, std::vector<Align> align) {
    Table t;
    t.headers = std::move(headers);
    t.align = std::move(align);
    return t;
}

} // namespace detail

namespace {

using detail::Context;

std::string nowText() {
    std::time_t now = std::time(nullptr);
    // Reproducible builds convention: a fixed date when SOURCE_DATE_EPOCH is set.
    if (const char* epoch = std::getenv("SOURCE_DATE_EPOCH"); epoch && *epoch)
        now = static_cast<std::time_t>(std::strtoll(epoch, nullptr, 10));
    std::tm tm{};
    localtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm);
    return buf;
}

int placementIndex(Placement p) {
    return p == Placement::BPU ? 0 : p == Placement::CPU ? 1 : 2;
}

/// Nodes within `radius` hops (either direction) of `focus`, nearest first, at most `cap`. Nodes `skip` marks
/// are neither shown nor walked through: folded shape arithmetic (Shape, Gather on shapes) hangs off nodes
/// all over a detection model, and one hop into it stretches the zoom over the whole graph.
std::vector<NodeId> neighbourhood(const Graph& g, NodeId focus, int radius, size_t cap,
                                  const std::vector<bool>& skip) {
    std::vector<NodeId> out;
    if (!focus.valid())
        return out;
    std::vector<int> dist(g.nodes.size(), -1);
    std::deque<NodeId> queue{focus};
    dist[focus.value] = 0;
    while (!queue.empty() && out.size() < cap) {
        NodeId id = queue.front();
        queue.pop_front();
        out.push_back(id);
        if (dist[id.value] == radius)
            continue;
        auto visit = [&](NodeId n) {
            if (n.valid() && dist[n.value] < 0 && !skip[n.value]) {
                dist[n.value] = dist[id.value] + 1;
                queue.push_back(n);
            }
        };
        const Node& n = g.node(id);
        for (TensorId t : n.inputs)
            if (t.valid())
                visit(g.tensor(t).producer);
        for (TensorId t : n.outputs)
            if (t.valid())
                for (NodeId consumer : g.tensor(t).consumers)
                    visit(consumer);
    }
    return out;
}

/// Nodes that compute only constants: every input an initializer or the output of another such node
/// (Constant, Shape arithmetic on constants). `keep` is never counted as one.
std::vector<bool> constantNodes(const Graph& g, NodeId keep) {
    std::vector<bool> constant(g.nodes.size(), false);
    for (NodeId id : g.topoOrder) {
        bool only = id != keep;
        for (TensorId t : g.node(id).inputs) {
            if (!only)
                break;
            if (!t.valid())
                continue;
            const Tensor& tensor = g.tensor(t);
            only = tensor.isInitializer || (tensor.producer.valid() && constant[tensor.producer.value]);
        }
        constant[id.value] = only;
    }
    return constant;
}

/// A copy of `g` without the `drop` nodes; their outputs become initializers, as the compiler sees them.
/// For drawing only: names are not indexed, so findNode/findTensor do not work on the copy.
/// `source` receives the original NodeId of each kept node.
std::shared_ptr<const Graph> withoutNodes(const Graph& g, const std::vector<bool>& drop,
                                          std::vector<NodeId>& source) {
    auto out = std::make_shared<Graph>();
    out->path = g.path;
    out->irVersion = g.irVersion;
    out->producerName = g.producerName;
    out->producerVersion = g.producerVersion;
    out->opsets = g.opsets;
    out->tensors = g.tensors; // same TensorIds; link() below redoes producers and consumers
    out->inputs = g.inputs;
    out->outputs = g.outputs;
    for (const Node& n : g.nodes) {
        if (drop[n.id.value]) {
            for (TensorId t : n.outputs)
                if (t.valid())
                    out->tensor(t).isInitializer = true;
            continue;
        }
        Node copy = n;
        copy.id = NodeId(static_cast<uint32_t>(out->nodes.size()));
        out->nodes.push_back(std::move(copy));
        source.push_back(n.id);
    }
    out->link();
    return out;
}

GraphOverview makeOverview(const Context& c) {
    GraphOverview o;
    NodeId top;
    double best = -1;
    for (const Node& node : c.g.nodes)
        if (c.c.nodes[node.id.value].latencyUs > best) {
            best = c.c.nodes[node.id.value].latencyUs;
            top = node.id;
        }
    std::vector<bool> drop = constantNodes(c.g, top);
    const auto omitted = std::count(drop.begin(), drop.end(), true);
    if (size_t(omitted) == c.g.nodes.size())
        drop.assign(drop.size(), false); // nothing but constants: draw them after all
    o.graph = withoutNodes(c.g, drop, o.sourceNode);
    o.omittedConstants = static_cast<int>(c.g.nodes.size() - o.graph->nodes.size());
    const size_t n = o.graph->nodes.size();
    o.placement.resize(n);
    o.wasteRatio.resize(n);
    o.latencyShare.resize(n);
    o.groupOf.assign(n, -1);
    const std::vector<int> drawn = drawnGroupOf(c.g, c.r);
    for (size_t i = 0; i < n; ++i) {
        const NodeId id = o.sourceNode[i];
        const NodeAnalysis& a = c.r.nodes[id.value];
        o.placement[i] = placementIndex(a.placement);
        o.wasteRatio[i] = nodeWasteRatio(c.g, c.r, id);
        o.latencyShare[i] = c.c.nodes[id.value].share;
        o.groupOf[i] = drawn[id.value];
        if (id == top)
            o.focus = NodeId(static_cast<uint32_t>(i));
    }
    std::vector<bool> folded(n);
    for (size_t i = 0; i < n; ++i)
        folded[i] = o.placement[i] == placementIndex(Placement::Folded);
    o.focusNodes = neighbourhood(*o.graph, o.focus, o.focusRadius, 40, folded);
    std::vector<bool> outside(n, true);
    for (NodeId id : o.focusNodes)
        outside[id.value] = false;
    if (!o.focusNodes.empty())
        o.focusGraph = withoutNodes(*o.graph, outside, o.focusSource);
    return o;
}

nlohmann::json factsOf(const Context& c) {
    const Finding* top = c.r.findings.empty() ? nullptr : &c.r.findings.front();
    nlohmann::json facts = {
        {"model", std::filesystem::path(c.g.path).stem().string()},
        {"file", c.g.path},
        {"target", {{"name", c.t.name}, {"version", c.t.version}, {"display_name", c.t.displayName}}},
        {"batch", c.c.batch},
        {"bpu_ms", c.c.bpuMs},
        {"latency_ms", c.c.latencyMs},
        {"fps_by_threads", {{"1", c.c.fpsByThreads[0]}, {"2", c.c.fpsByThreads[1]}}},
        {"per_image_ms", c.c.perImageMs},
        {"fps", c.c.fps},
        {"fps_text", fmt::fps(c.c.fps)},
        {"findings", c.r.findings.size()},
        {"top_finding", top ? nlohmann::json{{"rule", ruleName(top->rule)},
                                             {"title", top->title},
                                             {"estimated_gain_ms", top->estimatedGainMs
                                                                       ? nlohmann::json(*top->estimatedGainMs)
                                                                       : nlohmann::json(nullptr)}}
                            : nlohmann::json(nullptr)},
        {"summary",
         {{"bpu_nodes", c.r.summary.bpuNodes},
          {"cpu_nodes", c.r.summary.cpuNodes},
          {"folded_nodes", c.r.summary.foldedNodes},
          {"bpu_segments", c.r.summary.bpuSegments},
          {"qdq_passes", c.r.summary.qdqPasses},
          {"padding_waste_ratio", c.r.summary.paddingWasteRatio},
          {"fused_groups", c.r.summary.fusedGroups},
          {"missed_fusions", c.r.summary.missedFusions}}},
        {"edits", editListToJson(c.in.edits)["edits"]},
        {"baseline", nullptr}};
    if (c.in.baseline) {
        const CostEstimate& b = c.in.baseline->cost();
        facts["baseline"] = {{"bpu_ms", b.bpuMs},
                             {"latency_ms", b.latencyMs},
                             {"fps_by_threads", {{"1", b.fpsByThreads[0]}, {"2", b.fpsByThreads[1]}}},
                             {"per_image_ms", b.perImageMs},
                             {"fps", b.fps},
                             {"fps_text", fmt::fps(b.fps)},
                             {"batch", b.batch}};
    }
    return facts;
}

} // namespace

ReportDocument buildReport(const ReportInput& input, const Progress& progress) {
    if (!input.session)
        throw std::invalid_argument("buildReport: no session");
    GuideRules rules = input.rules.all().empty() ? loadGuideRules() : input.rules;
    const Session& s = *input.session;
    // The plan re-estimates the model once per step (plan_max_steps), so it is built once here with the
    // report's cancel flag, its progress folded into the first tenth of the bar.
    Progress planProgress{[&progress](double f, std::string_view stage) { progress(0.1 * f, stage); },
                          progress.cancel};
    const OptimizationPlan plan = buildOptimizationPlanOnCopy(s, SIZE_MAX, planProgress);
    Context c{input, s, s.graph(), s.analysis(), s.cost(), s.target(), rules, plan};

    ReportDocument doc;
    doc.modelFile = c.g.path;
    doc.modelName = std::filesystem::path(c.g.path).stem().string();
    if (doc.modelName.empty())
        doc.modelName = "model";
    doc.title = "BpuScope optimization report: " + doc.modelName;
    doc.targetName = c.t.displayName + " (" + c.t.name + " " + c.t.version + ")";
    doc.generatedAt = input.generatedAt.empty() ? nowText() : input.generatedAt;
    doc.generator = std::string("BpuScope ") + BPUSCOPE_VERSION;
    doc.facts = factsOf(c);
    doc.kpis = detail::kpiCards(c);
    doc.partial = completeness(c.g).summary();
    doc.diagnostics = resultDiagnostics(c.g, &c.r, &s.options().deploy);

    progress(0.1, "summary");
    doc.sections.push_back(detail::summarySection(c));
    progress.checkCancel();
    progress(0.15, "findings");
    doc.sections.push_back(detail::findingsSection(c));
    doc.sections.push_back(detail::hotspotsSection(c));
    doc.sections.push_back(detail::layersSection(c));
    progress.checkCancel();
    progress(0.2, "charts");
    doc.sections.push_back(detail::chartsSection(c));
    progress(0.25, "graph overview");
    doc.overview = makeOverview(c);
    doc.sections.push_back(detail::graphSection(c, doc.overview));
    doc.sections.push_back(detail::whatIfSection(c));
    progress.checkCancel();
    doc.sections.push_back(detail::methodSection(c, progress));
    for (size_t i = 0; i < doc.sections.size(); ++i)
        doc.sections[i].number = static_cast<int>(i + 1);
    progress(1.0, "report built");
    return doc;
}

} // namespace bpu::report
