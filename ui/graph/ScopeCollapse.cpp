// SPDX-License-Identifier: MIT
#include "ScopeCollapse.h"

#include <QCoreApplication>

namespace bpu::ui {

namespace {
QString tr(const char* text) {
    return QCoreApplication::translate("ScopeCollapse", text);
}

QString formatBytes(int64_t bytes) {
    if (bytes >= (int64_t(1) << 20))
        return QStringLiteral("%1 MiB").arg(double(bytes) / double(1 << 20), 0, 'f', 1);
    if (bytes >= 1024)
        return QStringLiteral("%1 KiB").arg(double(bytes) / 1024.0, 0, 'f', 1);
    return QStringLiteral("%1 B").arg(bytes);
}
} // namespace

QString formatLatencyUs(double us) {
    if (us >= 1e6)
        return QStringLiteral("%1 s").arg(us / 1e6, 0, 'f', 2);
    if (us >= 1000)
        return QStringLiteral("%1 ms").arg(us / 1000, 0, 'f', us >= 1e5 ? 1 : 2);
    return QStringLiteral("%1 us").arg(us, 0, 'f', us >= 100 ? 0 : 1);
}

void ScopeCollapse::reset(const Graph* graph) {
    nodeFigures_.clear();
    adopt(buildTree(graph));
}

std::shared_ptr<const layout::ScopeTree> ScopeCollapse::buildTree(const Graph* graph) {
    if (!graph || graph->nodes.size() < kMinNodes)
        return nullptr;
    auto tree = std::make_shared<layout::ScopeTree>(layout::ScopeTree::build(*graph));
    if (tree->scopes().size() < 2)
        return nullptr; // no scoped names: nothing to collapse
    return tree;
}

void ScopeCollapse::adopt(std::shared_ptr<const layout::ScopeTree> tree) {
    tree_ = std::move(tree);
    open_ = tree_ ? tree_->defaultExpansion(kDefaultUnits) : std::vector<bool>{};
    figures_.clear();
    if (tree_ && nodeFigures_.size() == tree_->nodeCount())
        figures_ = scopeFigures(*tree_, nodeFigures_);
}

int ScopeCollapse::scopeOfGroup(int group) const {
    if (!tree_ || !isScopeGroup(group) || size_t(group - kGroupBase) >= open_.size())
        return -1;
    return group - kGroupBase;
}

NodeId ScopeCollapse::open(int group) {
    const int scope = scopeOfGroup(group);
    if (scope < 0 || open_[size_t(scope)])
        return {};
    // Open it, and through any single-child wrappers below it (one box either way).
    for (size_t s = size_t(scope);;) {
        open_[s] = true;
        const auto& sc = tree_->scope(int(s));
        if (!sc.nodes.empty() || sc.children.size() != 1)
            break;
        s = size_t(sc.children.front());
    }
    // The scope's first node in topological order, found below it.
    for (int s = scope;;) {
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

std::vector<int> ScopeCollapse::openScopesOf(NodeId node) const {
    std::vector<int> out;
    if (!tree_ || !node.valid() || node.value >= tree_->nodeCount())
        return out;
    int listed = -1; // the scope last listed, or the wrapper standing for it
    for (int s = tree_->scopeOf(node); s > 0; s = tree_->scope(s).parent) {
        const auto& sc = tree_->scope(s);
        if (!open_[size_t(s)] && sc.nodeCount > 1) {
            out.clear(); // inside a collapsed box: only what lies above it is open on screen
            listed = -1;
        } else if (sc.nodes.empty() && sc.children.size() == 1 && listed == sc.children[0]) {
            // A wrapper around the scope just listed: collapsing it draws the same box (and collapse()
            // closes the wrapper with it).
            listed = s;
        } else if (sc.nodeCount > 1) {
            // (A scope of one node is drawn as that node whether open or not: nothing to collapse.)
            out.push_back(kGroupBase + s);
            listed = s;
        }
    }
    return out;
}

bool ScopeCollapse::collapse(int group) {
    const int scope = scopeOfGroup(group);
    if (scope <= 0 || !open_[size_t(scope)])
        return false;
    open_[size_t(scope)] = false;
    // A wrapper holding only this scope (/encoder around /encoder/layers.N) draws the same box whether it is
    // open or not; closing it too gives the box the title the default view had.
    for (int p = tree_->scope(scope).parent; p > 0; p = tree_->scope(p).parent) {
        const auto& sc = tree_->scope(p);
        if (!sc.nodes.empty() || sc.children.size() != 1 || !open_[size_t(p)])
            break;
        open_[size_t(p)] = false;
    }
    return true;
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

QString ScopeCollapse::path(int group) const {
    const int scope = scopeOfGroup(group);
    return scope < 0 ? QString() : QString::fromStdString(tree_->scope(scope).path);
}

void ScopeCollapse::setFigures(const std::vector<NodeFigures>& nodes) {
    nodeFigures_ = nodes;
    figures_.clear();
    if (tree_ && nodes.size() == tree_->nodeCount())
        figures_ = scopeFigures(*tree_, nodes);
}

const ScopeFigures* ScopeCollapse::figures(int group) const {
    const int scope = scopeOfGroup(group);
    return scope < 0 || size_t(scope) >= figures_.size() ? nullptr : &figures_[size_t(scope)];
}

QString formatShare(double share) {
    // A block of a 10k-node model is a small share: "0.0%" would say nothing, so small ones get digits.
    const double pct = share * 100;
    if (pct > 0 && pct < 0.01)
        return QStringLiteral("<0.01%");
    return QStringLiteral("%1%").arg(pct, 0, 'f', pct < 1 ? 2 : 1);
}

QString ScopeCollapse::note(const ScopeFigures& f) {
    // Most telling first, so an elided line keeps the latency and the share.
    QString s = formatLatencyUs(f.latencyUs) + QStringLiteral("  ") + formatShare(f.share);
    if (f.cpuNodes > 0)
        s += QStringLiteral("  %1 CPU").arg(f.cpuNodes);
    if (f.wasteBytes > 0)
        s += tr("  waste %1%").arg(f.wasteRatio() * 100, 0, 'f', 0);
    return s;
}

QString ScopeCollapse::toolTip(const ScopeFigures& f) {
    QString html = tr("latency %1 (%2 of the model)<br>")
                       .arg(formatLatencyUs(f.latencyUs), formatShare(f.share).toHtmlEscaped());
    html += tr("placement: worst %1; %2 BPU, %3 CPU, %4 folded<br>")
                .arg(QString::fromLatin1(placementName(f.worstPlacement())))
                .arg(f.bpuNodes)
                .arg(f.cpuNodes)
                .arg(f.foldedNodes);
    if (f.paddedBytes > 0)
        html += tr("padding waste: %1 (%2% of its padded outputs)<br>")
                    .arg(formatBytes(f.wasteBytes))
                    .arg(f.wasteRatio() * 100, 0, 'f', 1);
    else
        html += tr("padding waste: none (no padded output)<br>");
    return html;
}

} // namespace bpu::ui
