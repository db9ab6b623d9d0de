// SPDX-License-Identifier: MIT
#include "EvidenceText.h"

#include "ReportFormat.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace bpu::report {

namespace {

bool endsWith(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// Labels where the words of the key alone would read wrong (abbreviations, units in the key).
const std::map<std::string, std::string>& labels() {
    static const std::map<std::string, std::string> m{
        {"alternative_fix", "Alternative fix"},
        {"bpu_segments", "BPU segments"},
        {"bytes", "Size"},
        {"changed_dims", "Changed dimensions"},
        {"compute_us", "Compute time"},
        {"cpu_bpu_transitions", "CPU/BPU switches"},
        {"cpu_nodes", "CPU nodes"},
        {"elements_after_filtering", "Elements after filtering"},
        {"fix_without_gain", "Change tried, no gain"},
        {"head_outputs", "Head outputs"},
        {"in_channels", "Input channels"},
        {"intensity_macs_per_byte", "Intensity (MACs per DDR byte)"},
        {"live_steps", "Live for (steps)"},
        {"mean_value_0_255", "Mean (0-255 scale)"},
        {"memory_us", "Memory time"},
        {"model_input", "Model input"},
        {"op", "Operator"},
        {"ops", "Operators"},
        {"out_channels", "Output channels"},
        {"padded_dims", "Padded dimensions"},
        {"post_processing_nodes", "Post-processing nodes"},
        {"qdq_elements_per_us", "Q/DQ throughput (elements per us)"},
        {"ridge_macs_per_byte", "Ridge (MACs per DDR byte)"},
        {"scale_value_0_255", "Scale (0-255 scale)"},
        {"small_input_max", "Small-input limit"},
        {"spills_to_ddr", "Spills to DDR"},
        {"sram_budget_bytes", "SRAM budget"},
        {"steps_limit", "Step limit"},
        {"threshold_bytes", "Threshold"},
        {"waste_bytes", "Padding waste"},
        {"waste_ratio", "Waste ratio"},
        {"weight_bytes", "Weights"},
        {"weight_bytes_per_inference", "Weights loaded per inference"},
        {"what_if_not_applicable", "What-if does not apply"},
        {"where", "Where"},
    };
    return m;
}

} // namespace

std::string evidenceLabel(const std::string& key) {
    if (auto it = labels().find(key); it != labels().end())
        return it->second;
    // The key's words: "elements_moved" -> "Elements moved"; known acronyms upper-cased.
    std::string base = key;
    for (const char* unit : {"_bytes", "_us", "_ms"})
        if (endsWith(base, unit) && base.size() > std::string(unit).size())
            base.erase(base.size() - std::string(unit).size());
    std::string out, word;
    auto flush = [&] {
        if (word.empty())
            return;
        static const std::map<std::string, std::string> acronyms{
            {"bpu", "BPU"},   {"cpu", "CPU"}, {"ddr", "DDR"}, {"sram", "SRAM"}, {"qdq", "Q/DQ"},
            {"macs", "MACs"}, {"fps", "FPS"}, {"us", "us"},   {"ms", "ms"}};
        auto a = acronyms.find(word);
        std::string w = a != acronyms.end() ? a->second : word;
        if (out.empty() && a == acronyms.end())
            w[0] = char(std::toupper(static_cast<unsigned char>(w[0])));
        out += (out.empty() ? "" : " ") + w;
        word.clear();
    };
    for (char ch : base) {
        if (ch == '_' || ch == '-' || ch == ' ')
            flush();
        else
            word += char(std::tolower(static_cast<unsigned char>(ch)));
    }
    flush();
    return out.empty() ? key : out;
}

std::string evidenceValue(const std::string& key, const nlohmann::json& v, size_t total) {
    if (v.is_number()) {
        const double d = v.get<double>();
        if (key == "bytes" || endsWith(key, "_bytes") || endsWith(key, "bytes_per_inference"))
            return fmt::bytes(v.get<int64_t>());
        // Shares are fractions of a whole (share_of_bpu_time, gain_share_of_latency, share_min): percent.
        if (endsWith(key, "_ratio") || key == "share" || key.find("share_") == 0 || endsWith(key, "_share") ||
            key.find("_share_") != std::string::npos)
            return fmt::percent(d);
        if (endsWith(key, "_us"))
            return fmt::us(d) + " us";
        if (endsWith(key, "_ms"))
            return fmt::ms(d) + " ms";
    }
    // Structures read like the rest: an object's keys labelled, a list's items joined, long lists cut.
    constexpr size_t kItems = 6;
    if (v.is_object()) {
        std::string out;
        size_t i = 0;
        for (auto it = v.begin(); it != v.end(); ++it, ++i) {
            if (i == kItems) {
                out += ", ...";
                break;
            }
            out += (i ? ", " : "") + evidenceLabel(it.key()) + " " + evidenceValue(it.key(), it.value());
        }
        return out.empty() ? "-" : out;
    }
    if (v.is_array()) {
        const size_t all = std::max(total, v.size());
        std::string out;
        const size_t shown = std::min(v.size(), kItems);
        // Items that are themselves labelled values (a G6.6 occurrence: its elements and its nodes) are
        // bracketed: their own lists join with "; " too, and the reader must see where one item ends.
        for (size_t i = 0; i < shown; ++i) {
            const bool structured = v[i].is_object() || v[i].is_array();
            const std::string item = evidenceValue(key, v[i]);
            out += (i ? "; " : "") + (structured ? "(" + item + ")" : item);
        }
        if (all > shown)
            out += (shown ? "; ... " : "... ") + fmt::count(static_cast<int64_t>(all - shown)) + " more";
        return out.empty() ? "none" : out;
    }
    return fmt::prose(fmt::jsonText(v, kItems));
}

} // namespace bpu::report
