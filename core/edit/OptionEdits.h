// SPDX-License-Identifier: MIT
#pragma once

#include "Edit.h"
#include "core/analysis/AnalysisOptions.h"

#include <functional>
#include <set>
#include <string>

namespace bpu {

class Graph;

/// An edit of the analysis options (fusion, placement, boundary Q/DQ, what-if assumptions): no shape changes.
class OptionEdit : public Edit {
public:
    void apply(Session& s) override;
    void revert(Session& s) override;
    /// apply() without the re-estimate, so a run of option edits re-estimates once: the session's analysis
    /// is stale until the caller runs Session::reestimate({}) (or a graph edit re-estimates).
    void applyDeferred(Session& s);
    /// applyDeferred() that keeps nothing to revert with: for a throw-away session (a finding's trial), where
    /// copying the options per edit would make a fix of N placement overrides cost O(N^2). On EditError the
    /// options may be half changed: discard the session.
    void applyToScratch(Session& s) const;

protected:
    /// Changes `o`; throws EditError if the edit does not fit the graph (unknown node, wrong op).
    virtual void change(AnalysisOptions& o, const Graph& g) const = 0;

private:
    AnalysisOptions saved_;
};

class FuseAllEdit : public OptionEdit {
public:
    nlohmann::json toJson() const override { return {{"op", "fuse_all"}}; }

protected:
    void change(AnalysisOptions& o, const Graph& g) const override;
};

class UnfuseAllEdit : public OptionEdit {
public:
    nlohmann::json toJson() const override { return {{"op", "unfuse_all"}}; }

protected:
    void change(AnalysisOptions& o, const Graph& g) const override;
};

/// fuse / unfuse one group by its head node. `fuse` also forces a chain the graph blocks (what-if for a
/// missed fusion whose cause the user will fix).
class FuseEdit : public OptionEdit {
public:
    FuseEdit(std::string node, bool fuse)
        : node_(std::move(node))
        , fuse_(fuse) {}
    nlohmann::json toJson() const override { return {{"op", fuse_ ? "fuse" : "unfuse"}, {"node", node_}}; }

protected:
    void change(AnalysisOptions& o, const Graph& g) const override;

private:
    std::string node_;
    bool fuse_;
};

class RemoveBoundaryQdqEdit : public OptionEdit {
public:
    nlohmann::json toJson() const override { return {{"op", "remove_boundary_qdq"}}; }

protected:
    void change(AnalysisOptions& o, const Graph& g) const override;
};

/// set_precision: the whole model (no node list), named nodes, or every node of some op types at int8 or
/// int16 (hb_compile's node_info InputType/OutputType, calibration optimization set_all_nodes_int16).
class SetPrecisionEdit : public OptionEdit {
public:
    SetPrecisionEdit(Precision p, std::vector<std::string> nodes, std::vector<std::string> opTypes)
        : precision_(p)
        , nodes_(std::move(nodes))
        , opTypes_(std::move(opTypes)) {}
    nlohmann::json toJson() const override;

protected:
    void change(AnalysisOptions& o, const Graph& g) const override;

private:
    Precision precision_;
    std::vector<std::string> nodes_, opTypes_;
};

class SetPlacementEdit : public OptionEdit {
public:
    SetPlacementEdit(std::string node, Placement p)
        : node_(std::move(node))
        , placement_(p) {}
    nlohmann::json toJson() const override;
    std::string mergeKey() const override { return "placement:" + node_; }

protected:
    void change(AnalysisOptions& o, const Graph& g) const override;

private:
    std::string node_;
    Placement placement_;
};

/// assume_resident / assume_aligned (tensor names) and assume_removed (node names): what-if assumptions.
class AssumeEdit : public OptionEdit {
public:
    enum Kind { Resident, Aligned, Removed };
    AssumeEdit(Kind k, std::vector<std::string> names)
        : kind_(k)
        , names_(std::move(names)) {}
    nlohmann::json toJson() const override;

protected:
    void change(AnalysisOptions& o, const Graph& g) const override;

private:
    Kind kind_;
    std::vector<std::string> names_;
};

class FilterOutputsEdit : public OptionEdit {
public:
    explicit FilterOutputsEdit(int64_t keep)
        : keep_(keep) {}
    nlohmann::json toJson() const override { return {{"op", "filter_outputs"}, {"keep", keep_}}; }

protected:
    void change(AnalysisOptions& o, const Graph& g) const override;

private:
    int64_t keep_;
};

} // namespace bpu
