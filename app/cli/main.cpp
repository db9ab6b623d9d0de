// SPDX-License-Identifier: MIT
// bpuscope-cli: the headless front end. Every subcommand reads the same core results as the GUI.
#include "Commands.h"
#include "core/util/OutputFile.h"
#include "core/util/ProcessAllocator.h"

#include "core/util/PrintableText.h"

#include <iostream>
#include <string>

namespace {

// The layout help2man reads into the man page (packaging/CMakeLists.txt): "Usage:" for the synopsis, a
// "Commands:" section, each command on a line of its own at two spaces with its text at six.
const char* kUsageText = R"(Usage: bpuscope-cli COMMAND [options]

Profile ONNX models for the Horizon S100 BPU: placement, Q/DQ passes, alignment padding, fusion, latency.

Commands:
  info MODEL [options]
      model summary: producer, opsets, inputs/outputs, op histogram, params, MACs, weight bytes.
      Options: --batch N, --input-shape NAME=1x3x640x640 (repeatable), --json FILE|-
  analyze MODEL [options]
      placement, Q/DQ passes, alignment padding, compute:memory, fusion, the guide's findings and three
      latency figures: board latency with 1 thread (as hrt_model_exec perf measures it), FPS with 2
      threads, and the BPU time alone (as hbm_perf reports it). Options: --target s100|s100p|PROFILE.json,
      --deploy fast-perf|keep-io-qdq|CONFIG.yaml (how the board runs the model; default what hb_compile
      --fast-perf does; an hb_compile YAML config; docs/deployment.md), --batch N, --input-shape ...,
      --edits FILE (a what-if edit list, docs/edits.md; the baseline is reported beside it), --json FILE|-,
      --csv FILE|-, --node-info FILE|- (the columns of the compiler's node_info.csv: Node, ON, Subgraph,
      Type, DataType; a row per quantize/dequantize pass it inserts), --perf-json FILE|- (the paths and
      types of the compiler's static perf JSON, filled with BpuScope's estimates), --fail-on EXPR (repeatable, for CI: METRIC OP VALUE with metrics fps,
      latency_ms, bpu_ms, cpu_nodes, bpu_segments, findings, severity and ops < <= > >= == !=, e.g.
      'fps<300', 'latency_ms>2', 'cpu_nodes>0', 'severity>=high': exit 1 listing the conditions that hold;
      a PARTIAL result, one resting on unresolved input dims, fails too unless --allow-partial),
      --objective latency|throughput (what the findings and the plan rank by: one frame's time, the
      default, where a batch counts no gain; or images per second with two threads)
  report MODEL -o FILE [options]
      optimization report: summary, findings with the guide's rules, hotspots, charts, graph overview,
      what-if before/after, method and assumptions. Options: --format pdf|md|html|json (else from the
      -o extension; pdf works without a display), --target T, --deploy D, --edits FILE, --batch N,
      --input-shape ..., --objective latency|throughput, --progress (each stage with its time on stderr)
  export MODEL -o OUT.onnx [options]
      the model with a what-if edit list (--edits FILE) or the optimization plan's first N steps
      (--plan N) applied, written as ONNX for hb_compile: unchanged weights copied byte for byte, changed
      ones written as zeros and listed (retrain before use), every node named, checked with onnx's
      checker first. An idealized what-if (assume_*, fuse, filter_outputs) is refused; a deployment
      change (placement, precision, boundary Q/DQ, normalisation) stays out of the ONNX file:
      --yaml OUT.yaml writes the hb_compile config that carries it (input types, normalisation, removed
      boundary ops, node_info placement and precision, set_all_nodes_int16), naming OUT.onnx; an
      image input normalised on the BPU needs its mean/scale (--deploy CONFIG.yaml), else exit 3.
      Options: --target T, --deploy D, --batch N, --input-shape ..., --yaml FILE, --objective
      latency|throughput (which plan --plan N takes its steps from)
  compare A.onnx B.onnx [options]
      two exports of the same network node by node, B - A: nodes matched by name, then by structure (op
      type, neighbours, shapes), so a re-export with renumbered names still matches; model-level deltas
      (latency, BPU time, FPS, CPU nodes, segments, padding waste, findings added/removed), per-node
      deltas (placement, shape, padding, latency) and the nodes only one side has. Options: --target T,
      --deploy fast-perf|keep-io-qdq|CONFIG.yaml (one deployment for both sides; a config's input shapes
      apply to each), --batch N, --input-shape ..., --json FILE|-, --csv FILE|-, --format
      md|html|pdf|json|csv -o FILE
  sweep DIR|MODEL... [options]
      one row per model x target (latency, BPU time, FPS, CPU nodes, segments, padding waste, top
      finding) over every *.onnx under each DIR, with progress on stderr; a file that fails gets an
      error row and the sweep goes on. Options: --target T (repeatable), --jobs N, --csv FILE|-,
      --html FILE|-, --batch N, --input-shape ...
  calibrate MEASUREMENTS.csv [options]
      predicted vs measured per model (one-thread board latency, static estimates as BPU time, two-thread
      FPS), each row with the profile of its target. Options: --target T (repeatable; default every
      target in the file), --fit [--iterations N] [--write PROFILE.json|FOLDER] (fit the shared free
      parameters), --markdown FILE
  targets
      list the built-in target profiles and the files they are read from

Options:
  -h, --help
      print this help
  --version
      print the version

Exit codes: 0 ok, 1 a sweep row failed or an analyze --fail-on condition holds, 2 usage error, 3 bad input (model, profile, edit file,
unwritable output, a --fail-on expression that does not parse).
)";

} // namespace

int main(int argc, char** argv) {
    bpu::configureProcessAllocator();
    using namespace bpu::cli;
    if (argc < 2) {
        std::cerr << kUsageText;
        return Exit::kUsage;
    }
    std::string cmd = argv[1];
    try {
        // Every command returns here, so stdout is checked once for all of them: a text or a "-" output
        // that did not reach it (a full disk, a closed pipe) fails with exit 3 instead of a silent 0.
        const int rc = [&]() -> int {
            if (cmd == "--help" || cmd == "-h" || cmd == "help") {
                std::cout << kUsageText;
                return kOk;
            }
            if (cmd == "--version") {
                std::cout << "bpuscope-cli " << BPUSCOPE_VERSION << "\n";
                return kOk;
            }
            const std::vector<std::string> modelOptions{"batch", "input-shape", "json",   "csv",   "target",
                                                        "edits", "format",      "output", "deploy"};
            auto parse = [&](const std::vector<std::string>& valued, const std::vector<std::string>& flags) {
                CliArgs a = CliArgs::parse(argc, argv, 2, valued, flags);
                a.refuseInputsAsOutputs();
                a.refuseSharedOutputs();
                return a;
            };
            if (cmd == "info")
                return runInfo(parse(modelOptions, {}));
            if (cmd == "analyze") {
                std::vector<std::string> options = modelOptions;
                options.insert(options.end(), {"node-info", "perf-json", "fail-on", "objective"});
                return runAnalyze(parse(options, {"allow-partial"}));
            }
            if (cmd == "report") {
                std::vector<std::string> options = modelOptions;
                options.push_back("objective");
                return runReport(parse(options, {"progress"}), argc, argv);
            }
            if (cmd == "export")
                return runExport(parse({"batch", "input-shape", "target", "edits", "plan", "output", "deploy",
                                        "yaml", "objective"},
                                       {}));
            if (cmd == "compare")
                return runCompare(
                    parse({"batch", "input-shape", "json", "csv", "target", "format", "output", "deploy"},
                          {}),
                    argc, argv);
            if (cmd == "sweep")
                return runSweep(parse({"target", "jobs", "csv", "html", "batch", "input-shape"}, {}));
            if (cmd == "calibrate")
                return runCalibrate(parse({"target", "write", "markdown", "iterations"}, {"fit"}));
            if (cmd == "targets")
                return runTargets(CliArgs::parse(argc, argv, 2, {}, {}));
            throw UsageError("unknown command '" + cmd + "'");
        }();
        bpu::checkStdoutWritten();
        return rc;
    } catch (const UsageError& e) {
        std::cerr << "bpuscope: usage error: " << bpu::printable(e.what()) << "\n" << kUsageText;
        return kUsage;
    } catch (const std::exception& e) {
        // One line: names, paths and library messages can hold escapes or newlines from a hostile file.
        std::cerr << "bpuscope: error: " << bpu::printable(e.what()) << "\n";
        return kBadInput;
    }
}
