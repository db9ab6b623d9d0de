// SPDX-License-Identifier: MIT
#include "ScopeCollapse.h"

namespace bpu::ui {

void ScopeCollapse::reset(const Graph* graph) {
    tree_.reset();
    open_.clear();
    if (!graph || graph->nodes.size() < kMinNodes)
        return;
    auto tree = std::make_shared<layout::ScopeTree>(layout::ScopeTree::build(*graph));
    if (tree->scopes().size() < 2)
        return; // no scoped names: nothing to collapse
    open_ = tree->defaultExpansion(kDefaultUnits);
    tree_ = std::move(tree);
}

NodeId ScopeCollapse::open(int group) {
    if (!tree_ || !isScopeGroup(group))
        return {};
    const size_t scope = size_t(group - kGroupBase);
    if (scope >= open_.size() || open_[scope])
        return {};
    // Open it, and through any single-child wrappers below it (one box either way).
    for (size_t s = scope;;) {
        open_[s] = true;
        const auto& sc = tree_->scope(int(s));
        if (!sc.nodes.empty() || sc.children.size() != 1)
            break;
        s = size_t(sc.children.front());
    }
    // The scope's first node in topological order, found below it.
    for (int s = int(scope);;) {
        const auto& sc = tree_->scope(s);
        if (!sc.nodes.empty())
            return sc.nodes.front();
        if (sc.children.empty())
            return {};
        s = sc.children.front();
    }
}

bool ScopeCollapse::reveal(NodeId node) {
    if (!tree_ || !node.valid() || node.value >= tree_->nodeCount())
        return false;
    bool changed = false;
    for (int s = tree_->scopeOf(node); s > 0; s = tree_->scope(s).parent)
        if (!open_[size_t(s)]) {
            open_[size_t(s)] = true;
            changed = true;
        }
    return changed;
}

std::vector<int> ScopeCollapse::groupOf(const std::vector<int>& fused) const {
    if (!tree_)
        return fused;
    std::vector<int> out = tree_->visibleScopes(open_);
    // A scope of one node is drawn as that node: a box for it alone would only hide its op type.
    for (size_t n = 0; n < out.size(); ++n)
        out[n] = out[n] >= 0 && tree_->scope(out[n]).nodeCount > 1 ? kGroupBase + out[n]
                                                                   : (n < fused.size() ? fused[n] : -1);
    return out;
}

std::map<int, QString> ScopeCollapse::labels() const {
    std::map<int, QString> out;
    if (!tree_)
        return out;
    for (int v : tree_->visibleScopes(open_))
        if (v >= 0 && !out.count(kGroupBase + v))
            out.emplace(kGroupBase + v, QString::fromStdString(tree_->scope(v).path));
    return out;
}

} // namespace bpu::ui
