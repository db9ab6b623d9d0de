// SPDX-License-Identifier: MIT
// Section 1: cover and summary, with baseline vs edited side by side when edits were applied.
#include "ReportFormat.h"
#include "ReportSections.h"

#include <cstdio>
#include <filesystem>

namespace bpu::report::detail {

namespace {

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
    const std::vector<Metric> metrics{
        {"Board latency, 1 thread (ms)", b.latencyMs, a.latencyMs, fmt::ms, true},
        {"FPS, 1 thread", b.fps, a.fps, fmt::fps, true},
        {"FPS, 2 threads", b.fpsByThreads[1], a.fpsByThreads[1], fmt::fps, true},
        {"BPU time, static (ms)", b.bpuMs, a.bpuMs, fmt::ms, true},
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
        if (m.before == m.after)
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

    std::string headline = "On " + c.t.displayName + ": board latency (1 thread, as hrt_model_exec perf " +
                           "measures it) " + fmt::ms(e.latencyMs) + " ms per inference";
    if (e.batch > 1)
        headline += " of batch " + std::to_string(e.batch);
    headline += " = " + fmt::fps(e.fps) + " FPS; " + fmt::fps(e.fpsByThreads[1]) +
                " FPS with 2 threads; BPU " + "time alone (static, as hbm_perf reports it) " +
                fmt::ms(e.bpuMs) + " ms. Deployment: " + describeDeploy(c.s.options().deploy, c.g) + ".";
    if (c.in.baseline)
        headline += " Before the " + std::to_string(c.in.edits.size()) +
                    " what-if edit(s): " + fmt::ms(c.in.baseline->cost().latencyMs) + " ms board, " +
                    fmt::fps(c.in.baseline->cost().fps) + " FPS.";
    if (!c.r.findings.empty() && c.r.findings.front().estimatedGainMs)
        headline += " The largest estimated gain is " + std::string(ruleName(c.r.findings.front().rule)) +
                    ": " + c.r.findings.front().title + " (" +
                    fmt::gainMs(*c.r.findings.front().estimatedGainMs) + " ms per image).";
    sec.blocks.push_back(Paragraph{headline});
    // With edits the comparison is what the reader came for: it leads, before the model's details.
    if (c.in.baseline)
        sec.blocks.push_back(compareTable(*c.in.baseline, c.s));

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
    sec.blocks.push_back(model);

    KeyValues target{"Target profile", {}};
    target.items = {{"Profile", c.t.displayName + " [" + c.t.name + "]"},
                    {"Profile version", c.t.version},
                    {"march", c.t.march},
                    {"Profile file", c.t.sourcePath},
                    {"Ridge intensity", fmt::number(c.t.ridgeIntensity()) + " MACs per DDR byte"}};
    sec.blocks.push_back(target);

    KeyValues est{"Estimate", {}};
    est.items = {{"Board, 1 thread", fmt::ms(e.latencyMs) + " ms per inference (batch " +
                                         std::to_string(e.batch) + ") = " + fmt::fps(e.fps) +
                                         " FPS - comparable with hrt_model_exec perf --thread_num 1"},
                 {"2 threads", fmt::fps(e.fpsByThreads[1]) + " FPS - hrt_model_exec perf --thread_num 2"},
                 {"BPU (static)", fmt::ms(e.bpuMs) + " ms - the BPU's time alone, comparable with hbm_perf"},
                 {"Deployment", describeDeploy(c.s.options().deploy, c.g)},
                 {"Latency per image", fmt::ms(e.perImageMs) + " ms"},
                 {"Where the time goes", "BPU " + fmt::us(e.bpuUs) + " us, CPU operators " +
                                             fmt::us(e.cpuUs) + " us, Q/DQ passes " + fmt::us(e.qdqUs) +
                                             " us, CPU<->BPU transitions " + fmt::us(e.transitionUs) +
                                             " us, runtime overhead " + fmt::us(e.runtimeUs) + " us"}};
    sec.blocks.push_back(est);

    KeyValues shape{"Placement, Q/DQ, padding, fusion", {}};
    shape.items = {{"Nodes by placement", std::to_string(s.bpuNodes) + " BPU, " + std::to_string(s.cpuNodes) +
                                              " CPU, " + std::to_string(s.foldedNodes) + " folded"},
                   {"BPU segments", std::to_string(s.bpuSegments)},
                   {"Q/DQ", std::to_string(s.qdqNodes) + " explicit nodes; " + std::to_string(s.qdqPasses) +
                                " costed passes over " + fmt::count(s.qdqElements) + " elements"},
                   {"Padding waste", fmt::percent(s.paddingWasteRatio) + " of padded activation bytes (" +
                                         fmt::bytes(s.paddingWasteBytes) + ")"},
                   {"Fusion", std::to_string(s.fusedGroups) + " fused groups, " +
                                  std::to_string(s.missedFusions) + " missed fusions"},
                   {"Findings", severityCounts(c.r.findings)}};
    if (s.unknownOps > 0)
        shape.items.push_back({"Ops not in the operator table", std::to_string(s.unknownOps)});
    sec.blocks.push_back(shape);

    if (!c.r.findings.empty()) {
        TableBlock top;
        top.caption = "Top findings (details in section 2)";
        top.table = makeTable({"#", "Rule", "Finding", "Gain (ms)"},
                              {Align::Right, Align::Left, Align::Left, Align::Right});
        top.table.widths = {0.4, 0.7, 6, 1.1};
        for (size_t i = 0; i < c.r.findings.size() && i < 5; ++i) {
            const Finding& f = c.r.findings[i];
            top.table.rows.push_back({std::to_string(i + 1), ruleName(f.rule), f.title,
                                      f.estimatedGainMs ? fmt::gainMs(*f.estimatedGainMs) : "-"});
        }
        sec.blocks.push_back(top);
    }

    std::vector<std::string> warnings = c.g.warnings;
    warnings.insert(warnings.end(), c.r.warnings.begin(), c.r.warnings.end());
    for (size_t i = 0; i < warnings.size() && i < 8; ++i)
        sec.blocks.push_back(Note{"Warning: " + warnings[i]});
    if (warnings.size() > 8)
        sec.blocks.push_back(
            Note{std::to_string(warnings.size() - 8) + " more warnings in `analyze --json`."});
    sec.blocks.push_back(
        Note{"Every number is an estimate from the target profile's parameters; section 7 lists "
             "them with their sources and how the model compares with published measurements."});
    return sec;
}

} // namespace bpu::report::detail
