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
    /// "+"-separated: board (the deployment hb_compile --fast-perf gives: nv12 input, boundary Q/DQ removed;
    /// bpu_only is the older name), keep_io_qdq (float model I/O), unfused
    std::string scenario;
    int threads = 1; ///< hrt_model_exec --thread_num: 2-thread rows compare throughput (FPS)
    double latencyMs = 0, fps = 0;
    /// A toolchain static estimate (hbm_perf): compared with bpu_ms, not with the board latency.
    bool staticEstimate() const;
    /// Only the fused/unfused ratio of a reconstructed graph is compared (the guide's FCOS pair).
    bool ratioOnly() const;
};

/// Reads the CSV; `file` paths are resolved relative to the CSV's folder. Throws naming the file and line.
std::vector<Measurement> loadMeasurements(const std::string& csvPath);
/// The analysis options a scenario stands for.
AnalysisOptions scenarioOptions(const std::string& scenario);

struct CalibrationRow {
    Measurement m;
    double predictedMs = 0, predictedFps = 0;
    /// The figure compared: latency for one thread ((predicted - measured) / measured, in %), FPS for two.
    double errorPct = 0;
    const char* figure = "board ms"; ///< "board ms", "static ms" (bpu_ms) or "2-thread FPS"
};

struct CalibrationResult {
    std::vector<CalibrationRow> rows;       ///< one-thread latencies and static estimates
    std::vector<CalibrationRow> threadRows; ///< two-thread throughput
    /// Fused/unfused FPS ratio for a model measured both ways (FCOS-EfficientNetB0 in the guide).
    std::optional<double> measuredFuseRatio, predictedFuseRatio;
    std::string fuseRatioModel;
    double rmsLogError = 0;                             ///< over `rows`
    double rmsLogErrorThreads = 0;                      ///< over `threadRows`
    std::vector<std::pair<std::string, double>> fitted; ///< free parameter key -> value
};

/// Whether the calibration data pins a fitted parameter down (issue 62). A gain that rests on one it does not
/// is marked so wherever it is shown (core/advice/RestsOn.h).
struct ParamIdentity {
    enum class Verdict {
        Identified,
        AtBound,     ///< the value ends within kBoundMargin of its range from a bound of the fit's range
        NotExercised ///< moving it changes no calibration row's prediction
    };
    /// The share of the fit's range (CalibrationSet::freeParams) within which a value counts as at its
    /// bound: the fit's logit maps that range onto the line, so a value that close to a bound is one the
    /// data pushed out of the range rather than one it chose.
    static constexpr double kBoundMargin = 0.01;
    std::string key;
    double value = 0, lo = 0, hi = 0; ///< the value, the fit's range
    Verdict verdict = Verdict::Identified;
    int rowsExercising = 0; ///< calibration rows (and the fuse ratio) whose prediction moves with it
    bool identified() const { return verdict == Verdict::Identified; }
    /// "at its upper bound (1 of 0.01..1)", "no calibration row exercises it", "11 rows exercise it"
    std::string why() const;
};

/// Models loaded once, evaluated against many candidate profiles.
class CalibrationSet {
public:
    explicit CalibrationSet(std::vector<Measurement> measurements);
    /// Predictions of `profile` for every measurement (rows whose target differs from the profile's name
    /// are skipped).
    CalibrationResult evaluate(const TargetProfile& profile) const;
    /// Every row predicted by the profile named by its target (rows for other targets are skipped).
    CalibrationResult evaluate(const std::vector<const TargetProfile*>& profiles) const;
    /// Fits the free parameters (freeParams) by Nelder-Mead on the log error of the one-thread latencies,
    /// the two-thread throughputs and the fuse ratio, with one value per parameter shared by all `profiles`
    /// (the same Nash BPU design and runtime; the hardware figures that differ are published, not fitted).
    CalibrationResult fit(const std::vector<TargetProfile*>& profiles, int iterations = 400) const;
    CalibrationResult fit(TargetProfile& profile, int iterations = 400) const {
        return fit({&profile}, iterations);
    }

    /// Which free parameters the data identifies at the values `profiles` hold (the first profile's value;
    /// they are shared): a value at a bound of the fit's range is not; one no row's prediction moves with
    /// (each moved a quarter of its range and every row re-predicted) is not.
    std::vector<ParamIdentity> identify(const std::vector<const TargetProfile*>& profiles) const;

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

/// Markdown table of predicted vs measured with errors (docs/calibration.md), then the fitted values, each
/// with whether the data identifies it (`identity`, from CalibrationSet::identify; empty: not said).
std::string calibrationMarkdown(const CalibrationResult& r, const std::vector<const TargetProfile*>& profiles,
                                const std::vector<ParamIdentity>& identity = {});
inline std::string calibrationMarkdown(const CalibrationResult& r, const TargetProfile& profile) {
    return calibrationMarkdown(r, std::vector<const TargetProfile*>{&profile});
}
/// Writes `profile`'s fitted values into the profile JSON at `path` (notes kept, "fitted" marked), each
/// marked `"identified": false` where `identity` says the data does not identify it (the key dropped where
/// it does).
void writeFittedProfile(const std::string& sourceJson, const std::string& outPath, const CalibrationResult& r,
                        const std::vector<ParamIdentity>& identity = {});

} // namespace bpu
