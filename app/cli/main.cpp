// SPDX-License-Identifier: MIT
// bpuscope-cli: the headless front end. Every subcommand reads the same core results as the GUI.
#include "Commands.h"

#include "core/util/PrintableText.h"

#include <iostream>
#include <string>

namespace {

const char* kUsageText = R"(usage: bpuscope-cli COMMAND [options]

commands:
  info MODEL [--batch N] [--input-shape NAME=1x3x640x640]... [--json FILE|-]
      model summary: producer, opsets, inputs/outputs, op histogram, params, MACs, weight bytes
  analyze MODEL [--target s100|s100p|PROFILE.json] [--batch N] [--input-shape ...] [--edits FILE]
         [--json FILE|-] [--csv FILE|-]
      placement, Q/DQ passes, alignment padding, compute:memory, fusion, latency/FPS and the guide's
      findings; --edits applies a what-if edit list (docs/edits.md) and reports the baseline beside it
  report MODEL -o FILE [--format pdf|md|html|json] [--target T] [--edits FILE] [--batch N] [--input-shape ...]
         [--progress]
      optimization report: summary, findings with the guide's rules, hotspots, charts, graph overview,
      what-if before/after, method and assumptions (format from --format, else from the -o extension; pdf
      works without a display; --progress prints each stage with its time on stderr)
  calibrate MEASUREMENTS.csv [--target T] [--fit [--iterations N] [--write PROFILE.json]] [--markdown FILE]
      predicted vs measured latency per model; --fit fits the profile's free parameters
  targets
      list the built-in target profiles
  --version   print the version
exit codes: 0 ok, 2 usage error, 3 bad input (model, profile, edit file, unwritable output)
)";

} // namespace

int main(int argc, char** argv) {
    using namespace bpu::cli;
    if (argc < 2) {
        std::cerr << kUsageText;
        return Exit::kUsage;
    }
    std::string cmd = argv[1];
    try {
        if (cmd == "--help" || cmd == "-h" || cmd == "help") {
            std::cout << kUsageText;
            return kOk;
        }
        if (cmd == "--version") {
            std::cout << "bpuscope-cli " << BPUSCOPE_VERSION << "\n";
            return kOk;
        }
        const std::vector<std::string> modelOptions{"batch",  "input-shape", "json",   "csv",
                                                    "target", "edits",       "format", "output"};
        auto parse = [&](const std::vector<std::string>& valued, const std::vector<std::string>& flags) {
            CliArgs a = CliArgs::parse(argc, argv, 2, valued, flags);
            a.refuseInputsAsOutputs();
            return a;
        };
        if (cmd == "info")
            return runInfo(parse(modelOptions, {}));
        if (cmd == "analyze")
            return runAnalyze(parse(modelOptions, {}));
        if (cmd == "report")
            return runReport(parse(modelOptions, {"progress"}), argc, argv);
        if (cmd == "calibrate")
            return runCalibrate(parse({"target", "write", "markdown", "iterations"}, {"fit"}));
        if (cmd == "targets")
            return runTargets(CliArgs::parse(argc, argv, 2, {}, {}));
        throw UsageError("unknown command '" + cmd + "'");
    } catch (const UsageError& e) {
        std::cerr << "bpuscope: usage error: " << bpu::printable(e.what()) << "\n" << kUsageText;
        return kUsage;
    } catch (const std::exception& e) {
        // One line: names, paths and library messages can hold escapes or newlines from a hostile file.
        std::cerr << "bpuscope: error: " << bpu::printable(e.what()) << "\n";
        return kBadInput;
    }
}
