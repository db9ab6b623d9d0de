// SPDX-License-Identifier: MIT
#include "Snapshot.h"

#include "core/analysis/AnalysisResult.h"

namespace bpu::ui {

Snapshot::Snapshot() = default;
Snapshot::Snapshot(const Snapshot&) = default;
Snapshot::Snapshot(Snapshot&&) noexcept = default;
Snapshot& Snapshot::operator=(const Snapshot&) = default;
Snapshot& Snapshot::operator=(Snapshot&&) noexcept = default;
Snapshot::~Snapshot() = default;

void Snapshot::setAnalysis(const AnalysisResult& now, const AnalysisResult& baseline) {
    *analysis = now;
    *baselineSummary = baseline.summary;
}

} // namespace bpu::ui
