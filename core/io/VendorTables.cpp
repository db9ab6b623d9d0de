// SPDX-License-Identifier: MIT
// BpuScope's numbers in the column and field names of the vendor's tools (s100-facts.md, "What the vendor
// tools print"), so a user can line them up with hb_compile's node_info.csv and hbm_perf's JSON.
#include "VendorTables.h"

#include "core/cost/LatencyFigures.h"
#include "core/model/DataType.h"

#include <cstdio>
#include <map>
#include <sstream>

namespace bpu {

namespace {

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char ch : s)
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

/// A fused group's member other than its head: the compiler folds it into the head's layer.
bool fusedAway(const AnalysisResult& r, NodeId id) {
    const FusedGroup* grp = r.group(r.nodes[id.value].fusionGroup);
    return grp && grp->fused && grp->nodes.front() != id;
}

/// "59.0 us (8.2% of model)", as hbm_perf prints a layer's costs.
std::string costText(double us, double modelUs) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.1f us (%.1f%% of model)", us, modelUs > 0 ? 100.0 * us / modelUs : 0.0);
    return buf;
}

} // namespace

std::string nodeInfoCsv(const Graph& g, const AnalysisResult& r) {
    std::ostringstream os;
    os << "Node,ON,Subgraph,Type,Cosine Similarity,Threshold,DataType\n";
    for (const Node& n : g.nodes) {
        const NodeAnalysis& a = r.nodes[n.id.value];
        const bool away = a.placement == Placement::Folded || a.assumedFree || fusedAway(r, n.id);
        std::string on = away ? "--" : placementName(a.placement);
        std::string subgraph =
            !away && a.placement == Placement::BPU && a.segment >= 0 ? std::to_string(a.segment) : "--";
        std::string dtype = "--";
        if (!away && a.placement == Placement::BPU)
            dtype = precisionName(a.precision);
        else if (!away && !n.outputs.empty() && n.outputs[0].valid())
            dtype = std::string(dataTypeName(g.tensor(n.outputs[0]).dtype));
        os << csvField(n.name) << ',' << on << ',' << subgraph << ',' << csvField(n.opType) << ",--,--,"
           << dtype << "\n";
    }
    return os.str();
}

nlohmann::json perfJson(const Graph& g, const TargetProfile& t, const AnalysisResult& r,
                        const CostEstimate& e) {
    const LatencyFigures f = latencyFigures(e);
    const std::vector<BpuLayer> layers = bpuLayers(g, r, e, t);
    const double bpuUs = f.bpuMs * 1000.0;

    std::map<int, double> bySegment;
    int64_t loaded = 0, stored = 0, macs = 0;
    nlohmann::json details = nlohmann::json::array();
    for (const BpuLayer& l : layers) {
        bySegment[l.segment] += l.latencyUs;
        loaded += l.loadBytes;
        stored += l.storeBytes;
        nlohmann::json origin = nlohmann::json::array();
        for (NodeId m : l.members) {
            origin.push_back(g.node(m).name);
            macs += r.nodes[m.value].macs;
        }
        details.push_back({{"layer name", g.node(l.head).name},
                           {"active period of time", costText(l.latencyUs, bpuUs)},
                           {"computing cost (no DDR)", costText(l.computeUs, bpuUs)},
                           {"load cost", costText(l.loadUs, bpuUs)},
                           {"store cost", costText(l.storeUs, bpuUs)},
                           {"origin ops", origin},
                           {"bpuscope",
                            {{"segment", l.segment},
                             {"latency_us", l.latencyUs},
                             {"computing_us", l.computeUs},
                             {"load_us", l.loadUs},
                             {"store_us", l.storeUs},
                             {"loaded_bytes", l.loadBytes},
                             {"stored_bytes", l.storeBytes}}}});
    }
    nlohmann::json segments = nlohmann::json::array();
    for (const auto& [seg, us] : bySegment)
        segments.push_back({{"segment", seg}, {"latency (us)", us}, {"latency (ms)", us / 1000.0}});

    const double fps = bpuUs > 0 ? f.batch * 1e6 / bpuUs : 0;
    nlohmann::json performance = {
        {"FPS", fps}, {"latency (us)", bpuUs}, {"latency (ms)", f.bpuMs}, {"latency by segments", segments}};
    nlohmann::json ddr = {{"DDR megabytes per run", double(loaded + stored) / 1e6},
                          {"loaded bytes per run", loaded},
                          {"stored bytes per run", stored}};
    nlohmann::json info = {{"BPU march", t.march}, {"double int8 macs", 2 * macs}};
    return {
        {"bpuscope",
         {{"schema", "bpuscope.perf/1"},
          {"estimated", true},
          {"note", "BpuScope's static estimate of the BPU part, in the field names of the compiler's perf "
                   "JSON; not the compiler's own figures"},
          {"model", g.path},
          {"target", t.name},
          {"profile_version", t.version},
          {"batch", f.batch},
          {"board_latency_ms", f.latencyMs}}},
        {"summary", {{"performance", performance}, {"DDR access data", ddr}}},
        {"layer details", details},
        {"model info", info}};
}

} // namespace bpu
