// SPDX-License-Identifier: MIT
#include "ResultNotice.h"

#include "core/util/PrintableText.h"

#include <iostream>

namespace bpu::cli {

void printDiagnostics(const std::vector<Diagnostic>& diagnostics) {
    for (const auto& d : diagnostics)
        std::cerr << "bpuscope: " << diagSeverityName(d.severity) << ": " << printable(d.file + ": " + d.text)
                  << "\n";
}

std::string resultHead(const Completeness& completeness, const std::vector<Diagnostic>& diagnostics) {
    std::string out;
    if (!completeness.complete()) {
        out += "PARTIAL: " + printable(completeness.summary());
        if (!completeness.inputs.empty())
            out += " - pass";
        for (const auto& name : completeness.inputs)
            out += " --input-shape " + printable(name) + "=...";
        out += "\n";
    }
    for (const auto& d : diagnostics)
        out += std::string(diagSeverityName(d.severity)) + ": " + printable(d.text) + "\n";
    return out;
}

} // namespace bpu::cli
