// SPDX-License-Identifier: MIT
#include "OptionEdits.h"
#include "core/analysis/AnalysisTypes.h"

#include "EditContext.h"
#include "EditError.h"
#include "EditJson.h"

namespace bpu {

namespace {
const Node& requireNode(const Graph& g, const std::string& name) {
    NodeId id = g.findNode(name);
    if (!id.valid())
        throw EditError("no node named '" + name + "'");
    return g.node(id);
}
} // namespace

void OptionEdit::change(EditContext& ctx) const {
    // In place: a fix of hundreds of placement overrides must not copy the options per edit. The context
    // saved them once for the whole list.
    changeOptions(ctx.mutableOptions(), ctx.graph());
}

EditPtr FuseAllEdit::fromJson(const nlohmann::json&) {
    return std::make_shared<FuseAllEdit>();
}

void FuseAllEdit::changeOptions(AnalysisOptions& o, const Graph&) const {
    o.fuse = true;
    o.unfusedHeads.clear();
}

EditPtr UnfuseAllEdit::fromJson(const nlohmann::json&) {
    return std::make_shared<UnfuseAllEdit>();
}

void UnfuseAllEdit::changeOptions(AnalysisOptions& o, const Graph&) const {
    o.fuse = false;
    o.fusedHeads.clear();
    o.forceFusedHeads.clear();
}

EditPtr FuseEdit::fuseFromJson(const nlohmann::json& j) {
    return std::make_shared<FuseEdit>(editjson::str(j, "node"), true);
}

EditPtr FuseEdit::unfuseFromJson(const nlohmann::json& j) {
    return std::make_shared<FuseEdit>(editjson::str(j, "node"), false);
}

void FuseEdit::changeOptions(AnalysisOptions& o, const Graph& g) const {
    const Node& n = requireNode(g, node_);
    if (n.opType != "Conv" && n.opType != "ConvTranspose")
        throw EditError("'" + node_ + "' is a " + n.opType +
                        "; fusion groups start at a Conv or ConvTranspose");
    if (fuse_) {
        o.unfusedHeads.erase(node_);
        o.fusedHeads.insert(node_);
        o.forceFusedHeads.insert(node_);
    } else {
        o.fusedHeads.erase(node_);
        o.forceFusedHeads.erase(node_);
        o.unfusedHeads.insert(node_);
    }
}

EditPtr RemoveBoundaryQdqEdit::fromJson(const nlohmann::json&) {
    return std::make_shared<RemoveBoundaryQdqEdit>();
}

void RemoveBoundaryQdqEdit::changeOptions(AnalysisOptions& o, const Graph&) const {
    // The deployment's remove_node_type gains Quantize and Dequantize: pre/post-processing does the passes.
    o.deploy.removeNodeTypes.insert(BoundaryOp::Quantize);
    o.deploy.removeNodeTypes.insert(BoundaryOp::Dequantize);
}

EditPtr SetPrecisionEdit::fromJson(const nlohmann::json& j) {
    const std::string p = editjson::str(j, "precision");
    if (p != "int8" && p != "int16")
        throw EditError("set_precision: precision must be int8 or int16");
    std::vector<std::string> nodes, types;
    if (j.contains("nodes"))
        nodes = editjson::strings(j, "nodes");
    if (j.contains("op_types"))
        types = editjson::strings(j, "op_types");
    return std::make_shared<SetPrecisionEdit>(p == "int16" ? Precision::Int16 : Precision::Int8, nodes,
                                              types);
}

nlohmann::json SetPrecisionEdit::toJson() const {
    nlohmann::json j = {{"op", "set_precision"}, {"precision", precisionName(precision_)}};
    if (!nodes_.empty())
        j["nodes"] = nodes_;
    if (!opTypes_.empty())
        j["op_types"] = opTypes_;
    return j;
}

void SetPrecisionEdit::changeOptions(AnalysisOptions& o, const Graph& g) const {
    if (precision_ != Precision::Int8 && precision_ != Precision::Int16)
        throw EditError("set_precision: precision must be int8 or int16");
    if (nodes_.empty() && opTypes_.empty()) {
        o.modelPrecision = precision_;
        o.precisionOverrides.clear();
        return;
    }
    for (const auto& n : nodes_) {
        requireNode(g, n);
        o.precisionOverrides[n] = precision_;
    }
    for (const auto& type : opTypes_) {
        bool any = false;
        for (const auto& n : g.nodes)
            if (n.opType == type) {
                o.precisionOverrides[n.name] = precision_;
                any = true;
            }
        if (!any)
            throw EditError("set_precision: the model has no " + type + " node");
    }
}

EditPtr SetPlacementEdit::fromJson(const nlohmann::json& j) {
    const auto p = parsePlacement(editjson::str(j, "placement"));
    if (!p)
        throw EditError("set_placement: placement must be BPU, CPU or folded");
    return std::make_shared<SetPlacementEdit>(editjson::str(j, "node"), *p);
}

nlohmann::json SetPlacementEdit::toJson() const {
    return {{"op", "set_placement"}, {"node", node_}, {"placement", placementName(placement_)}};
}

void SetPlacementEdit::changeOptions(AnalysisOptions& o, const Graph& g) const {
    requireNode(g, node_);
    o.placementOverrides[node_] = placement_;
}

EditPtr AssumeEdit::residentFromJson(const nlohmann::json& j) {
    return std::make_shared<AssumeEdit>(Resident, editjson::strings(j, "tensors"));
}

EditPtr AssumeEdit::alignedFromJson(const nlohmann::json& j) {
    return std::make_shared<AssumeEdit>(Aligned, editjson::strings(j, "tensors"));
}

EditPtr AssumeEdit::removedFromJson(const nlohmann::json& j) {
    return std::make_shared<AssumeEdit>(Removed, editjson::strings(j, "nodes"));
}

nlohmann::json AssumeEdit::toJson() const {
    static const char* ops[] = {"assume_resident", "assume_aligned", "assume_removed"};
    return {{"op", ops[kind_]}, {kind_ == Removed ? "nodes" : "tensors", names_}};
}

void AssumeEdit::changeOptions(AnalysisOptions& o, const Graph& g) const {
    for (const auto& n : names_) {
        if (kind_ == Removed) {
            requireNode(g, n);
            o.assumeRemoved.insert(n);
        } else {
            if (!g.findTensor(n).valid())
                throw EditError("no tensor named '" + n + "'");
            (kind_ == Resident ? o.assumeResident : o.assumeAligned).insert(n);
        }
    }
}

EditPtr FilterOutputsEdit::fromJson(const nlohmann::json& j) {
    return std::make_shared<FilterOutputsEdit>(editjson::integer(j, "keep"));
}

void FilterOutputsEdit::changeOptions(AnalysisOptions& o, const Graph&) const {
    if (keep_ <= 0)
        throw EditError("filter_outputs: keep must be positive");
    o.filterOutputsKeep = keep_;
}

} // namespace bpu
