// SPDX-License-Identifier: MIT
// `bpuscope-cli sweep`: a model zoo in one table (core/sweep), for CI. One process sweeps one machine's
// share; across machines, run one process per model (README: GNU parallel, a CI matrix).
#include "Commands.h"
#include "DocumentOutput.h"

#include "core/sweep/Sweep.h"
#include "core/util/PrintableText.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <ctime>
#include <iostream>

namespace bpu::cli {

namespace {

std::string nowText() {
    std::time_t now = std::time(nullptr);
    std::tm tm{};
    localtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", &tm);
    return buf;
}

unsigned jobsOf(const CliArgs& args) {
    const auto text = args.get("jobs");
    if (!text)
        return 0;
    unsigned v = 0;
    auto [p, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
    if (ec != std::errc{} || p != text->data() + text->size() || v == 0 || v > 256)
        throw UsageError("--jobs expects a number of parallel analyses from 1 to 256, got '" + *text + "'");
    return v;
}

} // namespace

int runSweep(const CliArgs& args) {
    if (args.positional.empty())
        throw UsageError("sweep needs a folder or model files: sweep DIR|FILES... [--target T]...");
    const unsigned jobs = jobsOf(args);
    for (const char* key : {"csv", "html"})
        if (auto file = args.get(key))
            checkWritable(*file);
    std::vector<std::string> targetNames = args.all("target");
    if (targetNames.empty())
        targetNames.push_back("s100");
    // A profile that does not load stops the sweep before any work: it would fail every row.
    std::vector<std::shared_ptr<const TargetProfile>> targets;
    for (const std::string& t : targetNames)
        targets.push_back(std::make_shared<const TargetProfile>(loadTargetProfile(t)));
    const std::vector<std::string> models = sweepModels(args.positional);
    // The models a folder gave are inputs as much as the ones named: no output may replace one.
    args.refuseOutputsOver(models, "a model this sweep reads");
    if (models.empty())
        throw std::runtime_error(args.positional.front() + ": no .onnx files found");

    std::vector<SweepJob> work;
    for (const std::string& m : models)
        for (const auto& t : targets)
            work.push_back({m, t});
    const ImportOptions options = args.importOptions();
    std::fprintf(stderr, "sweep: %zu model(s) x %zu target(s) = %zu rows\n", models.size(), targets.size(),
                 work.size());
    const std::vector<SweepRow> rows =
        runSweep(work, options, jobs, [total = work.size()](const SweepRow& r, size_t done) {
            if (r.ok)
                std::fprintf(stderr, "[%zu/%zu] %s @ %s: %.3f ms, %.1f FPS (%.1f s)%s\n", done, total,
                             r.model.c_str(), r.target.c_str(), r.figures.latencyMs, r.figures.fps, r.seconds,
                             r.complete ? "" : (" - PARTIAL: " + r.partial).c_str());
            else
                std::fprintf(stderr, "[%zu/%zu] %s @ %s: FAILED: %s\n", done, total, r.model.c_str(),
                             r.target.c_str(), r.error.c_str());
        });

    size_t failed = 0;
    for (const SweepRow& r : rows)
        failed += !r.ok;
    if (auto file = args.get("csv"))
        writeOutput(*file, sweepCsv(rows));
    if (auto file = args.get("html"))
        writeOutput(*file, sweepHtml(rows, nowText()));
    if (!(args.get("csv") && writesToStdout(*args.get("csv"))) &&
        !(args.get("html") && writesToStdout(*args.get("html")))) {
        // Columns as wide as the longest model path and target name, so the numbers line up.
        int mw = 5, tw = 6;
        for (const SweepRow& r : rows) {
            mw = std::max(mw, int(r.model.size()));
            tw = std::max(tw, int(r.target.size()));
        }
        // A row resting on guessed shapes says so first, and in its own column: its figures are guesses.
        size_t partial = 0;
        for (const SweepRow& r : rows)
            partial += r.ok && !r.complete;
        if (partial > 0)
            std::printf(
                "PARTIAL: %zu of %zu row(s) rest on shapes nobody knows (marked PARTIAL; why below)\n",
                partial, rows.size());
        std::printf("%-*s  %-*s %10s %9s %9s %5s %4s %8s %-8s %s\n", mw, "model", tw, "target", "latency_ms",
                    "bpu_ms", "fps", "cpu", "segs", "padding", "complete", "top finding");
        for (const SweepRow& r : rows) {
            if (!r.ok) {
                std::printf("%-*s  %-*s FAILED: %s\n", mw, r.model.c_str(), tw, r.target.c_str(),
                            r.error.c_str());
                continue;
            }
            std::printf("%-*s  %-*s %10.3f %9.3f %9.1f %5d %4d %7.1f%% %-8s %s\n", mw, r.model.c_str(), tw,
                        r.target.c_str(), r.figures.latencyMs, r.figures.bpuMs, r.figures.fps, r.cpuNodes,
                        r.bpuSegments, r.paddingWasteRatio * 100, r.complete ? "yes" : "PARTIAL",
                        r.topRule.empty() ? "-" : r.topRule.c_str());
        }
        for (const SweepRow& r : rows)
            if (r.ok && !r.complete)
                std::printf("PARTIAL: %s @ %s: %s\n", printable(r.model).c_str(), r.target.c_str(),
                            printable(r.partial).c_str());
    }
    std::fprintf(stderr, "sweep: %zu rows, %zu failed\n", rows.size(), failed);
    return failed ? 1 : kOk;
}

} // namespace bpu::cli
