// SPDX-License-Identifier: MIT
#pragma once

#include "GuideRules.h"
#include "ReportDocument.h"
#include "core/edit/EditFwd.h"
#include "core/util/Progress.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace bpu {
class Session;
}

namespace bpu::report {

/// What a report is built from. The sessions are read only; `session` should have its finding gains
/// estimated (Advisor::estimateGains) so findings rank by gain.
struct ReportInput {
    const Session* session = nullptr;  ///< the model as reported (after the edits)
    const Session* baseline = nullptr; ///< the same model before the edits; null when none were applied
    EditList edits;                    ///< the edits from `baseline` to `session`, in order
    /// What the baseline is when it is not the model as imported (the GUI's "Set baseline": "the model with
    /// 2 edits: ..."); empty = as imported.
    std::string baselineNote;
    std::string generatedAt;      ///< shown date; empty = now (or SOURCE_DATE_EPOCH when set)
    GuideRules rules;             ///< empty = loadGuideRules()
    bool calibration = true;      ///< evaluate the calibration set for section 7 (loads its models)
    std::string calibrationCsv;   ///< empty = resourceDir()/calibration/measurements.csv
    size_t hotspots = 20;         ///< rows of the hotspot table
    size_t detailedFindings = 12; ///< findings given a detail block (all are in the ranked table)
};

/// Builds sections 1-7 of the optimization report (issue 6): summary, findings, hotspots, charts, graph
/// overview, what-if, method and assumptions. Throws std::runtime_error when the rules file cannot be read.
ReportDocument buildReport(const ReportInput& input, const Progress& progress = {});

} // namespace bpu::report
