// SPDX-License-Identifier: MIT
// bpuscope.compare/1 and the per-node CSV of `bpuscope-cli compare`.
#include "CompareOutput.h"

#include <sstream>

namespace bpu {

namespace {

nlohmann::json dims(const std::vector<int64_t>& d) {
    return d.empty() ? nlohmann::json(nullptr) : nlohmann::json(d);
}

std::string dimsText(const std::vector<int64_t>& d) {
    std::string s;
    for (size_t i = 0; i < d.size(); ++i)
        s += (i ? "x" : "") + (d[i] < 0 ? std::string("?") : std::to_string(d[i]));
    return s;
}

nlohmann::json sideJson(const CompareSide& s) {
    const LatencyFigures& f = s.figures;
    return {{"path", s.path},
            {"target", s.target},
            {"latency_ms", f.latencyMs},
            {"bpu_ms", f.bpuMs},
            {"fps", f.fps},
            {"batch", f.batch},
            {"nodes", s.nodes},
            {"bpu_nodes", s.bpuNodes},
            {"cpu_nodes", s.cpuNodes},
            {"bpu_segments", s.bpuSegments},
            {"padding_waste_bytes", s.paddingWasteBytes},
            {"padding_waste_ratio", s.paddingWasteRatio},
            {"findings", s.findings},
            {"complete", s.partial.empty()},
            {"partial_summary", s.partial}};
}

nlohmann::json pairOf(const nlohmann::json& a, const nlohmann::json& b) {
    return {{"a", a}, {"b", b}};
}

nlohmann::json unmatchedJson(const UnmatchedNode& u) {
    return {{"name", u.facts.name},
            {"op", u.op},
            {"placement", placementName(u.facts.placement)},
            {"output_shape", dims(u.facts.shape)},
            {"latency_us", u.facts.latencyUs}};
}

nlohmann::json findingsJson(const std::vector<FindingChange>& list) {
    nlohmann::json a = nlohmann::json::array();
    for (const FindingChange& f : list)
        a.push_back({{"rule", f.rule}, {"severity", f.severity}, {"title", f.title}, {"nodes", f.nodes}});
    return a;
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char ch : s)
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

} // namespace

nlohmann::json comparisonJson(const Comparison& c) {
    const CompareSide &a = c.a, &b = c.b;
    nlohmann::json summary = {{"latency_ms_delta", c.latencyMsDelta()},
                              {"bpu_ms_delta", c.bpuMsDelta()},
                              {"fps_delta", c.fpsDelta()},
                              {"cpu_nodes_delta", b.cpuNodes - a.cpuNodes},
                              {"bpu_nodes_delta", b.bpuNodes - a.bpuNodes},
                              {"bpu_segments_delta", b.bpuSegments - a.bpuSegments},
                              {"padding_waste_bytes_delta", b.paddingWasteBytes - a.paddingWasteBytes},
                              {"padding_waste_ratio_delta", b.paddingWasteRatio - a.paddingWasteRatio},
                              {"findings_delta", b.findings - a.findings},
                              {"findings_added", c.findingsAdded.size()},
                              {"findings_removed", c.findingsRemoved.size()},
                              {"matched", c.nodes.size()},
                              {"matched_by_name", c.matchedByName},
                              {"matched_by_structure", c.matchedByStructure},
                              {"unmatched_a", c.unmatchedA.size()},
                              {"unmatched_b", c.unmatchedB.size()},
                              {"placement_changes", c.placementChanges},
                              {"shape_changes", c.shapeChanges},
                              {"padding_changes", c.paddingChanges}};
    nlohmann::json nodes = nlohmann::json::array();
    for (const NodeDelta& d : c.nodes)
        nodes.push_back(
            {{"a", d.inA.name},
             {"b", d.inB.name},
             {"op", d.op},
             {"matched_by", matchKindName(d.how)},
             {"placement", pairOf(placementName(d.inA.placement), placementName(d.inB.placement))},
             {"placement_changed", d.placementChanged()},
             {"output_shape", pairOf(dims(d.inA.shape), dims(d.inB.shape))},
             {"shape_changed", d.shapeChanged()},
             {"padded_output_shape", pairOf(dims(d.inA.paddedShape), dims(d.inB.paddedShape))},
             {"padding_waste_bytes", pairOf(d.inA.paddingWasteBytes, d.inB.paddingWasteBytes)},
             {"padding_changed", d.paddingChanged()},
             {"latency_us", pairOf(d.inA.latencyUs, d.inB.latencyUs)},
             {"latency_us_delta", d.latencyDeltaUs()}});
    nlohmann::json ua = nlohmann::json::array(), ub = nlohmann::json::array();
    for (const UnmatchedNode& u : c.unmatchedA)
        ua.push_back(unmatchedJson(u));
    for (const UnmatchedNode& u : c.unmatchedB)
        ub.push_back(unmatchedJson(u));
    return {{"schema", "bpuscope.compare/1"},
            {"complete", c.a.partial.empty() && c.b.partial.empty()},
            {"a", sideJson(a)},
            {"b", sideJson(b)},
            {"summary", summary},
            {"nodes", nodes},
            {"unmatched", {{"a", ua}, {"b", ub}}},
            {"findings",
             {{"added", findingsJson(c.findingsAdded)}, {"removed", findingsJson(c.findingsRemoved)}}}};
}

std::string comparisonCsv(const Comparison& c) {
    std::ostringstream os;
    os << "a_name,b_name,op,matched_by,placement_a,placement_b,output_shape_a,output_shape_b,padded_shape_a,"
          "padded_shape_b,padding_waste_bytes_a,padding_waste_bytes_b,latency_us_a,latency_us_b,"
          "latency_us_delta\n";
    for (const NodeDelta& d : c.nodes)
        os << csvField(d.inA.name) << ',' << csvField(d.inB.name) << ',' << csvField(d.op) << ','
           << matchKindName(d.how) << ',' << placementName(d.inA.placement) << ','
           << placementName(d.inB.placement) << ',' << dimsText(d.inA.shape) << ',' << dimsText(d.inB.shape)
           << ',' << dimsText(d.inA.paddedShape) << ',' << dimsText(d.inB.paddedShape) << ','
           << d.inA.paddingWasteBytes << ',' << d.inB.paddingWasteBytes << ',' << d.inA.latencyUs << ','
           << d.inB.latencyUs << ',' << d.latencyDeltaUs() << "\n";
    for (const UnmatchedNode& u : c.unmatchedA) {
        const NodeFacts& f = u.facts;
        os << csvField(f.name) << ",," << csvField(u.op) << ",unmatched," << placementName(f.placement)
           << ",," << dimsText(f.shape) << ",," << dimsText(f.paddedShape) << ",," << f.paddingWasteBytes
           << ",," << f.latencyUs << ",," << -f.latencyUs << "\n";
    }
    for (const UnmatchedNode& u : c.unmatchedB) {
        const NodeFacts& f = u.facts;
        os << ',' << csvField(f.name) << ',' << csvField(u.op) << ",unmatched,," << placementName(f.placement)
           << ",," << dimsText(f.shape) << ",," << dimsText(f.paddedShape) << ",," << f.paddingWasteBytes
           << ",," << f.latencyUs << ',' << f.latencyUs << "\n";
    }
    return os.str();
}

std::string comparisonPartial(const Comparison& c) {
    std::string out;
    for (const auto& [label, side] : {std::pair{"A", &c.a}, std::pair{"B", &c.b}})
        if (!side->partial.empty())
            out += (out.empty() ? "" : "; ") + std::string(label) + " (" + side->path + "): " + side->partial;
    return out;
}

} // namespace bpu
