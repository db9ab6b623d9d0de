// SPDX-License-Identifier: MIT
// BpuScope's numbers in the column and field names of the vendor's tools (s100-facts.md, "What the vendor
// tools print"), so a user can line them up with hb_compile's node_info.csv and hbm_perf's JSON.
#include "VendorTables.h"

#include "core/analysis/LivePeak.h"

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
    // The quantize / dequantize passes the deployment leaves with no node of their own in the file (a
    // featuremap input's Quantize, an output's Dequantize, the hand-overs around a CPU op): the compiler
    // inserts them and lists them (issue 64), a quantize before the first node that reads its tensor on the
    // BPU, a dequantize after the node that writes it.
    std::map<uint32_t, std::vector<std::string>> before, after;
    std::vector<std::string> atEnd;
    for (const QdqPass& p : r.qdq) {
        if (p.node.valid())
            continue; // an explicit Q/DQ node has its own row
        const Tensor& t = g.tensor(p.tensor);
        const bool quantize = p.kind == "quantize";
        std::string dtype = std::string(dataTypeName(DataType::Float));
        NodeId at;
        if (quantize) {
            dtype = "int8";
            for (NodeId c : t.consumers)
                if (r.nodes[c.value].placement != Placement::CPU && (!at.valid() || c.value < at.value)) {
                    at = c;
                    if (r.nodes[c.value].precision == Precision::Int16)
                        dtype = "int16";
                }
        } else {
            at = t.producer;
        }
        const std::string row = csvField(t.name + (quantize ? "_quantize" : "_dequantize")) + ",CPU,--," +
                                (quantize ? "Quantize" : "Dequantize") + ",--,--," + dtype + "\n";
        if (!at.valid())
            atEnd.push_back(row);
        else
            (quantize ? before : after)[at.value].push_back(row);
    }
    std::ostringstream os;
    os << "Node,ON,Subgraph,Type,Cosine Similarity,Threshold,DataType\n";
    for (const Node& n : g.nodes) {
        for (const std::string& row : before[n.id.value])
            os << row;
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
        for (const std::string& row : after[n.id.value])
            os << row;
    }
    for (const std::string& row : atEnd)
        os << row;
    return os.str();
}

nlohmann::json perfJson(const Graph& g, const TargetProfile& t, const AnalysisResult& r,
                        const CostEstimate& e) {
    const LatencyFigures f = latencyFigures(e);
    const std::vector<BpuLayer> layers = bpuLayers(g, r, e, t);
    const double bpuUs = f.bpuMs * 1000.0;

    // Every field sits where the vendor's own reader indexes it (s100-facts.md: summary["performance"]
    // ["latency (us) by segments"] a list of numbers, summary["layer details"][i]["origin ops"] a count,
    // ...); BpuScope's own fields are in a `bpuscope` object at each level, which such a reader ignores.
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
                           {"origin ops", origin.size()},
                           {"bpuscope",
                            {{"origin_ops", origin},
                             {"segment", l.segment},
                             {"latency_us", l.latencyUs},
                             {"computing_us", l.computeUs},
                             {"load_us", l.loadUs},
                             {"store_us", l.storeUs},
                             {"loaded_bytes", l.loadBytes},
                             {"stored_bytes", l.storeBytes}}}});
    }
    nlohmann::json segmentUs = nlohmann::json::array(), segments = nlohmann::json::array();
    for (const auto& [seg, us] : bySegment) {
        segmentUs.push_back(us);
        segments.push_back({{"segment", seg}, {"latency_us", us}});
    }

    const double fps = bpuUs > 0 ? f.batch * 1e6 / bpuUs : 0;
    const nlohmann::json performance = {{"FPS", fps},
                                        {"latency (us)", bpuUs},
                                        {"latency (ms)", f.bpuMs},
                                        {"latency (us) by segments", segmentUs},
                                        {"bpuscope", {{"segments", segments}}}};
    const int64_t weights = bpuWeightBytes(g, r), activations = peakLiveActivationBytes(g, r);
    const nlohmann::json ddr = {
        {"DDR megabytes per run", double(loaded + stored) / 1e6},
        {"loaded bytes per run", loaded},
        {"stored bytes per run", stored},
        {"min memory requirement", weights + activations},
        {"bpuscope",
         {{"unit", "bytes"},
          {"weight_bytes", weights},
          {"peak_activation_bytes", activations},
          {"note",
           "min memory requirement: the BPU part's weights plus the most activation bytes live at "
           "once (every feature map a layer writes, from its producer to its last reader, padded)"}}}};
    int convs = 0;
    for (const Node& n : g.nodes)
        convs += n.domain.empty() && (n.opType == "Conv" || n.opType == "ConvTranspose");
    const nlohmann::json info = {
        {"BPU march", t.march},
        {"BPU core number", int(t.bpuCoreNumber.value)},
        {"double int8 macs", 2 * macs},
        {"original conv ops", convs},
        {"bpuscope", {{"bpu_core_number_param", "bpu_core_number"}, {"macs", macs}}}};
    return {{"bpuscope",
             {{"schema", "bpuscope.perf/2"},
              {"estimated", true},
              {"note", "BpuScope's static estimate of the BPU part, at the paths and types of the compiler's "
                       "perf JSON; not the compiler's own figures"},
              {"model", g.path},
              {"target", t.name},
              {"profile_version", t.version},
              {"batch", f.batch},
              {"board_latency_ms", f.latencyMs}}},
            {"summary",
             {{"performance", performance},
              {"DDR access data", ddr},
              {"layer details", details},
              {"model info", info}}}};
}

} // namespace bpu
