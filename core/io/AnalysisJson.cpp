// SPDX-License-Identifier: MIT
#include "AnalysisJson.h"
#include "JsonMembers.h"
#include "JsonPretty.h"

#include "InfoJson.h"
#include "core/analysis/Alignment.h"
#include "core/analysis/ResultDiagnostics.h"
#include "core/cost/CostEstimate.h"
#include "core/deploy/DeployJson.h"
#include "core/edit/EditList.h"
#include "core/edit/Session.h"
#include "core/report/ChartData.h"
#include "core/report/DiagnosticsJson.h"

#include <sstream>

namespace bpu {

namespace {

nlohmann::json nodeNames(const Graph& g, const std::vector<NodeId>& ids) {
    nlohmann::json a = nlohmann::json::array();
    for (NodeId id : ids)
        a.push_back(g.node(id).name);
    return a;
}

struct Row {
    std::string name, op, placement, reason, bound, group, outShape, paddedShape;
    int64_t macs, paddedMacs, inBytes, outBytes, weightBytes, waste;
    double intensity;
    bool hasCost;
    double latencyUs, share;
};

Row rowOf(const Graph& g, const AnalysisResult& r, const CostEstimate* cost, const Node& n) {
    const NodeAnalysis& a = r.nodes[n.id.value];
    Row row;
    row.name = n.name;
    row.op = n.opType;
    row.placement = placementName(a.placement);
    row.reason = a.placementReason.str();
    row.bound = boundName(a.bound);
    row.group = a.fusionGroup.valid()
                    ? r.groups[a.fusionGroup.value].pattern + "#" + std::to_string(a.fusionGroup.value)
                    : "";
    row.macs = a.macs;
    row.paddedMacs = a.paddedMacs;
    row.inBytes = a.inputBytes;
    row.outBytes = a.outputBytes;
    row.weightBytes = a.weightBytes;
    row.intensity = a.intensity;
    TensorId out = n.outputs.empty() ? TensorId{} : n.outputs[0];
    if (out.valid()) {
        row.outShape = g.tensor(out).shape.toString();
        const PaddedShape& p = r.tensors[out.value].padded;
        row.paddedShape = p.applies ? std::string() : row.outShape;
        if (p.applies) {
            for (size_t i = 0; i < p.dims.size(); ++i)
                row.paddedShape += (i ? "x" : "") + std::to_string(p.dims[i]);
        }
    }
    row.waste = report::nodeWasteBytes(g, r, n.id);
    row.hasCost = cost != nullptr;
    row.latencyUs = cost ? cost->nodes[n.id.value].latencyUs : 0;
    row.share = cost ? cost->nodes[n.id.value].share : 0;
    return row;
}

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\n\r") == std::string::npos)
        return s;
    std::string out = "\"";
    for (char ch : s)
        out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return out + "\"";
}

} // namespace

nlohmann::json targetJson(const TargetProfile& t) {
    nlohmann::json params = nlohmann::json::object();
    for (const auto& p : t.parameters())
        params[p.key] = {{"value", p.param->value},
                         {p.param->estimate ? "estimate" : "source", p.param->note}};
    return {{"name", t.name},   {"display_name", t.displayName}, {"version", t.version},
            {"march", t.march}, {"file", t.sourcePath},          {"ridge_macs_per_byte", t.ridgeIntensity()},
            {"params", params}};
}

namespace {

nlohmann::json fixEffectsJson(const FixEffects& fx) {
    nlohmann::json costs = nlohmann::json::array();
    for (EditCost c : fx.costs.list())
        costs.push_back(editCostName(c));
    return {{"costs", std::move(costs)}, {"macs_change", fx.macsChange}, {"params_change", fx.paramsChange}};
}

nlohmann::json partsJson(const Graph& g, const std::vector<FindingPart>& parts) {
    auto orNull = [](const std::optional<double>& v) {
        return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    };
    nlohmann::json out = nlohmann::json::array();
    for (const auto& p : parts)
        out.push_back({{"rule", ruleName(p.rule)},
                       {"cause", p.cause},
                       {"title", p.title},
                       {"nodes", nodeNames(g, p.nodes)},
                       {"estimated_gain_ms", orNull(p.estimatedGainMs)},
                       {"waste_upper_bound_ms", orNull(p.wasteUpperBoundMs)}});
    return out;
}

/// What a finding's gain rests on (issue 62): each profile key and assumption, and whether it is weak.
nlohmann::json restsOnJson(const std::vector<RestsOn>& r) {
    nlohmann::json out = nlohmann::json::array();
    for (const RestsOn& x : r)
        out.push_back({{"kind", x.kind == RestsOn::Kind::Parameter ? "parameter" : "assumption"},
                       {"id", x.id},
                       {"weak", x.weak},
                       {"why", x.weak ? (x.kind == RestsOn::Kind::Parameter
                                             ? "not identified by the calibration (docs/calibration.md)"
                                             : "no published source states it")
                                      : ""},
                       {"note", x.note}});
    return out;
}

} // namespace

nlohmann::json findingJson(const Graph& g, const Finding& f) {
    // The typed edits become the edit-list JSON here (an --edits file's form); none is null. The fix (a
    // concrete change, its gain and its costs) and the what-if (an idealized edit, the cost of the waste)
    // are kept apart.
    nlohmann::json evidence = f.evidence;
    if (!f.alternativeFix.empty())
        evidence["alternative_fix"] = editListToJson(f.alternativeFix);
    auto orNull = [](const std::optional<double>& v) {
        return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    };
    return {{"rule", ruleName(f.rule)},
            {"severity", severityName(f.severity)},
            {"cause", f.cause},
            {"title", f.title},
            {"nodes", nodeNames(g, f.nodes)},
            {"evidence", std::move(evidence)},
            {"recommendation", f.recommendation},
            {"concrete_fix", !f.fix.empty()},
            {"fix", f.fix.empty() ? nlohmann::json(nullptr) : editListToJson(f.fix)},
            {"estimated_gain_ms", orNull(f.estimatedGainMs)},
            {"fps_gain", orNull(f.fpsGain)},
            {"fix_effects", f.fixEffects ? fixEffectsJson(*f.fixEffects) : nlohmann::json(nullptr)},
            {"what_if", f.whatIf.empty() ? nlohmann::json(nullptr) : editListToJson(f.whatIf)},
            {"waste_upper_bound_ms", orNull(f.wasteUpperBoundMs)},
            {"rests_on", restsOnJson(f.restsOn)},
            {"unproven", anyWeak(f.restsOn)},
            {"unavoidable", f.unavoidable},
            {"also", partsJson(g, f.also)},
            {"occurrences", partsJson(g, f.occurrences)}};
}

nlohmann::json costSummaryJson(const CostEstimate& c) {
    return {
        {"bpu_ms", c.bpuMs},
        {"latency_ms", c.latencyMs},
        {"fps", c.fps},
        {"fps_by_threads", {{"1", c.fpsByThreads[0]}, {"2", c.fpsByThreads[1]}}},
        {"batch", c.batch},
        {"figures",
         {{"bpu_ms",
           "BPU (static): the BPU's time alone, comparable with the compiler's static estimate (hbm_perf)"},
          {"latency_ms",
           "board, 1 thread: comparable with hrt_model_exec perf --thread_num 1 under the deployment"},
          {"fps_by_threads", "throughput with 1 and 2 inference threads on the one BPU core (hrt_model_exec "
                             "perf --thread_num 1|2)"}}},
        {"runtime_io_bytes", c.runtimeIoBytes},
        {"latency_breakdown_us",
         {{"bpu", c.bpuUs},
          {"cpu", c.cpuUs},
          {"qdq", c.qdqUs},
          {"transitions", c.transitionUs},
          {"runtime_overhead", c.runtimeUs}}}};
}

namespace {

/// One cost row's members into `w`, in key order (costRowsJson's entries, and the streamed cost_rows).
template <class Sink> void costRowMembers(Sink& w, const Graph& g, const CostEstimate& c, size_t i) {
    const CostRow& row = c.rows[i];
    w.integer("elements", row.elements);
    w.str("formula", row.formula);
    w.str("kind", costRowKindKey(row.kind));
    w.str("label", row.label);
    w.number("latency_share", c.totalUs > 0 ? row.us / c.totalUs : 0.0);
    w.number("latency_us", row.us);
    if (row.node.valid())
        w.str("node", g.node(row.node).name);
    else
        w.null("node");
    w.boolean("on_bpu", row.onBpu);
    if (row.tensor.valid())
        w.str("tensor", g.tensor(row.tensor).name);
    else
        w.null("tensor");
}

nlohmann::json costRowJson(const Graph& g, const CostEstimate& c, size_t i) {
    JsonObjectBuilder b;
    costRowMembers(b, g, c, i);
    return b.take();
}

} // namespace

nlohmann::json costRowsJson(const Graph& g, const CostEstimate& c) {
    nlohmann::json rows = nlohmann::json::array();
    for (size_t i = 0; i < c.rows.size(); ++i)
        rows.push_back(costRowJson(g, c, i));
    return rows;
}

namespace {

/// One node's members into `w` (JsonMembers.h), in key order: the document (nodeJson) and the streamed
/// table (writeSessionJson) both list them here.
template <class Sink>
void nodeMembers(Sink& w, const Graph& g, const AlignmentRules& al, const AnalysisResult& r,
                 const CostEstimate* cost, NodeId id) {
    const Node& n = g.node(id);
    const NodeAnalysis& a = r.nodes[id.value];
    const TensorId out = n.outputs.empty() ? TensorId{} : n.outputs[0];
    const PaddedShape* padded = out.valid() ? &r.tensors[out.value].padded : nullptr;
    const bool pads = padded && padded->applies;
    w.str("bound", boundName(a.bound));
    w.number("compute_us", a.computeUs);
    w.integer("ddr_bytes", a.ddrBytes);
    if (a.fusionGroup.valid())
        w.integer("fusion_group", a.fusionGroup.value);
    else
        w.null("fusion_group");
    w.integer("input_bytes", a.inputBytes);
    w.number("intensity", a.intensity);
    if (cost) {
        w.number("latency_share", cost->nodes[id.value].share);
        w.number("latency_us", cost->nodes[id.value].latencyUs);
    }
    w.integer("macs", a.macs);
    w.number("memory_us", a.memoryUs);
    w.str("name", n.name);
    w.str("op", n.opType);
    w.str("op_class", opClassName(a.opClass));
    w.integer("ops", a.ops);
    w.integer("output_bytes", a.outputBytes);
    if (out.valid())
        w.ints("output_shape", g.tensor(out).shape.dims);
    else
        w.null("output_shape");
    w.strings("padded_dims",
              padded ? dimPadRules(*padded, g.tensor(out).shape.dims, al) : std::vector<std::string>{});
    w.integer("padded_macs", a.paddedMacs);
    if (pads) {
        w.ints("padded_output_shape", padded->dims);
        w.str("padding_rule", padRuleName(padded->rule));
    } else {
        w.null("padded_output_shape");
        w.null("padding_rule");
    }
    w.integer("padding_waste_bytes", report::nodeWasteBytes(g, r, id));
    w.str("placement", placementName(a.placement));
    w.str("placement_reason", a.placementReason.str());
    w.str("precision", precisionName(a.precision));
    w.boolean("saturated", r.metrics[id.value].saturated);
    w.integer("segment", a.segment);
    w.integer("weight_bytes", a.weightBytes);
}

nlohmann::json nodeJson(const Graph& g, const AlignmentRules& al, const AnalysisResult& r,
                        const CostEstimate* cost, NodeId id) {
    JsonObjectBuilder b;
    nodeMembers(b, g, al, r, cost, id);
    return b.take();
}

/// One fused group's members into `w`, in key order.
template <class Sink> void groupMembers(Sink& w, const Graph& g, const FusedGroup& grp) {
    std::vector<std::string> names;
    names.reserve(grp.nodes.size());
    for (NodeId id : grp.nodes)
        names.push_back(g.node(id).name);
    w.boolean("fused", grp.fused);
    w.integer("id", grp.id.value);
    w.strings("nodes", names);
    w.str("pattern", grp.pattern);
}

nlohmann::json groupJson(const Graph& g, const FusedGroup& grp) {
    JsonObjectBuilder b;
    groupMembers(b, g, grp);
    return b.take();
}

/// analysisJson without its two tables of one entry per node or group (`nodes`, `fusion_groups`), which
/// hold null: the caller fills them, or streams them (writeSessionJson).
nlohmann::json analysisHead(const Graph& g, const TargetProfile& t, const AnalysisResult& r,
                            const CostEstimate* cost, const DeploySettings* deploy) {
    const auto& s = r.summary;
    nlohmann::json summary = {{"bpu_nodes", s.bpuNodes},
                              {"cpu_nodes", s.cpuNodes},
                              {"folded_nodes", s.foldedNodes},
                              {"bpu_segments", s.bpuSegments},
                              {"cpu_bpu_transitions", s.cpuBpuTransitions},
                              {"post_processing_nodes", s.postProcessingNodes},
                              {"qdq_nodes", s.qdqNodes},
                              {"qdq_passes", s.qdqPasses},
                              {"qdq_elements", s.qdqElements},
                              {"padding_waste_bytes", s.paddingWasteBytes},
                              {"padding_waste_ratio", s.paddingWasteRatio},
                              {"fused_groups", s.fusedGroups},
                              {"missed_fusions", s.missedFusions},
                              {"unknown_ops", s.unknownOps},
                              {"qdq_format", r.qdqFormat},
                              {"ridge_macs_per_byte", r.ridgeIntensity}};
    if (cost) {
        const nlohmann::json figures = costSummaryJson(*cost); // items() must not outlive its json
        for (auto it = figures.begin(); it != figures.end(); ++it)
            summary[it.key()] = it.value();
        summary["ridge_macs_per_byte"] = r.ridgeIntensity;
    }
    nlohmann::json qdq = nlohmann::json::array();
    for (const auto& p : r.qdq)
        qdq.push_back(
            {{"tensor", g.tensor(p.tensor).name},
             {"node", p.node.valid() ? nlohmann::json(g.node(p.node).name) : nlohmann::json(nullptr)},
             {"kind", p.kind},
             {"where", p.where},
             {"elements", p.elements}});
    nlohmann::json missed = nlohmann::json::array();
    for (const auto& m : r.missed)
        missed.push_back({{"nodes", nodeNames(g, m.nodes)}, {"reason", m.reason}});
    // A finding on a partial result rests on the guessed shapes too: each says so.
    const Completeness complete = completeness(g);
    auto findingsJson = [&](const std::vector<Finding>& list) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& f : list) {
            out.push_back(findingJson(g, f));
            out.back()["partial"] = !complete.complete();
        }
        return out;
    };
    nlohmann::json findings = findingsJson(r.findings);
    nlohmann::json warnings = diagnosticTexts(g.diagnostics);
    for (const auto& d : r.diagnostics)
        warnings.push_back(d.text);
    // Moved in, not listed in an initializer list: that copies each value.
    nlohmann::json doc = nlohmann::json::object();
    doc["schema"] = "bpuscope.analysis/1";
    setCompleteness(doc, complete);
    doc["model"] = modelJson(g, r.totals);
    doc["target"] = targetJson(t);
    doc["summary"] = std::move(summary);
    doc["nodes"] = nullptr;
    doc["qdq"] = std::move(qdq);
    doc["fusion_groups"] = nullptr;
    doc["missed_fusions"] = std::move(missed);
    doc["findings"] = std::move(findings);
    // The findings ranked below the profile's findings_max, whole (the text and the report summarise them).
    doc["folded_findings"] = findingsJson(r.foldedFindings);
    // The findings left out because their gain rests on nodes without a shape (the findings-on-guesses note).
    doc["findings_on_guesses"] = findingsJson(r.guessedFindings);
    doc["warnings"] = std::move(warnings); // the texts alone, as before `diagnostics`
    doc["diagnostics"] = diagnosticsJson(resultDiagnostics(g, &r, deploy));
    if (deploy)
        doc["deployment"] = resolvedDeployJson(*deploy, g);
    if (cost)
        doc["cost_rows"] =
            nullptr; // one per CostRow (a node's at the least): filled or streamed like `nodes`
    return doc;
}

/// sessionJson's members beside the analysis: `baseline`, `edits` and `objective`.
void addSessionMembers(nlohmann::json& doc, const CostEstimate& baseline, const EditList& edits,
                       Objective objective) {
    doc["objective"] = objectiveName(objective);
    doc["baseline"] = {{"bpu_ms", baseline.bpuMs},
                       {"latency_ms", baseline.latencyMs},
                       {"fps", baseline.fps},
                       {"fps_by_threads", {{"1", baseline.fpsByThreads[0]}, {"2", baseline.fpsByThreads[1]}}},
                       {"batch", baseline.batch}};
    doc["edits"] = editListToJson(edits)["edits"];
}

} // namespace

nlohmann::json analysisJson(const Graph& g, const TargetProfile& t, const AnalysisResult& r,
                            const CostEstimate* cost, const DeploySettings* deploy) {
    nlohmann::json doc = analysisHead(g, t, r, cost, deploy);
    nlohmann::json nodes = nlohmann::json::array();
    for (NodeId id : g.topoOrder)
        nodes.push_back(nodeJson(g, t.alignment, r, cost, id));
    nlohmann::json groups = nlohmann::json::array();
    for (const auto& grp : r.groups)
        groups.push_back(groupJson(g, grp));
    doc["nodes"] = std::move(nodes);
    doc["fusion_groups"] = std::move(groups);
    if (cost)
        doc["cost_rows"] = costRowsJson(g, *cost);
    return doc;
}

nlohmann::json sessionJson(Session& s, const CostEstimate& baseline, const EditList& edits) {
    s.findings();
    nlohmann::json doc = analysisJson(s.graph(), s.target(), s.analysis(), &s.cost(), &s.options().deploy);
    addSessionMembers(doc, baseline, edits, s.objective());
    return doc;
}

void writeSessionJson(const TextSink& sink, Session& s, const CostEstimate& baseline, const EditList& edits,
                      const nlohmann::json& extra) {
    s.findings();
    const Graph& g = s.graph();
    const AnalysisResult& r = s.analysis();
    nlohmann::json doc = analysisHead(g, s.target(), r, &s.cost(), &s.options().deploy);
    addSessionMembers(doc, baseline, edits, s.objective());
    for (auto it = extra.begin(); it != extra.end(); ++it)
        doc[it.key()] = it.value();
    // The document as doc.dump(2) + "\n" writes it: the members in the object's (sorted) order, each at one
    // level of indent; the three tables one entry at a time at two levels, so that only one entry is ever
    // held as json (the whole node table is ~1.4 KB of text per node, 0.14 GB at 100k nodes), and any other
    // member in pieces (appendPretty).
    std::string buf;
    auto flush = [&](bool always) {
        if (always || buf.size() >= (size_t{1} << 16)) {
            sink(buf);
            buf.clear();
        }
    };
    const std::function<void()> spill = [&] {
        flush(false);
    };
    // Each entry's members go straight into the text (PrettyObjectWriter), two levels deep.
    auto table = [&](size_t count, const auto& members) {
        if (count == 0) {
            buf += "[]";
            return;
        }
        buf += "[\n";
        for (size_t i = 0; i < count; ++i) {
            buf += i ? ",\n    " : "    ";
            PrettyObjectWriter w(buf, 2);
            members(w, i);
            w.finish();
            flush(false);
        }
        buf += "\n  ]";
    };
    buf += "{\n";
    bool first = true;
    for (auto it = doc.begin(); it != doc.end(); ++it, first = false) {
        buf += first ? "  " : ",\n  ";
        buf += nlohmann::json(it.key()).dump();
        buf += ": ";
        if (it.key() == "nodes")
            table(g.topoOrder.size(), [&](PrettyObjectWriter& w, size_t i) {
                nodeMembers(w, g, s.target().alignment, r, &s.cost(), g.topoOrder[i]);
            });
        else if (it.key() == "fusion_groups")
            table(r.groups.size(), [&](PrettyObjectWriter& w, size_t i) { groupMembers(w, g, r.groups[i]); });
        else if (it.key() == "cost_rows")
            table(s.cost().rows.size(),
                  [&](PrettyObjectWriter& w, size_t i) { costRowMembers(w, g, s.cost(), i); });
        else
            appendPretty(buf, it.value(), 1, spill);
        flush(false);
    }
    buf += "\n}\n";
    flush(true);
}

std::string analysisCsv(const Graph& g, const AnalysisResult& r, const CostEstimate* cost) {
    std::ostringstream os;
    os << "name,op,placement,placement_reason,macs,padded_macs,input_bytes,output_bytes,weight_bytes,output_"
          "shape,"
          "padded_output_shape,padding_waste_bytes,intensity,bound,fusion_group";
    if (cost)
        os << ",latency_us,latency_share";
    // The result's completeness on every row, so a row read alone still says it rests on guessed shapes.
    const char* complete = completeness(g).complete() ? "true" : "false";
    os << ",complete\n";
    for (NodeId id : g.topoOrder) {
        Row row = rowOf(g, r, cost, g.node(id));
        os << csvField(row.name) << ',' << csvField(row.op) << ',' << row.placement << ','
           << csvField(row.reason) << ',' << row.macs << ',' << row.paddedMacs << ',' << row.inBytes << ','
           << row.outBytes << ',' << row.weightBytes << ',' << csvField(row.outShape) << ','
           << csvField(row.paddedShape) << ',' << row.waste << ',' << row.intensity << ',' << row.bound << ','
           << csvField(row.group);
        if (cost)
            os << ',' << row.latencyUs << ',' << row.share;
        os << ',' << complete << "\n";
    }
    return os.str();
}

} // namespace bpu
