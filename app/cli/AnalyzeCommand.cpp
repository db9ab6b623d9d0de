// SPDX-License-Identifier: MIT
#include "Commands.h"

#include "core/analysis/Analyzer.h"
#include "core/cost/CostModel.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/io/AnalysisJson.h"
#include "core/model/ModelImporter.h"
#include "core/target/TargetProfile.h"

#include <cstdio>
#include <iostream>
#include <sstream>

namespace bpu::cli {

namespace {

std::string summaryText(const Graph& g, const TargetProfile& t, const AnalysisResult& r, const CostEstimate& e) {
    const auto& s = r.summary;
    std::ostringstream os;
    char buf[256];
    os << "model:   " << g.path << " (" << g.nodes.size() << " nodes)\n";
    os << "target:  " << t.displayName << " [" << t.name << " " << t.version << "]\n";
    std::snprintf(buf, sizeof buf,
                  "nodes:   %d BPU, %d CPU, %d folded; %d BPU segment(s)\n"
                  "Q/DQ:    %d explicit nodes, %d costed passes over %lld elements\n"
                  "padding: %.1f%% of padded activation bytes wasted (%lld bytes)\n"
                  "fusion:  %d fused groups, %d missed\n",
                  s.bpuNodes, s.cpuNodes, s.foldedNodes, s.bpuSegments, s.qdqNodes, s.qdqPasses,
                  static_cast<long long>(s.qdqElements), s.paddingWasteRatio * 100,
                  static_cast<long long>(s.paddingWasteBytes), s.fusedGroups, s.missedFusions);
    os << buf;
    std::snprintf(buf, sizeof buf,
                  "latency: %.3f ms per inference (batch %d) = %.1f FPS  [BPU %.0f us, CPU %.0f us, Q/DQ %.0f us, "
                  "switches %.0f us, fixed %.0f us]\n",
                  e.latencyMs, e.batch, e.fps, e.bpuUs, e.cpuUs, e.qdqUs, e.switchUs, e.fixedUs);
    os << buf;
    os << "findings (" << r.findings.size() << "):\n";
    size_t shown = 0;
    for (const auto& f : r.findings) {
        if (shown++ >= 10)
            break;
        os << "  [" << f.rule << "] " << f.severity << ": " << f.title;
        if (f.estimatedGainMs) {
            std::snprintf(buf, sizeof buf, "  (gain %.3f ms)", *f.estimatedGainMs);
            os << buf;
        }
        os << "\n";
    }
    return os.str();
}

} // namespace

int runAnalyze(const CliArgs& args) {
    if (args.positional.size() != 1)
        throw UsageError("analyze takes exactly one MODEL");
    auto target = std::make_shared<const TargetProfile>(loadTargetProfile(args.get("target").value_or("s100")));
    EditList edits;
    if (auto file = args.get("edits"))
        edits = loadEditFile(*file);
    Session session(ModelImporter::load(args.positional[0], args.importOptions()), target);
    const CostEstimate baseline = session.cost();
    try {
        applyEditList(session, edits); // all or nothing, one re-estimate
    } catch (const EditError& e) {
        throw std::runtime_error(*args.get("edits") + ": " + e.what());
    }
    session.estimateFindingGains();
    const nlohmann::json doc = sessionJson(session, baseline, edits);
    if (auto json = args.get("json"))
        writeOutput(*json, doc.dump(2) + "\n");
    if (auto csv = args.get("csv"))
        writeOutput(*csv, analysisCsv(session.graph(), session.analysis(), &session.cost()));
    if (args.get("json").value_or("") != "-" && args.get("csv").value_or("") != "-") {
        std::cout << summaryText(session.graph(), *target, session.analysis(), session.cost());
        if (!edits.empty())
            std::printf("baseline: %.3f ms = %.1f FPS before %zu edit(s)\n", baseline.latencyMs, baseline.fps,
                        edits.size());
    }
    return kOk;
}

} // namespace bpu::cli
