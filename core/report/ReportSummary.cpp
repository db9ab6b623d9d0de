// SPDX-License-Identifier: MIT
// Section 1: the first page's summary (baseline vs edited first when edits were applied), and the model's and
// profile's particulars, which open the method section at the end.
#include "ReportFormat.h"
#include "ReportSections.h"
#include "core/analysis/AnalysisResult.h"
#include "core/cost/LatencyFigures.h"

#include <cstdio>
#include <filesystem>

namespace bpu::report::detail {

namespace {

/// Rows of the first page's top-findings table; section 2 ranks them all.
constexpr size_t kTopFindings = 5;

std::string opsetsText(const Graph& g) {
    std::string out;
    for (const auto& [domain, v] : g.opsets)
        out += (out.empty() ? "" : ", ") + (domain.empty() ? std::string("ai.onnx") : domain) + " " +
               std::to_string(v);
    return out.empty() ? "-" : out;
}

std::string ioText(const Graph& g, const std::vector<TensorId>& ids) {
    std::string out;
    for (TensorId id : ids) {
        const Tensor& t = g.tensor(id);
        out += (out.empty() ? "" : "; ") + t.name + " " + t.shape.toString() + " " +
               std::string(dataTypeName(t.dtype));
    }
    return out.empty() ? "-" : out;
}

/// "BPU 1277.7 us, runtime overhead 684.4 us": the parts of the board latency, the ones that are zero left
/// out (a model all on the BPU has no CPU, Q/DQ or switch time to speak of).
std::string timeParts(const CostEstimate& e) {
    const std::pair<const char*, double> parts[] = {{"BPU", e.bpuUs},
                                                    {"CPU operators", e.cpuUs},
                                                    {"Q/DQ passes", e.qdqUs},
                                                    {"CPU/BPU switches", e.transitionUs},
                                                    {"runtime overhead", e.runtimeUs}};
    std::string out;
    for (const auto& [name, us] : parts)
        if (us > 0)
            out += (out.empty() ? "" : ", ") + std::string(name) + " " + fmt::us(us) + " us";
    return out.empty() ? "-" : out;
}

std::string severityCounts(const std::vector<Finding>& findings) {
    int high = 0, medium = 0, low = 0;
    for (const auto& f : findings)
        (f.severity == Severity::High ? high : f.severity == Severity::Medium ? medium : low)++;
    return std::to_string(findings.size()) + " (" + std::to_string(high) + " high, " +
           std::to_string(medium) + " medium, " + std::to_string(low) + " low)";
}

/// One metric row of the baseline-vs-edited table.
struct Metric {
    std::string name;
    double before, after;
    std::string (*format)(double);
    bool relative; ///< change as a percentage rather than a difference
};

std::string asCount(double v) {
    return fmt::count(static_cast<int64_t>(v));
}
std::string asBytes(double v) {
    return fmt::bytes(static_cast<int64_t>(v));
}
std::string asPercent(double v) {
    return fmt::percent(v);
}

TableBlock compareTable(const Session& base, const Session& now) {
    const CostEstimate &b = base.cost(), &a = now.cost();
    const AnalysisSummary &sb = base.analysis().summary, &sa = now.analysis().summary;
    // Issue 63: at another batch one inference serves another number of images: its time is not compared
    // (+250% at batch 8 beside -12% per image read as a regression); the per-image row is the comparison.
    const bool batchChanged = b.batch != a.batch;
    const std::vector<Metric> metrics{
        {batchChanged ? "Board latency per inference, 1 thread (ms)" : "Board latency, 1 thread (ms)",
         b.latencyMs, a.latencyMs, fmt::ms, true},
        {"FPS, 1 thread", b.fps, a.fps, fmt::fps, true},
        {"FPS, 2 threads", b.fpsByThreads[1], a.fpsByThreads[1], fmt::fps, true},
        {batchChanged ? "BPU time per inference, static (ms)" : "BPU time, static (ms)", b.bpuMs, a.bpuMs,
         fmt::ms, true},
        {"Latency per image (ms)", b.perImageMs, a.perImageMs, fmt::ms, true},
        {"Batch", double(b.batch), double(a.batch), asCount, false},
        {"BPU nodes", double(sb.bpuNodes), double(sa.bpuNodes), asCount, false},
        {"CPU nodes", double(sb.cpuNodes), double(sa.cpuNodes), asCount, false},
        {"BPU segments", double(sb.bpuSegments), double(sa.bpuSegments), asCount, false},
        {"Q/DQ passes", double(sb.qdqPasses), double(sa.qdqPasses), asCount, false},
        {"Padding waste", sb.paddingWasteRatio, sa.paddingWasteRatio, asPercent, false},
        {"Padding waste bytes", double(sb.paddingWasteBytes), double(sa.paddingWasteBytes), asBytes, true},
        {"Fused groups", double(sb.fusedGroups), double(sa.fusedGroups), asCount, false},
        {"Missed fusions", double(sb.missedFusions), double(sa.missedFusions), asCount, false},
    };
    TableBlock tb;
    tb.caption = "Baseline (as imported) vs edited (after the what-if edits)";
    tb.table = makeTable({"Metric", "Baseline", "Edited", "Change"},
                         {Align::Left, Align::Right, Align::Right, Align::Right});
    tb.table.widths = {3, 1.5, 1.5, 1.5};
    for (const auto& m : metrics) {
        std::string change;
        if (batchChanged && m.name.find("per inference") != std::string::npos)
            change =
                "batch " + std::to_string(b.batch) + " -> " + std::to_string(a.batch) + ": see per image";
        else if (m.before == m.after)
            change = "=";
        else if (m.relative && m.before != 0)
            change = fmt::signedPercent((m.after - m.before) / m.before);
        else if (m.format == asPercent) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%+.1f pt", (m.after - m.before) * 100.0);
            change = buf;
        } else
            change = (m.after > m.before ? "+" : "") + m.format(m.after - m.before);
        tb.table.rows.push_back({m.name, m.format(m.before), m.format(m.after), change});
    }
    return tb;
}

} // namespace

Section summarySection(const Context& c) {
    Section sec;
    sec.id = "summary";
    sec.title = "Summary";
    const auto& s = c.r.summary;
    const CostEstimate& e = c.c;

    // The cards above give the three figures with the tool that measures each; the sentence adds what they
    // do not say: that it is an estimate for this target as deployed below, and the state before the edits.
    const LatencyFigures fig = latencyFigures(e);
    std::string headline = "Estimated on " + c.t.displayName +
                           " as deployed below: " + fmt::ms(fig.latencyMs) + " ms per inference";
    if (fig.batch > 1)
        headline += " of batch " + std::to_string(fig.batch);
    headline += " on the board with one thread.";
    if (c.in.baseline) {
        const CostEstimate& bc = c.in.baseline->cost();
        const LatencyFigures b = latencyFigures(bc);
        if (bc.batch != e.batch) // issue 63: per image, the one figure both batches share
            headline +=
                " Per image: " + fmt::ms(e.perImageMs) + " ms, before the " +
                fmt::plural(int64_t(c.in.edits.size()), "what-if edit") + " " + fmt::ms(bc.perImageMs) +
                " ms at batch " + std::to_string(bc.batch) + " (" +
                (bc.perImageMs > 0 ? fmt::signedPercent((e.perImageMs - bc.perImageMs) / bc.perImageMs)
                                   : std::string("-")) +
                "), " + fmt::fps(b.fps) + " -> " + fmt::fps(fig.fps) + " FPS.";
        else
            headline += " Before the " + fmt::plural(int64_t(c.in.edits.size()), "what-if edit") + ": " +
                        fmt::ms(b.latencyMs) + " ms, " + fmt::fps(b.fps) + " FPS.";
    }
    sec.blocks.push_back(Paragraph{headline});
    // With edits the comparison is what the reader came for: it leads, before the model's details.
    if (c.in.baseline)
        sec.blocks.push_back(compareTable(*c.in.baseline, c.s));

    KeyValues glance{"", {}};
    glance.items = {
        {"Deployment", describeDeploy(c.s.options().deploy, c.g)},
        // Issue 62: the findings and the plan rank by it.
        {"Objective", c.s.objective() == Objective::Throughput
                          ? std::string("throughput (images per second with two threads): findings and the "
                                        "plan rank by their FPS gain")
                          : std::string("latency (one frame): findings and the plan rank by the time one "
                                        "frame saves; a batch, which makes each frame wait, counts none")},
        {"Where the time goes", timeParts(e)},
        {"Placement", std::to_string(s.bpuNodes) + " BPU, " + std::to_string(s.cpuNodes) + " CPU, " +
                          std::to_string(s.foldedNodes) + " folded nodes in " +
                          fmt::plural(s.bpuSegments, "BPU segment")},
        {"Q/DQ", fmt::plural(s.qdqNodes, "explicit node") + "; " + std::to_string(s.qdqPasses) +
                     " costed passes over " + fmt::count(s.qdqElements) + " elements"},
        {"Padding waste", fmt::percent(s.paddingWasteRatio) + " of padded activation bytes (" +
                              fmt::bytes(s.paddingWasteBytes) + ")"},
        {"Fusion",
         fmt::plural(s.fusedGroups, "fused group") + ", " + fmt::plural(s.missedFusions, "missed fusion")},
        {"Findings", severityCounts(c.r.findings) +
                         (c.r.foldedFindings.empty()
                              ? std::string()
                              : " listed, " + std::to_string(c.r.foldedFindings.size()) + " more folded")}};
    if (s.unknownOps > 0)
        glance.items.push_back({"Ops not in the operator table", std::to_string(s.unknownOps)});
    sec.blocks.push_back(glance);

    for (Block& b : planBlocks(c))
        sec.blocks.push_back(std::move(b));

    if (!c.r.findings.empty()) {
        TableBlock top;
        top.caption = "Top findings (details in section 2)";
        top.table =
            makeTable({"#", "Rule", "Finding", "Severity", "Gain (us)", "Nodes"},
                      {Align::Right, Align::Left, Align::Left, Align::Left, Align::Right, Align::Right});
        top.table.widths = {0.4, 0.7, 6, 1, 1, 0.8};
        for (size_t i = 0; i < c.r.findings.size() && i < kTopFindings; ++i) {
            const Finding& f = c.r.findings[i];
            top.table.rows.push_back({std::to_string(i + 1), ruleName(f.rule), fmt::prose(f.title),
                                      severityName(f.severity), findingGainUs(f),
                                      std::to_string(f.nodes.size())});
        }
        sec.blocks.push_back(top);
    }

    return sec;
}

std::vector<Block> modelAndTargetBlocks(const Context& c) {
    std::vector<Block> out;
    out.push_back(Heading{2, "Model and target profile"});
    KeyValues model{"Model", {}};
    model.items = {
        {"File", std::filesystem::path(c.g.path).filename().string()},
        {"Path", c.g.path},
        {"Producer", c.g.producerName + (c.g.producerVersion.empty() ? "" : " " + c.g.producerVersion)},
        {"IR version / opsets", std::to_string(c.g.irVersion) + " / " + opsetsText(c.g)},
        {"Inputs", ioText(c.g, c.g.inputs)},
        {"Outputs", ioText(c.g, c.g.outputs)},
        {"Nodes", fmt::count(int64_t(c.g.nodes.size()))},
        {"Parameters", fmt::count(c.r.totals.params) + " (" + fmt::si(double(c.r.totals.params)) + ")"},
        {"MACs", fmt::count(c.r.totals.macs) + " (" + fmt::si(double(c.r.totals.macs)) + "MAC)"},
        {"Weight bytes", fmt::bytes(c.r.totals.weightBytes)}};
    out.push_back(model);

    KeyValues target{"Target profile", {}};
    target.items = {{"Profile", c.t.displayName + " [" + c.t.name + "]"},
                    {"Profile version", c.t.version},
                    {"march", c.t.march},
                    {"Profile file", c.t.sourcePath},
                    {"Ridge intensity", fmt::number(c.t.ridgeIntensity()) + " MACs per DDR byte"}};
    out.push_back(target);
    out.push_back(
        Note{"Every number in this report is an estimate from the target profile's parameters; the tables "
             "below list them with their sources and how the model compares with published measurements."});
    return out;
}

} // namespace bpu::report::detail
