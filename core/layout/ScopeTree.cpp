// SPDX-License-Identifier: MIT
#include "ScopeTree.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace bpu::layout {

std::vector<std::string_view> scopeComponents(std::string_view name) {
    std::vector<std::string_view> out;
    if (name.size() < 2 || name.front() != '/')
        return out;
    size_t start = 1;
    for (size_t slash = name.find('/', start); slash != std::string_view::npos;
         slash = name.find('/', start)) {
        if (slash > start) // "//" (an empty component) is skipped, not a scope
            out.push_back(name.substr(start, slash - start));
        start = slash + 1;
    }
    return out;
}

ScopeTree ScopeTree::build(const Graph& graph) {
    ScopeTree t;
    t.scopes_.emplace_back();
    t.depth_.push_back(0);
    t.scopeOfNode_.assign(graph.nodes.size(), 0);
    // Child lookup by (parent, component): one map for the whole tree, keyed by the full path, which is
    // unique per scope.
    std::unordered_map<std::string, int> byPath;
    std::string path;
    for (NodeId id : graph.topoOrder) {
        int cur = 0;
        path.clear();
        for (std::string_view c : scopeComponents(graph.node(id).name)) {
            path += '/';
            path += c;
            auto [it, fresh] = byPath.emplace(path, int(t.scopes_.size()));
            if (fresh) {
                Scope s;
                s.name = std::string(c);
                s.path = path;
                s.parent = cur;
                t.scopes_.push_back(std::move(s));
                t.depth_.push_back(t.depth_[size_t(cur)] + 1);
                t.scopes_[size_t(cur)].children.push_back(it->second);
            }
            cur = it->second;
        }
        t.scopes_[size_t(cur)].nodes.push_back(id);
        t.scopeOfNode_[id.value] = cur;
        for (int s = cur; s >= 0; s = t.scopes_[size_t(s)].parent)
            ++t.scopes_[size_t(s)].nodeCount;
    }
    return t;
}

bool ScopeTree::isWithin(int scope, int ancestor) const {
    for (int s = scope; s >= 0; s = scopes_[size_t(s)].parent)
        if (s == ancestor)
            return true;
    return false;
}

std::vector<int> ScopeTree::visibleScopes(const std::vector<bool>& expanded) const {
    // Per scope, the collapsed scope standing for it (-1: it is open all the way up). Parents come before
    // children in scopes_, so one forward pass settles every scope.
    std::vector<int> standIn(scopes_.size(), -1);
    for (size_t s = 1; s < scopes_.size(); ++s) {
        const int parentStandIn = standIn[size_t(scopes_[s].parent)];
        standIn[s] = parentStandIn >= 0 ? parentStandIn : (s < expanded.size() && expanded[s] ? -1 : int(s));
    }
    std::vector<int> out(scopeOfNode_.size(), -1);
    for (size_t n = 0; n < scopeOfNode_.size(); ++n)
        out[n] = standIn[size_t(scopeOfNode_[n])];
    return out;
}

size_t ScopeTree::visibleUnits(const std::vector<bool>& expanded) const {
    size_t units = 0;
    std::vector<int> stack{0};
    while (!stack.empty()) {
        const int s = stack.back();
        stack.pop_back();
        const bool open = s == 0 || (size_t(s) < expanded.size() && expanded[size_t(s)]);
        if (!open) {
            ++units;
            continue;
        }
        units += scopes_[size_t(s)].nodes.size();
        for (int c : scopes_[size_t(s)].children)
            stack.push_back(c);
    }
    return units;
}

std::vector<bool> ScopeTree::defaultExpansion(size_t maxUnits) const {
    std::vector<bool> expanded(scopes_.size(), false);
    // A scope holding one child scope and no node of its own (/encoder around /encoder/layers.N) is drawn
    // as one box whether open or not: opening one opens the whole such chain, down to the scope that
    // branches, and costs what opening that one does.
    auto chainEnd = [&](int s) {
        while (scopes_[size_t(s)].nodes.empty() && scopes_[size_t(s)].children.size() == 1)
            s = scopes_[size_t(s)].children.front();
        return s;
    };
    auto open = [&](int s) {
        for (;; s = scopes_[size_t(s)].children.front()) {
            expanded[size_t(s)] = true;
            if (!(scopes_[size_t(s)].nodes.empty() && scopes_[size_t(s)].children.size() == 1))
                break;
        }
    };
    open(0);
    const Scope& top = scopes_[size_t(chainEnd(0))];
    size_t units = top.children.size() + top.nodes.size();
    // Level by level from the top, widest scopes first: opening one trades its box for its contents.
    std::vector<int> level = top.children;
    while (!level.empty()) {
        std::vector<int> next;
        std::vector<int> order = level;
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            return scopes_[size_t(a)].nodeCount > scopes_[size_t(b)].nodeCount;
        });
        for (int s : order) {
            const Scope& end = scopes_[size_t(chainEnd(s))];
            const size_t opened = end.children.size() + end.nodes.size();
            if (units - 1 + opened > maxUnits)
                continue;
            open(s);
            units = units - 1 + opened;
            next.insert(next.end(), end.children.begin(), end.children.end());
        }
        level = std::move(next);
    }
    return expanded;
}

void ScopeTree::reveal(NodeId node, std::vector<bool>& expanded) const {
    expanded.resize(scopes_.size(), false);
    for (int s = scopeOf(node); s >= 0; s = scopes_[size_t(s)].parent)
        expanded[size_t(s)] = true;
}

std::vector<double> ScopeTree::sum(const std::vector<double>& perNode) const {
    std::vector<double> out(scopes_.size(), 0.0);
    for (size_t n = 0; n < scopeOfNode_.size() && n < perNode.size(); ++n)
        for (int s = scopeOfNode_[n]; s >= 0; s = scopes_[size_t(s)].parent)
            out[size_t(s)] += perNode[n];
    return out;
}

std::vector<int> ScopeTree::maxRank(const std::vector<int>& perNode) const {
    std::vector<int> out(scopes_.size(), -1);
    for (size_t n = 0; n < scopeOfNode_.size() && n < perNode.size(); ++n)
        for (int s = scopeOfNode_[n]; s >= 0; s = scopes_[size_t(s)].parent)
            out[size_t(s)] = std::max(out[size_t(s)], perNode[n]);
    return out;
}

} // namespace bpu::layout
