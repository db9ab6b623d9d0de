// SPDX-License-Identifier: MIT
#include "FindingText.h"

#include "core/edit/Session.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace bpu {

namespace {

/// "+1.2 M" / "-340 k" / "+12": a count's change, signed, at a readable scale.
std::string signedCount(int64_t v) {
    char buf[48];
    const double a = std::abs(double(v));
    const char sign = v < 0 ? '-' : '+';
    if (a >= 1e9)
        std::snprintf(buf, sizeof buf, "%c%.1f G", sign, a / 1e9);
    else if (a >= 1e6)
        std::snprintf(buf, sizeof buf, "%c%.1f M", sign, a / 1e6);
    else if (a >= 1e3)
        std::snprintf(buf, sizeof buf, "%c%.1f k", sign, a / 1e3);
    else
        std::snprintf(buf, sizeof buf, "%c%lld", sign, static_cast<long long>(a));
    return buf;
}

} // namespace

std::string gainText(const std::optional<double>& ms) {
    if (!ms)
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f ms", *ms);
    return buf;
}

std::string fixEffectsText(const FixEffects& fx) {
    std::string out;
    auto add = [&](const std::string& s) {
        out += (out.empty() ? "" : "; ") + s;
    };
    for (EditCost c : fx.costs.list())
        add(editCostText(c));
    if (fx.macsChange != 0)
        add("MACs " + signedCount(fx.macsChange));
    if (fx.paramsChange != 0)
        add("params " + signedCount(fx.paramsChange));
    return out;
}

std::string findingOutcomeText(const Finding& f) {
    std::string out;
    if (!f.fix.empty()) {
        if (f.estimatedGainMs) {
            out = "fix saves " + gainText(f.estimatedGainMs);
            const std::string effects = f.fixEffects ? fixEffectsText(*f.fixEffects) : std::string();
            if (!effects.empty())
                out += " (" + effects + ")";
        } else if (const auto lat = f.evidence.find("latency_gain_ms");
                   lat != f.evidence.end() && f.fpsGain) {
            // Issue 62: a batch in the latency objective: no gain for one frame, its FPS figure instead.
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          "no latency gain: a throughput trade-off, %+.1f FPS with two threads but %+.3f ms "
                          "per frame",
                          *f.fpsGain, -lat->get<double>());
            out = buf;
            if (f.fixEffects) {
                FixEffects others = *f.fixEffects; // the trade-off is what the sentence says already
                others.costs = {};
                for (EditCost c : f.fixEffects->costs.list())
                    if (c != EditCost::ThroughputTradeOff)
                        others.costs.add(c);
                if (const std::string effects = fixEffectsText(others); !effects.empty())
                    out += " (" + effects + ")";
            }
        } else {
            const auto why = f.evidence.find("fix_not_applicable");
            out = why != f.evidence.end() && why->is_string()
                      ? "fix does not apply: " + why->get<std::string>()
                      : std::string("fix not estimated");
        }
    } else {
        out = "no concrete fix";
    }
    if (const std::string weak = weakRestsOnText(f.restsOn); !weak.empty())
        out += std::string("; ") + kUnprovenMarker + ": " + weak;
    if (f.wasteUpperBoundMs) {
        out += "; this waste costs at most " + gainText(f.wasteUpperBoundMs) + " (upper bound)";
        // A narrower conv saves its padding and real work besides: say so, or the bound reads as broken.
        if (f.estimatedGainMs && *f.estimatedGainMs > *f.wasteUpperBoundMs + kGainNoiseMs)
            out += "; the fix saves more because it also removes real work";
    }
    return out;
}

std::string severityText(const Finding& f) {
    std::string out = severityName(f.severity);
    if (anyWeak(f.restsOn))
        out += std::string(", ") + kUnprovenMarker;
    return out;
}

std::string restsOnListText(const Finding& f) {
    std::string out;
    for (const RestsOn& r : f.restsOn) {
        out += out.empty() ? "" : "; ";
        if (r.kind == RestsOn::Kind::Assumption)
            out += "assumption " + r.id + (r.weak ? " (no published source states it)" : "");
        else
            out += r.id + (r.weak ? " (not identified by the calibration)" : "");
    }
    return out;
}

std::string unprovenProse(const Finding& f) {
    std::string params, assumptions;
    int weakParams = 0;
    for (const RestsOn& r : f.restsOn) {
        if (!r.weak)
            continue;
        if (r.kind == RestsOn::Kind::Parameter)
            ++weakParams;
        else
            assumptions += (assumptions.empty() ? "" : "; ") + r.note;
    }
    std::string out;
    if (weakParams > 0)
        out = "the gain rests on " +
              std::string(weakParams > 1 ? "fitted parameters" : "a fitted parameter") +
              " the calibration does not identify (the method section marks " +
              (weakParams > 1 ? "them" : "it") + ")";
    if (!assumptions.empty())
        out += std::string(out.empty() ? "the gain rests on" : " and on") +
               " an assumption no published source states: " + assumptions;
    return out;
}

std::string foldedSummaryText(const std::vector<Finding>& folded) {
    if (folded.empty())
        return {};
    double most = 0;
    for (const auto& f : folded)
        most = std::max({most, f.estimatedGainMs.value_or(0), f.wasteUpperBoundMs.value_or(0)});
    return std::to_string(folded.size()) + " more finding" + (folded.size() > 1 ? "s" : "") +
           ", each saving or wasting at most " + gainText(most) +
           ", are folded below the list (the JSON's folded_findings lists them in full)";
}

std::string findingPartText(const FindingPart& p) {
    std::string out = "[" + std::string(ruleName(p.rule)) + "] " + p.title;
    if (p.estimatedGainMs)
        out += " (fix saves " + gainText(p.estimatedGainMs) + ")";
    else if (p.wasteUpperBoundMs)
        out += " (waste <= " + gainText(p.wasteUpperBoundMs) + ")";
    return out;
}

} // namespace bpu
