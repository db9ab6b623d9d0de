// SPDX-License-Identifier: MIT
#include "TargetProfile.h"

#include "core/util/JsonFile.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace bpu {

namespace {

using json = nlohmann::json;

struct ParamKey {
    const char* key;
    Param TargetProfile::*member;
    double min, max; ///< the physical range; a value outside it (or not finite) is refused naming the key
};

// Every scalar parameter: its JSON key and the range a real chip can have. A zero where the cost model
// divides (bandwidth, clock, TOPS, rates, efficiencies) has no physical meaning and would give infinite
// latencies, so those ranges start above zero. Adding a parameter means one line here and its value in the
// profiles.
const ParamKey kParamKeys[] = {
    {"peak_int8_tops", &TargetProfile::peakInt8Tops, 0.01, 1e5},
    {"bpu_clock_ghz", &TargetProfile::bpuClockGhz, 0.01, 100},
    {"int16_throughput_factor", &TargetProfile::int16ThroughputFactor, 0.01, 1},
    {"ddr_bandwidth_gbs", &TargetProfile::ddrBandwidthGBs, 0.01, 1e5},
    {"ddr_effective_fraction", &TargetProfile::ddrEffectiveFraction, 0.01, 1},
    {"sram_budget_bytes", &TargetProfile::sramBudgetBytes, 0, 1e12},
    {"bpu_core_number", &TargetProfile::bpuCoreNumber, 1, 64},
    {"dense_conv_efficiency", &TargetProfile::denseConvEfficiency, 0.001, 1},
    {"group_conv_efficiency", &TargetProfile::groupConvEfficiency, 0.001, 1},
    {"matmul_efficiency", &TargetProfile::matmulEfficiency, 0.001, 1},
    {"vector_elements_per_cycle", &TargetProfile::vectorElementsPerCycle, 0.01, 1e6},
    {"transform_elements_per_cycle", &TargetProfile::transformElementsPerCycle, 0.01, 1e6},
    {"load_compute_overlap", &TargetProfile::loadComputeOverlap, 0, 1},
    {"layer_fixed_cycles", &TargetProfile::layerFixedCycles, 0, 1e9},
    {"runtime_fixed_us", &TargetProfile::runtimeFixedUs, 0, 1e9},
    {"quantized_conv_output_bytes", &TargetProfile::quantizedConvOutputBytes, 1, 8},
    {"thread_overlap", &TargetProfile::threadOverlap, 0, 1},
    {"matmul_act_efficiency", &TargetProfile::matmulActEfficiency, 0.0001, 1},
    {"softmax_vector_passes", &TargetProfile::softmaxVectorPasses, 0.01, 1e3},
    {"requantize_vector_passes", &TargetProfile::requantizeVectorPasses, 0.01, 1e3},
    {"input_conversion_passes", &TargetProfile::inputConversionPasses, 0.01, 1e3},
    {"cpu_gflops", &TargetProfile::cpuGflops, 0.001, 1e6},
    {"cpu_bandwidth_gbs", &TargetProfile::cpuBandwidthGBs, 0.001, 1e5},
    {"qdq_elements_per_us", &TargetProfile::qdqElementsPerUs, 0.001, 1e9},
    {"cpu_bpu_switch_us", &TargetProfile::cpuBpuSwitchUs, 0, 1e9},
    {"reduce_axis_limit", &TargetProfile::reduceAxisLimit, 1, 1e12},
    {"small_input_max", &TargetProfile::smallInputMax, 0, 1e9},
    {"large_weight_bytes", &TargetProfile::largeWeightBytes, 0, 1e15},
    {"large_feature_map_bytes", &TargetProfile::largeFeatureMapBytes, 0, 1e15},
    {"shortcut_steps_limit", &TargetProfile::shortcutStepsLimit, 0, 1e9},
    {"padding_finding_ratio", &TargetProfile::paddingFindingRatio, 0, 1},
    {"detection_keep_candidates", &TargetProfile::detectionKeepCandidates, 0, 1e9},
    {"groupconv_min_channels", &TargetProfile::groupConvMinChannels, 0, 1e9},
    {"stream_window_steps", &TargetProfile::streamWindowSteps, 0, 1e9},
    {"severity_high_share", &TargetProfile::severityHighShare, 0, 1},
    {"severity_medium_share", &TargetProfile::severityMediumShare, 0, 1},
    {"batch_weight_share_min", &TargetProfile::batchWeightShareMin, 0, 1},
    {"activation_share_min", &TargetProfile::activationShareMin, 0, 1},
    {"plan_max_steps", &TargetProfile::planMaxSteps, 0, 1000},
    {"finding_min_gain_us", &TargetProfile::findingMinGainUs, 0, 1e6},
    {"findings_max", &TargetProfile::findingsMax, 1, 1000},
    {"resolution_search_range", &TargetProfile::resolutionSearchRange, 0, 0.9},
    {"resolution_search_max_trials", &TargetProfile::resolutionSearchMaxTrials, 0, 1000},
    {"reexport_trials", &TargetProfile::reexportTrials, 0, 1000},
    {"sweep_node_budget", &TargetProfile::sweepNodeBudget, 0, 1e12},
};

// Alignment units in elements: a tensor dim is rounded up to a multiple of one.
const struct {
    const char* key;
    Param AlignmentRules::*member;
    double min, max;
} kAlignKeys[] = {
    {"conv_h", &AlignmentRules::convH, 1, 4096},
    {"conv_w", &AlignmentRules::convW, 1, 4096},
    {"conv_c", &AlignmentRules::convC, 1, 4096},
    {"general_max_unit", &AlignmentRules::generalMaxUnit, 1, 4096},
    {"input_c_max", &AlignmentRules::inputCMax, 1, 4096},
    {"input_h", &AlignmentRules::inputH, 1, 4096},
    {"input_w", &AlignmentRules::inputW, 1, 4096},
};

class Reader {
public:
    explicit Reader(std::string file)
        : file_(std::move(file)) {}

    [[noreturn]] void fail(const std::string& key, const std::string& what) const {
        throw std::runtime_error(file_ + ": key '" + key + "': " + what);
    }

    /// "where.key", or "key" at the top level.
    static std::string join(const std::string& where, const std::string& key) {
        return where.empty() ? key : where + "." + key;
    }

    const json& member(const json& obj, const std::string& key, const std::string& where) const {
        auto it = obj.find(key);
        if (it == obj.end())
            fail(join(where, key), "missing");
        return *it;
    }

    std::string str(const json& obj, const std::string& key, const std::string& where) const {
        const json& v = member(obj, key, where);
        if (!v.is_string())
            fail(join(where, key), "expected a string");
        return v.get<std::string>();
    }

    /// The note of a parameter or operator group: exactly one of "source" / "estimate", a non-empty string.
    std::pair<std::string, bool> note(const json& obj, const std::string& where) const {
        bool hasSource = obj.contains("source"), hasEstimate = obj.contains("estimate");
        if (hasSource == hasEstimate)
            fail(where, "needs exactly one of 'source' or 'estimate'");
        const char* key = hasSource ? "source" : "estimate";
        const json& v = obj[key];
        if (!v.is_string() || v.get<std::string>().empty())
            fail(join(where, key), "expected a non-empty string");
        return {v.get<std::string>(), hasEstimate};
    }

    void onlyKeys(const json& obj, const std::set<std::string>& allowed, const std::string& where) const {
        if (!obj.is_object())
            fail(where, "expected an object");
        for (auto it = obj.begin(); it != obj.end(); ++it)
            if (!allowed.count(it.key()))
                fail(join(where, it.key()), "unknown key");
    }

    Param param(const json& obj, const std::string& key, const std::string& where, double min,
                double max) const {
        const std::string path = join(where, key);
        const json& p = member(obj, key, where);
        onlyKeys(p, {"value", "source", "estimate", "identified"}, path);
        const json& v = member(p, "value", path);
        if (!v.is_number())
            fail(path + ".value", "expected a number");
        Param out;
        out.value = v.get<double>();
        std::tie(out.note, out.estimate) = note(p, path);
        if (const auto id = p.find("identified"); id != p.end()) {
            if (!id->is_boolean())
                fail(path + ".identified", "expected true or false");
            out.identified = id->get<bool>();
        }
        if (!std::isfinite(out.value) || out.value < min || out.value > max) {
            std::ostringstream range;
            range << "is " << out.value << "; it must be in [" << min << ", " << max << "]";
            fail(path + ".value", range.str());
        }
        return out;
    }

    std::vector<std::string> strings(const json& v, const std::string& where) const {
        if (!v.is_array())
            fail(where, "expected an array of strings");
        std::vector<std::string> out;
        for (const auto& s : v) {
            if (!s.is_string())
                fail(where, "expected an array of strings");
            out.push_back(s.get<std::string>());
        }
        return out;
    }

private:
    std::string file_;
};

} // namespace

TargetProfile parseTargetProfile(const json& doc, const std::string& file) {
    Reader r(file);
    r.onlyKeys(doc,
               {"schema", "name", "display_name", "version", "march", "params", "alignment", "operators",
                "fusion_patterns", "assumptions", "comment"},
               "");
    if (r.str(doc, "schema", "") != "bpuscope.target/1")
        r.fail("schema", "expected \"bpuscope.target/1\"");
    TargetProfile t;
    t.sourcePath = file;
    t.name = r.str(doc, "name", "");
    t.displayName = r.str(doc, "display_name", "");
    t.version = r.str(doc, "version", "");
    t.march = r.str(doc, "march", "");

    const json& params = r.member(doc, "params", "");
    std::set<std::string> allowed;
    for (const auto& k : kParamKeys)
        allowed.insert(k.key);
    r.onlyKeys(params, allowed, "params");
    for (const auto& k : kParamKeys)
        t.*(k.member) = r.param(params, k.key, "params", k.min, k.max);
    if (t.severityMediumShare.value > t.severityHighShare.value) {
        std::ostringstream why;
        why << "is " << t.severityMediumShare.value << "; it must not exceed params.severity_high_share ("
            << t.severityHighShare.value << "): a medium finding cannot need a larger share than a high one";
        r.fail("params.severity_medium_share.value", why.str());
    }

    const json& align = r.member(doc, "alignment", "");
    std::set<std::string> alignAllowed;
    for (const auto& k : kAlignKeys)
        alignAllowed.insert(k.key);
    r.onlyKeys(align, alignAllowed, "alignment");
    for (const auto& k : kAlignKeys)
        t.alignment.*(k.member) = r.param(align, k.key, "alignment", k.min, k.max);

    const json& ops = r.member(doc, "operators", "");
    if (!ops.is_array())
        r.fail("operators", "expected an array of operator groups");
    for (size_t i = 0; i < ops.size(); ++i) {
        const std::string where = "operators[" + std::to_string(i) + "]";
        const json& grp = ops[i];
        r.onlyKeys(grp, {"class", "placement", "align", "ops", "source", "estimate", "max_reduce_axis"},
                   where);
        OpRule rule;
        const std::string cls = r.str(grp, "class", where);
        if (const auto c = parseOpClass(cls))
            rule.opClass = *c;
        else
            r.fail(where + ".class", "unknown class '" + cls + "'");
        const std::string placement = r.str(grp, "placement", where);
        if (placement != "BPU" && placement != "CPU" && placement != "folded")
            r.fail(where + ".placement", "expected BPU, CPU or folded");
        rule.placement = *parsePlacement(placement);
        rule.align = r.str(grp, "align", where);
        if (rule.align != "conv" && rule.align != "general")
            r.fail(where + ".align", "expected conv or general");
        if (grp.contains("max_reduce_axis")) {
            if (!grp["max_reduce_axis"].is_number_integer())
                r.fail(where + ".max_reduce_axis", "expected an integer");
            rule.maxReduceAxis = grp["max_reduce_axis"].get<int64_t>();
            if (rule.maxReduceAxis < 0)
                r.fail(where + ".max_reduce_axis", "must not be negative (0: no limit)");
        }
        auto [text, estimate] = r.note(grp, where);
        rule.note = (estimate ? "estimate: " : "source: ") + text;
        for (const auto& op : r.strings(r.member(grp, "ops", where), where + ".ops")) {
            if (t.operators.count(op))
                r.fail(where + ".ops", "operator '" + op + "' is listed twice");
            t.operators[op] = rule;
        }
    }

    const json& fusion = r.member(doc, "fusion_patterns", "");
    if (!fusion.is_array())
        r.fail("fusion_patterns", "expected an array");
    for (size_t i = 0; i < fusion.size(); ++i) {
        const std::string where = "fusion_patterns[" + std::to_string(i) + "]";
        const json& f = fusion[i];
        r.onlyKeys(f, {"name", "head", "then", "source"}, where);
        FusionPattern p;
        p.name = r.str(f, "name", where);
        p.head = r.strings(r.member(f, "head", where), where + ".head");
        const json& then = r.member(f, "then", where);
        if (!then.is_array())
            r.fail(where + ".then", "expected an array of op-type sets");
        for (size_t s = 0; s < then.size(); ++s)
            p.then.push_back(r.strings(then[s], where + ".then[" + std::to_string(s) + "]"));
        p.note = r.str(f, "source", where);
        t.fusionPatterns.push_back(std::move(p));
    }

    if (const auto as = doc.find("assumptions"); as != doc.end()) {
        if (!as->is_array())
            r.fail("assumptions", "expected an array");
        std::set<std::string> ids;
        for (size_t i = 0; i < as->size(); ++i) {
            const std::string where = "assumptions[" + std::to_string(i) + "]";
            const json& a = (*as)[i];
            r.onlyKeys(a, {"id", "text", "source"}, where);
            Assumption out;
            out.id = r.str(a, "id", where);
            out.text = r.str(a, "text", where);
            out.source = r.str(a, "source", where);
            if (out.id.empty() || out.text.empty() || out.source.empty())
                r.fail(where, "id, text and source must be non-empty (source: a citation or \"none\")");
            if (!ids.insert(out.id).second)
                r.fail(where + ".id", "'" + out.id + "' is given twice");
            t.assumptions.push_back(std::move(out));
        }
    }
    return t;
}

const Assumption* TargetProfile::assumption(const std::string& id) const {
    for (const Assumption& a : assumptions)
        if (a.id == id)
            return &a;
    return nullptr;
}

const OpRule* TargetProfile::rule(const std::string& opType) const {
    auto it = operators.find(opType);
    return it == operators.end() ? nullptr : &it->second;
}

std::vector<TargetProfile::NamedParam> TargetProfile::parameters() const {
    std::vector<NamedParam> out;
    for (const auto& k : kParamKeys)
        out.push_back({k.key, &(this->*(k.member))});
    for (const auto& k : kAlignKeys)
        out.push_back({std::string("alignment.") + k.key, &(alignment.*(k.member))});
    return out;
}

std::vector<std::pair<std::string, std::string>> builtinTargets() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const char* n : {"s100", "s100p"})
        out.emplace_back(n, resourceDir() + "/targets/" + n + ".json");
    return out;
}

TargetProfile loadTargetProfile(const std::string& nameOrPath) {
    std::string file = nameOrPath;
    for (const auto& [n, path] : builtinTargets())
        if (n == nameOrPath)
            file = path;
    if (file == nameOrPath && file.find(".json") == std::string::npos && file.find('/') == std::string::npos)
        throw std::runtime_error(nameOrPath +
                                 ": unknown target (built-ins: s100, s100p; or a path to a .json "
                                 "profile)");
    const json doc = readJsonFile(file, {"target profile", file_limits::kJson});
    try {
        return parseTargetProfile(doc, file);
    } catch (const json::exception& e) {
        throw std::runtime_error(file + ": " + e.what());
    }
}

} // namespace bpu
