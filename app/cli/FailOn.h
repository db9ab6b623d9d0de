// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace bpu {
class Session;
}

namespace bpu::cli {

/// One `analyze --fail-on EXPR` condition for CI: METRIC OP VALUE, e.g. `fps<300`, `latency_ms>2`,
/// `cpu_nodes>0`, `severity>=high`. Metrics: fps, latency_ms, bpu_ms, cpu_nodes, bpu_segments, findings,
/// severity (the highest finding severity; values low < medium < high). Ops: < <= > >= == !=.
struct FailCondition {
    std::string text, metric, op;
    double value = 0;
};

/// Parses EXPR; throws std::invalid_argument with a message naming the expression and what is wrong.
FailCondition parseFailCondition(const std::string& expr);
/// The reason the condition holds on `s` ("fps is 250.3, fps<300"), or nothing when it does not.
std::optional<std::string> failReason(const FailCondition& c, const Session& s);

} // namespace bpu::cli
