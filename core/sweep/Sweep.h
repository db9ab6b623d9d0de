// SPDX-License-Identifier: MIT
#pragma once

#include "core/cost/LatencyFigures.h"
#include "core/model/ImportOptions.h"
#include "core/target/TargetProfile.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace bpu {

/// One model x target of a sweep: the one-row summary, or why the model could not be analysed.
struct SweepRow {
    std::string model;  ///< path as given or found
    std::string target; ///< profile name (s100, s100p, or the profile file's name)
    bool ok = false;
    std::string error; ///< when !ok: "<file>: <what is wrong>"
    LatencyFigures figures;
    int nodes = 0, cpuNodes = 0, bpuSegments = 0, findings = 0;
    double paddingWasteRatio = 0;
    int64_t paddingWasteBytes = 0;
    std::string topRule, topTitle;   ///< the top-ranked finding (by estimated gain), empty if none
    std::optional<double> topGainMs; ///< its estimated gain per image
    /// False when the result rests on unresolved input dims (Completeness.h): `partial` says why.
    bool complete = true;
    std::string partial;
    double seconds = 0; ///< wall time of this row (progress only; never in the tables)
};

struct SweepJob {
    std::string model;
    std::shared_ptr<const TargetProfile> target;
};

/// Analyses one model for one target; a model that cannot be imported or analysed gives a row with `error`
/// instead of throwing.
SweepRow sweepRow(const SweepJob& job, const ImportOptions& options);

/// Runs every job on `threads` threads (0 = one per hardware thread); `onRow` is called (serialised, from the
/// worker that finished it) after each row with the number done so far. Rows come back in job order.
std::vector<SweepRow> runSweep(const std::vector<SweepJob>& jobs, const ImportOptions& options,
                               unsigned threads,
                               const std::function<void(const SweepRow&, size_t done)>& onRow = {});

/// The model files a sweep covers: each folder's *.onnx files (recursively, sorted), each file as given.
/// A path that does not exist is kept, so its row reports the error.
std::vector<std::string> sweepModels(const std::vector<std::string>& paths);

/// One line per row with the columns of the README's sweep table; failed rows keep their error.
std::string sweepCsv(const std::vector<SweepRow>& rows);
/// A self-contained HTML page (inline CSS, a sortable table, failed rows marked).
std::string sweepHtml(const std::vector<SweepRow>& rows, const std::string& generatedAt);

} // namespace bpu
