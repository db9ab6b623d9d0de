// SPDX-License-Identifier: MIT
#pragma once

#include "Edit.h"

#include <memory>
#include <string>
#include <vector>

namespace bpu {

class Graph;

/// cut_at: the named tensors become the model's outputs and everything only they fed is dropped
/// (core/model/GraphCut.h) - a detector cut at its heads, with decoding and NMS moved to post-processing.
/// Changes the graph's structure, so the session re-analyses from scratch; revert restores the graph as it
/// was (node and tensor ids included).
class CutAtEdit : public Edit {
public:
    explicit CutAtEdit(std::vector<std::string> tensors)
        : tensors_(std::move(tensors)) {}
    void apply(Session& s) override;
    void revert(Session& s) override;
    nlohmann::json toJson() const override { return {{"op", "cut_at"}, {"tensors", tensors_}}; }
    std::string describe() const override;

private:
    std::vector<std::string> tensors_;
    std::shared_ptr<const Graph> before_;
};

} // namespace bpu
