// SPDX-License-Identifier: MIT
#pragma once

#include "CliArgs.h"

namespace bpu::cli {

/// `bpuscope-cli info MODEL [--batch N] [--input-shape NAME=DxD...] [--json FILE|-]`
int runInfo(const CliArgs& args);

} // namespace bpu::cli

namespace bpu::cli {

/// `bpuscope-cli analyze MODEL [--target T] [--batch N] [--input-shape ...] [--edits FILE] [--json FILE|-]
/// [--csv FILE]`
int runAnalyze(const CliArgs& args);
/// `bpuscope-cli calibrate MEASUREMENTS.csv [--target T] [--fit [--iterations N] [--write PROFILE.json]]
/// [--markdown FILE]`
int runCalibrate(const CliArgs& args);
/// `bpuscope-cli targets`: the built-in target profiles.
int runTargets(const CliArgs& args);
/// `bpuscope-cli report MODEL -o FILE [--format pdf|md|html|json] [--target T] [--edits FILE] [--batch N]
/// [--input-shape ...]`: the optimization report. argc/argv go to the QApplication the PDF path creates.
int runReport(const CliArgs& args, int argc, char** argv);
/// `bpuscope-cli compare A B [--target T] [--json FILE|-] [--csv FILE|-] [--format md|html|pdf|json|csv -o
/// FILE]`
int runCompare(const CliArgs& args, int argc, char** argv);
/// `bpuscope-cli sweep DIR|FILES... [--target T]... [--jobs N] [--csv FILE|-] [--html FILE]`: exit 1 when a
/// row failed.
int runSweep(const CliArgs& args);
/// `bpuscope-cli export MODEL [--edits FILE | --plan N] -o OUT.onnx [--target T] [--deploy D] [--batch N]
/// [--input-shape ...]`: the changed model as ONNX (issue 49).
int runExport(const CliArgs& args);

} // namespace bpu::cli
