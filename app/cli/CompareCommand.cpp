// SPDX-License-Identifier: MIT
// `bpuscope-cli compare A B`: two exports of one network, node by node (core/compare).
#include "Commands.h"
#include "DocumentOutput.h"
#include "ModelSetup.h"
#include "ResultNotice.h"
#include "core/analysis/ResultDiagnostics.h"
#include "core/util/PrintableText.h"

#include "core/compare/CompareOutput.h"
#include "core/deploy/DeployImport.h"
#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"
#include "core/report/ReportFormat.h"
#include "core/target/TargetProfile.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <future>
#include <iostream>
#include <sstream>

namespace bpu::cli {

namespace {

std::string sideLine(const char* label, const CompareSide& s) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%s: %.3f ms = %.1f FPS (BPU alone %.3f ms), %d nodes, %d CPU, %d segment(s)", label,
                  s.figures.latencyMs, s.figures.fps, s.figures.bpuMs, s.nodes, s.cpuNodes, s.bpuSegments);
    return std::string(buf) + "  " + s.path + "\n";
}

std::string summaryText(const Comparison& c) {
    std::ostringstream os;
    char buf[320];
    // Before any figure: a side resting on guessed shapes makes every delta a guess too.
    if (const std::string partial = comparisonPartial(c); !partial.empty())
        os << "PARTIAL: " << printable(partial) << "\n";
    os << "target: " << c.a.target << "\n" << sideLine("A", c.a) << sideLine("B", c.b);
    const double rel = c.a.figures.latencyMs > 0 ? c.latencyMsDelta() / c.a.figures.latencyMs * 100 : 0;
    std::snprintf(
        buf, sizeof buf,
        "delta (B - A): latency %+.3f ms (%+.1f%%), BPU %+.3f ms, FPS %+.1f, CPU nodes %+d, segments %+d, "
        "padding waste %+.1f pt, findings +%zu/-%zu\n",
        c.latencyMsDelta(), rel, c.bpuMsDelta(), c.fpsDelta(), c.b.cpuNodes - c.a.cpuNodes,
        c.b.bpuSegments - c.a.bpuSegments, (c.b.paddingWasteRatio - c.a.paddingWasteRatio) * 100,
        c.findingsAdded.size(), c.findingsRemoved.size());
    os << buf;
    std::snprintf(
        buf, sizeof buf,
        "nodes: %zu matched (%d by name, %d by structure), %zu only in A, %zu only in B; %d changed "
        "placement, %d shape, %d padding\n",
        c.nodes.size(), c.matchedByName, c.matchedByStructure, c.unmatchedA.size(), c.unmatchedB.size(),
        c.placementChanges, c.shapeChanges, c.paddingChanges);
    os << buf;
    std::vector<const NodeDelta*> order;
    for (const NodeDelta& d : c.nodes)
        if (d.latencyDeltaUs() != 0)
            order.push_back(&d);
    std::stable_sort(order.begin(), order.end(), [](const NodeDelta* l, const NodeDelta* r) {
        return std::fabs(l->latencyDeltaUs()) > std::fabs(r->latencyDeltaUs());
    });
    if (!order.empty())
        os << "largest node deltas:\n";
    for (size_t i = 0; i < order.size() && i < 10; ++i) {
        const NodeDelta& d = *order[i];
        std::snprintf(buf, sizeof buf, "  %+9.1f us  %s (%s)%s%s: %.1f -> %.1f us\n", d.latencyDeltaUs(),
                      d.inA.name.c_str(), d.op.c_str(), d.inA.name == d.inB.name ? "" : " = ",
                      d.inA.name == d.inB.name ? "" : d.inB.name.c_str(), d.inA.latencyUs, d.inB.latencyUs);
        os << buf;
    }
    auto list = [&os](const char* label, const std::vector<UnmatchedNode>& nodes) {
        if (nodes.empty())
            return;
        os << label << " (" << nodes.size() << "):";
        for (size_t i = 0; i < nodes.size() && i < 8; ++i)
            os << (i ? ", " : " ") << nodes[i].facts.name << " (" << nodes[i].op << ")";
        if (nodes.size() > 8)
            os << ", ...";
        os << "\n";
    };
    list("only in A", c.unmatchedA);
    list("only in B", c.unmatchedB);
    for (const FindingChange& f : c.findingsAdded)
        os << "finding added:   [" << f.rule << "] " << f.severity << ": " << f.title << "\n";
    for (const FindingChange& f : c.findingsRemoved)
        os << "finding removed: [" << f.rule << "] " << f.severity << ": " << f.title << "\n";
    return os.str();
}

} // namespace

int runCompare(const CliArgs& args, int argc, char** argv) {
    if (args.positional.size() != 2)
        throw UsageError("compare takes two models: compare A.onnx B.onnx");
    std::string format, output;
    if (args.get("format") || args.get("output")) {
        output = args.get("output").value_or("-");
        format = documentFormat(args, output, {"md", "html", "pdf", "json", "csv"});
    }
    for (const std::string& file : {args.get("json").value_or(""), args.get("csv").value_or(""), output})
        if (!file.empty())
            checkWritable(file);
    // Issue 63: one target and one deployment for both sides (a config's input shapes, types and removed
    // boundary ops applied to each), so a delta is the models' and never the deployments'.
    const ModelSetup setup = loadModelSetup(args);
    const ImportOptions options = importOptions(args, setup);
    AnalysisOptions analysis;
    analysis.deploy = setup.deploy;
    auto load = [&options, &setup, &analysis](const std::string& path) {
        Graph g = ModelImporter::load(path, options);
        checkDeployNames(setup.deploy, g);
        return Session(std::move(g), setup.target, analysis);
    };
    auto futureB = std::async(std::launch::async, load, args.positional[1]);
    Session a = load(args.positional[0]);
    Session b = futureB.get();
    const Comparison c = compareSessions(a, b);
    // Each side's diagnostics, once, naming its file; a partial side says so on stderr too (issue 42).
    for (const Session* s : {&a, &b}) {
        printDiagnostics(resultDiagnostics(s->graph(), &s->analysis(), &s->options().deploy));
        if (const Completeness complete = completeness(s->graph()); !complete.complete())
            std::cerr << "bpuscope: warning: "
                      << printable(s->graph().path + ": PARTIAL: " + complete.summary()) << "\n";
    }

    bool toStdout = !output.empty() && writesToStdout(output);
    if (auto file = args.get("json")) {
        writeOutput(*file, comparisonJson(c).dump(2) + "\n");
        toStdout |= writesToStdout(*file);
    }
    if (auto file = args.get("csv")) {
        writeOutput(*file, comparisonCsv(c));
        toStdout |= writesToStdout(*file);
    }
    if (!format.empty()) {
        if (format == "json")
            writeOutput(output, comparisonJson(c).dump(2) + "\n");
        else if (format == "csv")
            writeOutput(output, comparisonCsv(c));
        else
            writeDocument(comparisonReport(c), format, output, argc, argv);
    }
    if (!toStdout) {
        std::cout << summaryText(c);
        if (!output.empty())
            std::cout << "wrote " << output << " (" << format << ")\n";
    }
    return kOk;
}

} // namespace bpu::cli
