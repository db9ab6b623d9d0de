// SPDX-License-Identifier: MIT
// The first page's headline cards: the three latency figures, each named after the vendor tool that
// measures it, then placement and padding. Every renderer shows the same cards (PDF tiles, HTML cards,
// a Markdown table).
#include "ReportFormat.h"
#include "ReportSections.h"
#include "core/analysis/AnalysisResult.h"
#include "core/cost/LatencyFigures.h"

namespace bpu::report::detail {

std::vector<KpiCard> kpiCards(const Context& c) {
    const LatencyFigures f = latencyFigures(c.c);
    const std::string per =
        f.batch > 1 ? " per inference of batch " + std::to_string(f.batch) : std::string();
    std::string boardDetail = fmt::fps(f.fps) + " FPS; as hrt_model_exec perf" + per;
    if (c.in.baseline) {
        const CostEstimate& b = c.in.baseline->cost();
        // Issue 63: at another batch the per-inference figures are not comparable: per image.
        boardDetail = b.batch != c.c.batch
                          ? fmt::fps(f.fps) + " FPS; " + fmt::ms(c.c.perImageMs) + " ms per image, " +
                                fmt::ms(b.perImageMs) + " ms before the edits (batch " +
                                std::to_string(b.batch) + ")"
                          : fmt::fps(f.fps) + " FPS; " + fmt::ms(b.latencyMs) + " ms before the edits";
    }
    std::vector<KpiCard> cards{
        {"Board, 1 thread", fmt::ms(f.latencyMs) + " ms", boardDetail},
        {"2 threads", fmt::fps(f.fps2.value_or(0)) + " FPS", "one BPU core shared by two threads"},
        {"BPU (static)", fmt::ms(f.bpuMs) + " ms", "BPU alone, as hbm_perf" + per},
    };
    const AnalysisSummary& s = c.r.summary;
    cards.push_back({"Nodes on BPU / CPU", std::to_string(s.bpuNodes) + " / " + std::to_string(s.cpuNodes),
                     fmt::plural(s.bpuSegments, "BPU segment")});
    cards.push_back({"Padding waste", fmt::percent(s.paddingWasteRatio), "of padded activation bytes"});
    return cards;
}

} // namespace bpu::report::detail
