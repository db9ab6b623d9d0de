// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/AnalysisOptions.h"
#include "core/model/Graph.h"
#include "core/target/TargetProfile.h"

#include <optional>
#include <string>
#include <vector>

namespace bpu {

/// One published latency (resources/calibration/measurements.csv).
struct Measurement {
    std::string model, file, target, input, kind;
    std::string scenario; ///< "+"-separated: bpu_only (I/O Q/DQ in pre/post-processing), unfused
    double latencyMs = 0, fps = 0;
};

/// Reads the CSV; `file` paths are resolved relative to the CSV's folder. Throws naming the file and line.
std::vector<Measurement> loadMeasurements(const std::string& csvPath);
/// The analysis options a scenario stands for.
AnalysisOptions scenarioOptions(const std::string& scenario);

struct CalibrationRow {
    Measurement m;
    double predictedMs = 0, predictedFps = 0;
    double errorPct = 0; ///< (predicted - measured) / measured latency, in %
};

struct CalibrationResult {
    std::vector<CalibrationRow> rows;
    /// Fused/unfused FPS ratio for a model measured both ways (FCOS-EfficientNetB0 in the guide).
    std::optional<double> measuredFuseRatio, predictedFuseRatio;
    std::string fuseRatioModel;
    double rmsLogError = 0;
    std::vector<std::pair<std::string, double>> fitted; ///< free parameter key -> value
};

/// Models loaded once, evaluated against many candidate profiles.
class CalibrationSet {
public:
    explicit CalibrationSet(std::vector<Measurement> measurements);
    /// Predictions of `profile` for every measurement (rows whose target differs from the profile's name
    /// are skipped).
    CalibrationResult evaluate(const TargetProfile& profile) const;
    /// Fits the free parameters (kFreeParams) by Nelder-Mead on the log-latency error (+ the fuse ratio).
    CalibrationResult fit(TargetProfile& profile, int iterations = 400) const;

    /// The parameters the fit may move, each with physical bounds.
    struct FreeParam {
        const char* key;
        double lo, hi;
    };
    static const std::vector<FreeParam>& freeParams();

private:
    std::vector<Measurement> measurements_;
    std::vector<Graph> graphs_;
};

/// Markdown table of predicted vs measured with errors (docs/calibration.md).
std::string calibrationMarkdown(const CalibrationResult& r, const TargetProfile& profile);
/// Writes `profile`'s fitted values into the profile JSON at `path` (notes kept, "fitted" marked).
void writeFittedProfile(const std::string& sourceJson, const std::string& outPath, const CalibrationResult& r);

} // namespace bpu
