// SPDX-License-Identifier: MIT
// Section 7: method and assumptions - every profile parameter with its source, the calibration table with its
// errors, and the guide's rules.
#include "ReportFormat.h"
#include "ReportSections.h"
#include "core/cost/Calibration.h"

#include <cmath>

namespace bpu::report::detail {

namespace {

void addCalibration(const Context& c, Section& sec, const Progress& progress) {
    sec.blocks.push_back(Heading{2, "Calibration against published measurements"});
    if (!c.in.calibration) {
        sec.blocks.push_back(Note{"Calibration was not evaluated for this report."});
        return;
    }
    const std::string csv =
        c.in.calibrationCsv.empty() ? resourceDir() + "/calibration/measurements.csv" : c.in.calibrationCsv;
    CalibrationResult result;
    try {
        progress(0.4, "calibration");
        CalibrationSet set(loadMeasurements(csv));
        progress.checkCancel();
        result = set.evaluate(c.t);
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        sec.blocks.push_back(Note{std::string("The calibration set could not be evaluated: ") + e.what()});
        return;
    }
    if (result.rows.empty()) {
        sec.blocks.push_back(Note{"The calibration set (" + csv + ") has no measurement for target '" +
                                  c.t.name +
                                  "': the estimates for this profile are not checked against hardware."});
        return;
    }
    sec.blocks.push_back(Paragraph{
        "The same engine run on the models of the calibration set (resources/calibration/measurements.csv) "
        "with the "
        "profile above, against published latencies. Error = (predicted - measured) / measured latency. Read "
        "the kind column: a board measurement is stronger evidence than a toolchain estimate or a ratio."});
    int fitted = 0, unidentified = 0;
    for (const auto& p : c.t.parameters()) {
        fitted += p.param->note.find("fitted") != std::string::npos ? 1 : 0;
        unidentified += p.param->identified ? 0 : 1;
    }
    if (fitted > 0)
        sec.blocks.push_back(Note{
            std::to_string(fitted) +
            " of the profile's parameters were fitted to these measurements (see their notes above), so the "
            "errors are in-sample: they show the cost model can match this set, not how well it predicts a "
            "model outside it." +
            (unidentified > 0
                 ? " " + std::to_string(unidentified) +
                       " of them the data does not identify (marked \"not identified\" above: at a "
                       "bound of the fit's range, or exercised by no row); a finding whose gain "
                       "rests on one is marked unproven."
                 : std::string())});
    TableBlock tb;
    tb.caption = "Predicted vs measured (" + c.t.name + " " + c.t.version + ")";
    tb.table = makeTable(
        {"Model", "Input", "Scenario", "Kind", "Measured (ms)", "Predicted (ms)", "Error"},
        {Align::Left, Align::Left, Align::Left, Align::Left, Align::Right, Align::Right, Align::Right});
    tb.table.widths = {2.4, 1.5, 1.6, 2.6, 1.1, 1.1, 0.9};
    for (const auto& row : result.rows)
        tb.table.rows.push_back({row.m.model, row.m.input, row.m.scenario.empty() ? "-" : row.m.scenario,
                                 row.m.kind, fmt::ms(row.m.latencyMs), fmt::ms(row.predictedMs),
                                 fmt::signedPercent(row.errorPct / 100.0)});
    sec.blocks.push_back(tb);
    KeyValues kv;
    kv.items.push_back(
        {"RMS log error", fmt::number(std::round(result.rmsLogError * 1000) / 1000) + " (a factor of about " +
                              fmt::number(std::round(std::exp(result.rmsLogError) * 100) / 100) +
                              " either way)"});
    if (result.measuredFuseRatio)
        kv.items.push_back({"Fuse ratio (" + result.fuseRatioModel + ")",
                            "measured " + fmt::number(std::round(*result.measuredFuseRatio * 1000) / 1000) +
                                "x, predicted " +
                                fmt::number(std::round(result.predictedFuseRatio.value_or(0) * 1000) / 1000) +
                                "x"});
    sec.blocks.push_back(kv);
}

} // namespace

Section methodSection(const Context& c, const Progress& progress) {
    Section sec;
    sec.id = "method";
    sec.title = "Method and assumptions";
    sec.blocks = modelAndTargetBlocks(c);
    sec.blocks.push_back(Heading{2, "How the estimate is made"});
    sec.blocks.push_back(Paragraph{
        "BpuScope imports the ONNX graph with per-node shape inference, places every operator on the BPU, "
        "the CPU "
        "or folds it (operator table of the profile), pads BPU tensors by the alignment rules (G4), groups "
        "fusable "
        "chains (G3), counts quantize/dequantize passes (G1.1) and DDR traffic (G6), and estimates each "
        "layer's "
        "time from its padded work and bytes with the profile's throughputs, overlapping DDR loads with "
        "compute "
        "(load_compute_overlap) and adding per-layer and per-model fixed costs. A feature map stays in SRAM "
        "unless it is larger than sram_budget_bytes or lives past stream_window_steps and is displaced by "
        "tensors used sooner; a fused group's DDR time is its layer's, on its head node. Nothing runs on "
        "hardware: "
        "parameters marked 'estimate' are not published figures, so numbers that depend on them carry their "
        "uncertainty."});

    sec.blocks.push_back(Heading{2, "Target profile parameters"});
    TableBlock params;
    params.caption = c.t.displayName + " [" + c.t.name + " " + c.t.version + "], " + c.t.sourcePath;
    params.table = makeTable({"Parameter", "Value", "Basis", "Source or reason"},
                             {Align::Left, Align::Right, Align::Left, Align::Left});
    params.table.widths = {2.6, 1.2, 0.9, 6};
    int estimates = 0;
    for (const auto& p : c.t.parameters()) {
        estimates += p.param->estimate ? 1 : 0;
        params.table.rows.push_back({p.key, fmt::number(p.param->value),
                                     std::string(p.param->estimate ? "estimate" : "source") +
                                         (p.param->identified ? "" : ", not identified"),
                                     p.param->note.empty() ? "-" : p.param->note});
    }
    sec.blocks.push_back(Paragraph{std::to_string(c.t.parameters().size()) + " parameters, " +
                                   std::to_string(estimates) + " of them estimates."});
    sec.blocks.push_back(params);
    KeyValues derived{"Derived figures", {}};
    derived.items = {
        {"Peak MAC rate", fmt::si(c.t.peakMacsPerSecond()) + "MAC/s (peak_int8_tops x 10^12 / 2)"},
        {"Effective DDR bandwidth", fmt::number(c.t.effectiveDdrBytesPerSecond() / 1e9) +
                                        " GB/s (ddr_bandwidth_gbs x ddr_effective_fraction)"},
        {"Ridge intensity", fmt::number(c.t.ridgeIntensity()) +
                                " MACs/byte (peak x dense_conv_efficiency / effective DDR bandwidth)"}};
    sec.blocks.push_back(derived);
    // Issue 62: what the rules take for granted that no parameter states; a finding resting on one with no
    // source is marked unproven.
    if (!c.t.assumptions.empty()) {
        TableBlock as;
        as.caption = "Assumptions the rules make (a finding whose gain rests on one without a source is "
                     "marked unproven and is at most medium)";
        as.table = makeTable({"Assumption", "What it takes for granted", "Source"},
                             {Align::Left, Align::Left, Align::Left});
        as.table.widths = {2.6, 5, 3};
        for (const Assumption& a : c.t.assumptions)
            as.table.rows.push_back({a.id, a.text, a.sourced() ? a.source : "none: no published source"});
        sec.blocks.push_back(as);
    }

    addCalibration(c, sec, progress);

    sec.blocks.push_back(Heading{2, "The design guide's rules"});
    sec.blocks.push_back(
        Paragraph{"Quoted from the English brief of the S100 efficient-model design guide; every "
                  "finding names the rule it comes from."});
    for (const auto& r : c.rules.all())
        sec.blocks.push_back(RuleText{r.id, r.title, r.text});
    return sec;
}

} // namespace bpu::report::detail
