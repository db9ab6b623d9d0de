// SPDX-License-Identifier: MIT
#include "OptionEdits.h"

#include "EditError.h"
#include "Session.h"

namespace bpu {

namespace {
const Node& requireNode(const Graph& g, const std::string& name) {
    NodeId id = g.findNode(name);
    if (!id.valid())
        throw EditError("no node named '" + name + "'");
    return g.node(id);
}
} // namespace

void OptionEdit::apply(Session& s) {
    applyDeferred(s);
    s.reestimate({});
}

void OptionEdit::applyDeferred(Session& s) {
    AnalysisOptions next = s.options();
    change(next, s.graph());
    saved_ = s.options();
    s.mutableOptions() = std::move(next);
}

void OptionEdit::applyToScratch(Session& s) const {
    change(s.mutableOptions(), s.graph());
}

void OptionEdit::revert(Session& s) {
    s.mutableOptions() = saved_;
    s.reestimate({});
}

void FuseAllEdit::change(AnalysisOptions& o, const Graph&) const {
    o.fuse = true;
    o.unfusedHeads.clear();
}

void UnfuseAllEdit::change(AnalysisOptions& o, const Graph&) const {
    o.fuse = false;
    o.fusedHeads.clear();
    o.forceFusedHeads.clear();
}

void FuseEdit::change(AnalysisOptions& o, const Graph& g) const {
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

void RemoveBoundaryQdqEdit::change(AnalysisOptions& o, const Graph&) const {
    // The deployment's remove_node_type gains Quantize and Dequantize: pre/post-processing does the passes.
    o.deploy.removeNodeTypes.insert(BoundaryOp::Quantize);
    o.deploy.removeNodeTypes.insert(BoundaryOp::Dequantize);
}

nlohmann::json SetPrecisionEdit::toJson() const {
    nlohmann::json j = {{"op", "set_precision"}, {"precision", precisionName(precision_)}};
    if (!nodes_.empty())
        j["nodes"] = nodes_;
    if (!opTypes_.empty())
        j["op_types"] = opTypes_;
    return j;
}

void SetPrecisionEdit::change(AnalysisOptions& o, const Graph& g) const {
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

nlohmann::json SetPlacementEdit::toJson() const {
    return {{"op", "set_placement"}, {"node", node_}, {"placement", placementName(placement_)}};
}

void SetPlacementEdit::change(AnalysisOptions& o, const Graph& g) const {
    requireNode(g, node_);
    o.placementOverrides[node_] = placement_;
}

nlohmann::json AssumeEdit::toJson() const {
    static const char* ops[] = {"assume_resident", "assume_aligned", "assume_removed"};
    return {{"op", ops[kind_]}, {kind_ == Removed ? "nodes" : "tensors", names_}};
}

void AssumeEdit::change(AnalysisOptions& o, const Graph& g) const {
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

void FilterOutputsEdit::change(AnalysisOptions& o, const Graph&) const {
    if (keep_ <= 0)
        throw EditError("filter_outputs: keep must be positive");
    o.filterOutputsKeep = keep_;
}

} // namespace bpu
