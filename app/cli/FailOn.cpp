// SPDX-License-Identifier: MIT
#include "FailOn.h"

#include "core/analysis/AnalysisResult.h"
#include "core/edit/Session.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace bpu::cli {

namespace {

const char* const kMetrics[] = {"fps",          "latency_ms", "bpu_ms",  "cpu_nodes",
                                "bpu_segments", "findings",   "severity"};
// Longest first, so "<=" is not read as "<".
const char* const kOps[] = {"<=", ">=", "==", "!=", "<", ">"};

// Severity as a number that orders it: low 0 < medium 1 < high 2 (no finding: -1).
double severityLevel(Severity s) {
    return s == Severity::High ? 2 : s == Severity::Medium ? 1 : 0;
}

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

} // namespace

FailCondition parseFailCondition(const std::string& expr) {
    auto bad = [&](const std::string& why) {
        return std::invalid_argument(
            "--fail-on '" + expr + "': " + why +
            " (expected METRIC OP VALUE, e.g. 'fps<300', 'latency_ms>2', 'cpu_nodes>0', "
            "'severity>=high'; metrics: fps, latency_ms, bpu_ms, cpu_nodes, "
            "bpu_segments, findings, severity; ops: < <= > >= == !=)");
    };
    FailCondition c;
    c.text = expr;
    size_t at = std::string::npos;
    for (const char* op : kOps)
        if (size_t p = expr.find(op); p != std::string::npos && p < at) {
            at = p;
            c.op = op;
        }
    if (at == std::string::npos)
        throw bad("no comparison operator");
    if (c.op.size() == 1 && at + 1 < expr.size() && expr[at + 1] == '=')
        c.op += '='; // "<=" found at the same place as "<"
    c.metric = trim(expr.substr(0, at));
    const std::string value = trim(expr.substr(at + c.op.size()));
    bool known = false;
    for (const char* m : kMetrics)
        known |= c.metric == m;
    if (!known)
        throw bad(c.metric.empty() ? "no metric" : "unknown metric '" + c.metric + "'");
    if (c.metric == "severity") {
        const auto s = parseSeverity(value);
        if (!s)
            throw bad("severity is compared with low, medium or high, not '" + value + "'");
        c.value = severityLevel(*s);
        return c;
    }
    size_t used = 0;
    try {
        c.value = std::stod(value, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (value.empty() || used != value.size() || !std::isfinite(c.value))
        throw bad("'" + value + "' is not a number");
    return c;
}

std::optional<std::string> failReason(const FailCondition& c, const Session& s) {
    const auto& cost = s.cost();
    const auto& r = s.analysis();
    double v = 0;
    std::string shown;
    char buf[64];
    if (c.metric == "fps")
        v = cost.fps;
    else if (c.metric == "latency_ms")
        v = cost.latencyMs;
    else if (c.metric == "bpu_ms")
        v = cost.bpuMs;
    else if (c.metric == "cpu_nodes")
        v = r.summary.cpuNodes;
    else if (c.metric == "bpu_segments")
        v = r.summary.bpuSegments;
    else if (c.metric == "findings")
        v = double(r.findings.size() + r.foldedFindings.size()); // every finding, listed or folded
    else if (c.metric == "severity") {
        v = -1;
        const Finding* top = nullptr;
        for (const auto& f : r.findings)
            if (severityLevel(f.severity) > v) {
                v = severityLevel(f.severity);
                top = &f;
            }
        shown = top ? std::string(severityName(top->severity)) + " ([" + ruleName(top->rule) + "] " +
                          top->title + ")"
                    : std::string("none (no findings)");
    }
    if (shown.empty()) {
        std::snprintf(buf, sizeof buf, "%.6g", v);
        shown = buf;
    }
    const bool holds = c.op == "<"    ? v < c.value
                       : c.op == "<=" ? v <= c.value
                       : c.op == ">"  ? v > c.value
                       : c.op == ">=" ? v >= c.value
                       : c.op == "==" ? v == c.value
                                      : v != c.value;
    if (!holds)
        return std::nullopt;
    return c.metric + " is " + shown + ": " + c.text;
}

} // namespace bpu::cli
