// SPDX-License-Identifier: MIT
#pragma once

#include "Edit.h"
#include "core/analysis/AnalysisOptions.h"

#include <set>
#include <string>
#include <vector>

namespace bpu {

class Graph;

/// An edit of the analysis options (fusion, placement, boundary Q/DQ, what-if assumptions): no shape changes.
class OptionEdit : public Edit {
protected:
    void change(EditContext& ctx) const final;
    /// Changes `o` in place; throws EditError if the edit does not fit the graph (unknown node, wrong op).
    /// A throw may leave `o` half changed: applyEditList restores the options.
    virtual void changeOptions(AnalysisOptions& o, const Graph& g) const = 0;
};

class FuseAllEdit : public OptionEdit {
public:
    static EditPtr fromJson(const nlohmann::json&);
    nlohmann::json toJson() const override { return {{"op", "fuse_all"}}; }
    bool idealized() const override { return true; }

protected:
    void changeOptions(AnalysisOptions& o, const Graph& g) const override;
};

class UnfuseAllEdit : public OptionEdit {
public:
    static EditPtr fromJson(const nlohmann::json&);
    nlohmann::json toJson() const override { return {{"op", "unfuse_all"}}; }
    bool idealized() const override { return true; }

protected:
    void changeOptions(AnalysisOptions& o, const Graph& g) const override;
};

/// fuse / unfuse one group by its head node. `fuse` also forces a chain the graph blocks (what-if for a
/// missed fusion whose cause the user will fix).
class FuseEdit : public OptionEdit {
public:
    FuseEdit(std::string node, bool fuse)
        : node_(std::move(node))
        , fuse_(fuse) {}
    static EditPtr fuseFromJson(const nlohmann::json& j);
    static EditPtr unfuseFromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override { return {{"op", fuse_ ? "fuse" : "unfuse"}, {"node", node_}}; }
    /// What the compiler fuses is not the model's to choose: forcing or splitting a group is a what-if.
    bool idealized() const override { return true; }

protected:
    void changeOptions(AnalysisOptions& o, const Graph& g) const override;

private:
    std::string node_;
    bool fuse_;
};

class RemoveBoundaryQdqEdit : public OptionEdit {
public:
    static EditPtr fromJson(const nlohmann::json&);
    nlohmann::json toJson() const override { return {{"op", "remove_boundary_qdq"}}; }
    EditCosts costs() const override { return {EditCost::ChangesIoTypes}; }

protected:
    void changeOptions(AnalysisOptions& o, const Graph& g) const override;
};

/// set_precision: the whole model (no node list), named nodes, or every node of some op types at int8 or
/// int16 (hb_compile's node_info InputType/OutputType, calibration optimization set_all_nodes_int16).
class SetPrecisionEdit : public OptionEdit {
public:
    SetPrecisionEdit(Precision p, std::vector<std::string> nodes, std::vector<std::string> opTypes)
        : precision_(p)
        , nodes_(std::move(nodes))
        , opTypes_(std::move(opTypes)) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override;

protected:
    void changeOptions(AnalysisOptions& o, const Graph& g) const override;

private:
    Precision precision_;
    std::vector<std::string> nodes_, opTypes_;
};

class SetPlacementEdit : public OptionEdit {
public:
    SetPlacementEdit(std::string node, Placement p)
        : node_(std::move(node))
        , placement_(p) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override;
    std::string mergeKey() const override { return "placement:" + node_; }

protected:
    void changeOptions(AnalysisOptions& o, const Graph& g) const override;

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
    static EditPtr residentFromJson(const nlohmann::json& j);
    bool idealized() const override { return true; }
    static EditPtr alignedFromJson(const nlohmann::json& j);
    static EditPtr removedFromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override;

protected:
    void changeOptions(AnalysisOptions& o, const Graph& g) const override;

private:
    Kind kind_;
    std::vector<std::string> names_;
};

class FilterOutputsEdit : public OptionEdit {
public:
    explicit FilterOutputsEdit(int64_t keep)
        : keep_(keep) {}
    static EditPtr fromJson(const nlohmann::json& j);
    nlohmann::json toJson() const override { return {{"op", "filter_outputs"}, {"keep", keep_}}; }
    bool idealized() const override { return true; }

protected:
    void changeOptions(AnalysisOptions& o, const Graph& g) const override;

private:
    int64_t keep_;
};

} // namespace bpu
