// SPDX-License-Identifier: MIT
#include "OptionEdits.h"

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
    o.foldBoundaryQdq = true;
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
