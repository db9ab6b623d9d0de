// SPDX-License-Identifier: MIT
#pragma once

#include "OpClass.h"
#include "Placement.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bpu {

/// One number of a target profile with where it came from, so every estimate can be traced to it.
struct Param {
    double value = 0;
    std::string note;      ///< the source, or why this estimate
    bool estimate = false; ///< true when the note is an "estimate" rather than a published "source"
    /// False when the calibration fit could not pin it down (at a bound of its range, or no row exercises
    /// it: the profile's `"identified": false`, written by `bpuscope-cli calibrate --fit --write`). A gain
    /// that rests on it says so (issue 62).
    bool identified = true;
};

/// How the BPU pads a tensor (guide G4).
struct AlignmentRules {
    // G4.2 conv-like NCHW tensors
    Param convH, convW, convC;
    // G4.1 other tensors: each dim (except batch) to a power of two up to `generalMaxUnit`, then to a
    // multiple of it.
    Param generalMaxUnit;
    // A model input with at most `inputCMax` channels (an image) is laid out by the runtime: C kept, H and
    // W aligned to these units.
    Param inputCMax, inputH, inputW;
};

/// What the operator table says about one ONNX op type.
struct OpRule {
    OpClass opClass = OpClass::Unknown;   ///< the row's "class" (never Unknown once loaded)
    Placement placement = Placement::BPU; ///< BPU, CPU, folded
    std::string align;                    ///< conv or general: which G4 rule pads the tensors it touches
    int64_t maxReduceAxis = 0;            ///< 0 = no limit; else reduced-axis extent limit (e.g. 65535)
    std::string note;
};

/// A fusion pattern (guide G3): a head op followed by optional ops in order.
struct FusionPattern {
    std::string name;
    std::vector<std::string> head;              ///< op types that can start the group (Conv, ConvTranspose)
    std::vector<std::vector<std::string>> then; ///< optional stages in order, each a set of op types
    std::string note;
};

/// Something a rule's gain takes for granted that no parameter states (issue 62): "the BPU runs a SiLU as its
/// own layers after the conv". Its source is a citation or "none".
struct Assumption {
    std::string id; ///< what rules name it by ("lut_activation_separate_layer")
    std::string text;
    std::string source; ///< the citation, or "none": no published source states it
    bool sourced() const { return source != "none"; }
};

/// Every number the analysis and cost engine use, loaded from resources/targets/*.json.
struct TargetProfile {
    std::string name; ///< s100, s100p
    std::string displayName;
    std::string version;
    std::string march;
    std::string sourcePath;

    // Hardware
    Param peakInt8Tops, bpuClockGhz, int16ThroughputFactor;
    Param ddrBandwidthGBs, ddrEffectiveFraction, sramBudgetBytes;
    Param
        bpuCoreNumber; ///< BPU cores one model runs on (the compiler's core_num): the perf JSON's model info
    // Effective fraction of peak the TAE reaches per op class; a MatMul of two activations (attention) has
    // no weight to preload and runs at its own rate
    Param denseConvEfficiency, groupConvEfficiency, matmulEfficiency, matmulActEfficiency;
    // Vector/aux units (elements per cycle) for non-MAC work on the BPU, and how many vector passes the
    // split ops take (Softmax: Sub, LUT, ReduceSum, ReduceMax, LUT, Mul; an int8<->int16 requantize; an image
    // input's colour conversion and normalisation)
    Param vectorElementsPerCycle, transformElementsPerCycle;
    Param softmaxVectorPasses, requantizeVectorPasses, inputConversionPasses;
    // Pipeline
    Param loadComputeOverlap, layerFixedCycles;
    // Runtime (hrt_model_exec): a fixed CPU-side cost per inference plus the I/O bytes it touches at the CPU
    // bandwidth; a conv output left quantized is its int32 accumulator; with two threads this share of the
    // CPU-side time overlaps the other thread's BPU time
    Param runtimeFixedUs, quantizedConvOutputBytes, threadOverlap;
    // CPU side
    Param cpuGflops, cpuBandwidthGBs, qdqElementsPerUs, cpuBpuSwitchUs;
    // Thresholds for advisors
    Param reduceAxisLimit, smallInputMax, largeWeightBytes, largeFeatureMapBytes, shortcutStepsLimit;
    Param paddingFindingRatio, detectionKeepCandidates, groupConvMinChannels;
    Param streamWindowSteps;
    // Findings: severity from the estimated gain's share of the latency (high / medium thresholds); G6.5 only
    // where weight loads are a material share of the BPU time; the separate-activation finding's threshold;
    // how many fixes the optimization plan applies
    Param severityHighShare, severityMediumShare, batchWeightShareMin, activationShareMin, planMaxSteps;
    Param findingMinGainUs; ///< a fix saving less is not listed (below the estimate's resolution)
    Param findingsMax;      ///< findings listed in full; the rest are folded into one line (a reading bound)
    // The input-resolution fix (G4): candidate input sizes within this share of today's per side, at most
    // this many tried (the nearest to today's first)
    Param resolutionSearchRange, resolutionSearchMaxTrials;
    /// Sizes the export refused for a size it fixed in a constant: a re-export is estimated at this many
    /// of them, the nearest to today's pixel count first (issue 61; a search bound)
    Param reexportTrials;
    // What-if work bounds (not chip properties): the node re-estimates one drag-editor curve may cost
    // (points x nodes; Sweep.h sweepPointLimit)
    Param sweepNodeBudget;

    AlignmentRules alignment;
    std::map<std::string, OpRule> operators;
    std::vector<FusionPattern> fusionPatterns;
    std::vector<Assumption> assumptions; ///< the profile's `assumptions` block (optional in a user profile)

    /// The assumption with id `id`; nullptr when the profile states none such.
    const Assumption* assumption(const std::string& id) const;
    /// Rule for an op type; nullptr when the table does not know it.
    const OpRule* rule(const std::string& opType) const;

    // Derived figures (documented formulas, not parameters).
    double peakMacsPerSecond() const { return peakInt8Tops.value * 1e12 / 2.0; } ///< 1 MAC = 2 ops
    double effectiveDdrBytesPerSecond() const {
        return ddrBandwidthGBs.value * 1e9 * ddrEffectiveFraction.value;
    }
    /// Fixed time per BPU layer: layer_fixed_cycles at the BPU clock (a faster clock shortens it).
    double layerFixedUs() const { return layerFixedCycles.value / (bpuClockGhz.value * 1e3); }
    /// MACs per DDR byte at which dense conv time equals memory time.
    double ridgeIntensity() const {
        return peakMacsPerSecond() * denseConvEfficiency.value / effectiveDdrBytesPerSecond();
    }

    struct NamedParam {
        std::string key;
        const Param* param;
    };
    /// Every scalar parameter with its JSON key, in file order, for the inspector and the report.
    std::vector<NamedParam> parameters() const;
};

/// Loads and validates a profile: unknown key, wrong type or missing field -> std::runtime_error naming
/// the file and the key. `nameOrPath` is a built-in name (s100, s100p) or a path to a .json file.
TargetProfile loadTargetProfile(const std::string& nameOrPath);
/// Validates a parsed profile document (what loadTargetProfile does after reading the file): every key
/// known, every parameter finite and in its physical range. Throws std::runtime_error naming `file` and the
/// key.
TargetProfile parseTargetProfile(const nlohmann::json& doc, const std::string& file);
/// Built-in profile names with their files.
std::vector<std::pair<std::string, std::string>> builtinTargets();
/// Folder holding the built-in profiles (resources/targets), overridable with BPUSCOPE_RESOURCES.
std::string resourceDir();

} // namespace bpu
