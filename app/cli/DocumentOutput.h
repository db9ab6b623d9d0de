// SPDX-License-Identifier: MIT
#pragma once

#include "CliArgs.h"
#include "core/report/ReportDocument.h"
#include "core/util/Progress.h"

#include <string>
#include <vector>

namespace bpu::cli {

/// The output format from --format (one of `allowed`), else from the -o extension (.md, .html, .json, .csv;
/// anything else is pdf when allowed).
std::string documentFormat(const CliArgs& args, const std::string& output,
                           const std::vector<std::string>& allowed);
/// Fails before any work when `output` cannot be written: its folder is missing or not writable, or it names
/// a folder. ("-" is stdout.)
void checkWritable(const std::string& output);
/// Writes a report document as md, html, json (bpuscope.report/1) or pdf. PDF needs Qt's GUI classes: this
/// creates the QApplication (offscreen without a display) from argc/argv; a CLI built without the GUI
/// libraries throws UsageError for pdf.
void writeDocument(const report::ReportDocument& doc, const std::string& format, const std::string& output,
                   int argc, char** argv, const Progress& progress = {});

} // namespace bpu::cli
