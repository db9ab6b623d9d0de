// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <vector>

namespace bpu {

/// How much a diagnostic matters to the figures: a note says what was assumed without changing a number the
/// user acts on (graph-only weights sized from their dims); a warning says a figure may be off or missing.
enum class DiagSeverity { Note, Warning };

/// What a diagnostic is about: a fixed vocabulary a front end or script can filter on (the JSON's `code`).
enum class DiagCode {
    NoOpsetImport,       ///< the model declares no opset
    OpsetNewer,          ///< an opset newer than the onnx library here knows
    WeightsAbsent,       ///< initializers whose external-data file is not there (graph-only)
    InputDimUnresolved,  ///< a model input dim without a value (symbolic or missing)
    InputShapeMissing,   ///< a model input without a shape at all
    ControlFlowBodies,   ///< If/Loop/Scan bodies: shape-inferred, not analysed node by node
    NamesEscaped,        ///< names with control characters, invalid UTF-8 or over 1 KiB
    DanglingInput,       ///< a node reads a value nothing produces
    ShapesIncomplete,    ///< nodes left without a complete inferred shape
    ShapesInconsistent,  ///< the model's own shapes disagree
    ShapesDataDependent, ///< output sizes known only at run time
    CountsSaturated,     ///< MAC/byte counts beyond 2^63, capped
    UnknownOperator,     ///< an op not in the operator table, placed on the CPU
    DeploymentNote,      ///< what the hb_compile config reader ignored or assumed
    FindingsOnGuesses,   ///< findings left out because their gain rests on nodes without a shape
};

/// One diagnostic of a result: every front end (the CLI's stderr and text, the GUI, the report, the JSON)
/// reads the same list (ResultDiagnostics.h) and shows each once.
struct Diagnostic {
    DiagSeverity severity = DiagSeverity::Warning;
    DiagCode code = DiagCode::ShapesIncomplete;
    std::string file; ///< the file it concerns: the model, or the deployment config
    std::string text; ///< a sentence without the file (front ends prefix it)
};

/// "note", "warning".
const char* diagSeverityName(DiagSeverity s);
/// The code as the JSON spells it: "input-dim-unresolved", ...
const char* diagCodeName(DiagCode c);

/// The texts of `diagnostics`, in order (the JSON's legacy `warnings` array, tests).
std::vector<std::string> diagnosticTexts(const std::vector<Diagnostic>& diagnostics);

} // namespace bpu
