// SPDX-License-Identifier: MIT
#include "Diagnostic.h"

namespace bpu {

const char* diagSeverityName(DiagSeverity s) {
    switch (s) {
    case DiagSeverity::Note:
        return "note";
    case DiagSeverity::Warning:
        return "warning";
    }
    return "warning";
}

const char* diagCodeName(DiagCode c) {
    switch (c) {
    case DiagCode::NoOpsetImport:
        return "no-opset-import";
    case DiagCode::OpsetNewer:
        return "opset-newer";
    case DiagCode::WeightsAbsent:
        return "weights-absent";
    case DiagCode::InputDimUnresolved:
        return "input-dim-unresolved";
    case DiagCode::InputShapeMissing:
        return "input-shape-missing";
    case DiagCode::ControlFlowBodies:
        return "control-flow-bodies";
    case DiagCode::NamesEscaped:
        return "names-escaped";
    case DiagCode::DanglingInput:
        return "dangling-input";
    case DiagCode::ShapesIncomplete:
        return "shapes-incomplete";
    case DiagCode::ShapesInconsistent:
        return "shapes-inconsistent";
    case DiagCode::ShapesDataDependent:
        return "shapes-data-dependent";
    case DiagCode::CountsSaturated:
        return "counts-saturated";
    case DiagCode::UnknownOperator:
        return "unknown-operator";
    case DiagCode::DeploymentNote:
        return "deployment-note";
    case DiagCode::FindingsOnGuesses:
        return "findings-on-guesses";
    }
    return "unknown";
}

std::vector<std::string> diagnosticTexts(const std::vector<Diagnostic>& diagnostics) {
    std::vector<std::string> out;
    out.reserve(diagnostics.size());
    for (const auto& d : diagnostics)
        out.push_back(d.text);
    return out;
}

} // namespace bpu
