// SPDX-License-Identifier: MIT
#include "Sweep.h"

#include "core/analysis/AnalysisResult.h"
#include "core/model/Completeness.h"

#include "core/edit/Session.h"
#include "core/model/ModelImporter.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

namespace bpu {

SweepRow sweepRow(const SweepJob& job, const ImportOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    SweepRow row;
    row.model = job.model;
    row.target = job.target->name;
    try {
        Session s(ModelImporter::load(job.model, options), job.target);
        s.estimateFindingGains();
        const AnalysisSummary& sum = s.analysis().summary;
        row.figures = latencyFigures(s.cost());
        row.nodes = int(s.graph().nodes.size());
        row.cpuNodes = sum.cpuNodes;
        row.bpuSegments = sum.bpuSegments;
        row.findings = int(s.analysis().findings.size());
        row.paddingWasteRatio = sum.paddingWasteRatio;
        row.paddingWasteBytes = sum.paddingWasteBytes;
        if (!s.analysis().findings.empty()) {
            const Finding& f = s.analysis().findings.front();
            row.topRule = ruleName(f.rule);
            row.topTitle = f.title;
            row.topGainMs = f.estimatedGainMs;
        }
        const Completeness c = completeness(s.graph());
        row.complete = c.complete();
        row.partial = c.summary();
        row.ok = true;
    } catch (const std::exception& e) {
        row.error = e.what();
    }
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return row;
}

std::vector<SweepRow> runSweep(const std::vector<SweepJob>& jobs, const ImportOptions& options,
                               unsigned threads,
                               const std::function<void(const SweepRow&, size_t done)>& onRow) {
    std::vector<SweepRow> rows(jobs.size());
    std::atomic<size_t> next{0};
    std::mutex reportMutex;
    size_t done = 0;
    auto work = [&] {
        for (size_t i = next++; i < jobs.size(); i = next++) {
            rows[i] = sweepRow(jobs[i], options);
            std::lock_guard lock(reportMutex);
            ++done;
            if (onRow)
                onRow(rows[i], done);
        }
    };
    const unsigned wanted = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> helpers;
    for (size_t t = 1; t < std::min<size_t>(wanted, jobs.size()); ++t)
        helpers.emplace_back(work);
    work();
    for (auto& h : helpers)
        h.join();
    return rows;
}

std::vector<std::string> sweepModels(const std::vector<std::string>& paths) {
    namespace fs = std::filesystem;
    std::vector<std::string> out;
    for (const std::string& p : paths) {
        std::error_code ec;
        if (!fs::is_directory(p, ec)) {
            out.push_back(p);
            continue;
        }
        std::vector<std::string> found;
        // Symlinked folders are not followed (a link loop would never end); linked files are analysed.
        for (fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec), end;
             !ec && it != end; it.increment(ec)) {
            std::string ext = it->path().extension().string();
            std::transform(ext.begin(), ext.end(), ext.begin(),
                           [](unsigned char c) { return char(std::tolower(c)); });
            if (ext == ".onnx" && !it->is_directory(ec))
                found.push_back(it->path().string());
        }
        if (ec)
            found.push_back(p); // its row names the folder and the error
        std::sort(found.begin(), found.end());
        out.insert(out.end(), found.begin(), found.end());
    }
    return out;
}

} // namespace bpu
