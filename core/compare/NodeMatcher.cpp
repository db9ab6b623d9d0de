// SPDX-License-Identifier: MIT
#include "NodeMatcher.h"

#include <algorithm>
#include <deque>
#include <map>
#include <string>
#include <tuple>

namespace bpu {

const char* matchKindName(MatchKind k) {
    return k == MatchKind::Name ? "name" : "structure";
}

namespace {

/// What a node is, without its name or where it sits: op, weight dims per input slot, attributes.
std::string opSignature(const Graph& g, const Node& n) {
    std::string s = n.domain + "::" + n.opType + "(";
    for (TensorId in : n.inputs) {
        if (!in.valid()) {
            s += "-,";
            continue;
        }
        const Tensor& t = g.tensor(in);
        s += t.isInitializer ? "W" + t.shape.toString() + "," : "A,";
    }
    s += ")";
    for (const std::string& key : n.attributeNames())
        s += key + "=" + n.attributeText(key) + ";";
    return s;
}

std::string outputShape(const Graph& g, const Node& n) {
    return n.outputs.empty() || !n.outputs[0].valid() ? std::string("?")
                                                      : g.tensor(n.outputs[0]).shape.toString();
}

class Matcher {
public:
    Matcher(const Graph& a, const Graph& b)
        : a_(a)
        , b_(b) {
        m_.toB.assign(a.nodes.size(), NodeId{});
        m_.toA.assign(b.nodes.size(), NodeId{});
        kind_.assign(a.nodes.size(), MatchKind::Structure);
        sigA_ = signatures(a);
        sigB_ = signatures(b);
        shapeA_ = shapes(a);
        shapeB_ = shapes(b);
    }

    NodeMatching run() {
        byName();
        seedModelTensors();
        propagate();
        byUniqueSignature();
        propagate(); // the pairs found last may open more of the graph
        // Symmetric structure (parallel branches alike in every respect) is told apart by position, last.
        allowTies_ = true;
        queue_.insert(queue_.end(), deferred_.begin(), deferred_.end());
        propagate();
        for (NodeId id : a_.topoOrder)
            if (m_.toB[id.value].valid())
                m_.pairs.push_back({id, m_.toB[id.value], kind_[id.value]});
            else
                m_.unmatchedA.push_back(id);
        for (NodeId id : b_.topoOrder)
            if (!m_.toA[id.value].valid())
                m_.unmatchedB.push_back(id);
        return std::move(m_);
    }

private:
    static std::vector<std::string> signatures(const Graph& g) {
        std::vector<std::string> s;
        s.reserve(g.nodes.size());
        for (const Node& n : g.nodes)
            s.push_back(opSignature(g, n));
        return s;
    }
    static std::vector<std::string> shapes(const Graph& g) {
        std::vector<std::string> s;
        s.reserve(g.nodes.size());
        for (const Node& n : g.nodes)
            s.push_back(outputShape(g, n));
        return s;
    }

    bool bothFree(NodeId x, NodeId y) const { return !m_.toB[x.value].valid() && !m_.toA[y.value].valid(); }

    void pair(NodeId x, NodeId y, MatchKind how) {
        m_.toB[x.value] = y;
        m_.toA[y.value] = x;
        kind_[x.value] = how;
        // Their outputs, slot by slot, are the same values: propagate from them.
        const Node& nx = a_.node(x);
        const Node& ny = b_.node(y);
        for (size_t i = 0; i < nx.outputs.size() && i < ny.outputs.size(); ++i)
            if (nx.outputs[i].valid() && ny.outputs[i].valid())
                queue_.emplace_back(nx.outputs[i], ny.outputs[i]);
        // Inputs too (their producers are the same node), except weights: an initializer shared by many nodes
        // says nothing about which of its consumers is which.
        for (size_t i = 0; i < nx.inputs.size() && i < ny.inputs.size(); ++i)
            if (nx.inputs[i].valid() && ny.inputs[i].valid() && !a_.tensor(nx.inputs[i]).isInitializer)
                queue_.emplace_back(nx.inputs[i], ny.inputs[i]);
    }

    /// Position of a model input (-1 for anything else), so inputs can stand in for producers.
    static int inputPosition(const Graph& g, TensorId t) {
        for (size_t i = 0; i < g.inputs.size(); ++i)
            if (g.inputs[i] == t)
                return int(i);
        return -1;
    }

    /// A name pair is taken only when each data input comes from a same-named node of the same op, or from
    /// the same model input: a renumbered generic name never passes, since its neighbours are renumbered too.
    bool inputsAgreeByName(const Node& x, const Node& y) const {
        if (x.inputs.size() != y.inputs.size())
            return false;
        bool anchored = false; // a node reading only weights has nothing to check its name against
        for (size_t i = 0; i < x.inputs.size(); ++i) {
            const TensorId tx = x.inputs[i], ty = y.inputs[i];
            if (tx.valid() != ty.valid())
                return false;
            if (!tx.valid())
                continue;
            const Tensor& ax = a_.tensor(tx);
            const Tensor& by = b_.tensor(ty);
            if (ax.isInitializer != by.isInitializer)
                return false;
            if (ax.isInitializer) {
                if (!(ax.shape == by.shape))
                    return false;
                continue;
            }
            anchored = true;
            if (ax.producer.valid() != by.producer.valid())
                return false;
            if (!ax.producer.valid()) {
                if (inputPosition(a_, tx) != inputPosition(b_, ty))
                    return false;
                continue;
            }
            const Node& px = a_.node(ax.producer);
            const Node& py = b_.node(by.producer);
            if (px.name != py.name || px.opType != py.opType)
                return false;
        }
        return anchored;
    }

    void byName() {
        for (const Node& x : a_.nodes) {
            const NodeId y = b_.findNode(x.name);
            if (!y.valid() || b_.node(y).opType != x.opType || b_.node(y).domain != x.domain)
                continue;
            if (bothFree(x.id, y) && inputsAgreeByName(x, b_.node(y)))
                pair(x.id, y, MatchKind::Name);
        }
    }

    void seedModelTensors() {
        for (size_t i = 0; i < a_.inputs.size() && i < b_.inputs.size(); ++i)
            queue_.emplace_back(a_.inputs[i], b_.inputs[i]);
        for (size_t i = 0; i < a_.outputs.size() && i < b_.outputs.size(); ++i)
            queue_.emplace_back(a_.outputs[i], b_.outputs[i]);
    }

    /// How well x (in A) and y (in B), both candidates for the same place, agree.
    int score(NodeId x, NodeId y) const {
        const Node& nx = a_.node(x);
        const Node& ny = b_.node(y);
        int s = 0;
        if (nx.name == ny.name)
            s += 8;
        if (sigA_[x.value] == sigB_[y.value])
            s += 4;
        if (shapeA_[x.value] == shapeB_[y.value])
            s += 2;
        for (size_t i = 0; i < nx.inputs.size() && i < ny.inputs.size(); ++i) {
            if (!nx.inputs[i].valid() || !ny.inputs[i].valid())
                continue;
            const NodeId px = a_.tensor(nx.inputs[i]).producer, py = b_.tensor(ny.inputs[i]).producer;
            if (px.valid() && py.valid() && m_.toB[px.value] == py)
                s += 1;
        }
        return s;
    }

    /// x and y may be the same node: no input of one comes from a node matched to something other than the
    /// producer of the other's input at that slot, and model inputs sit at the same position.
    bool consistent(NodeId x, NodeId y) const {
        const Node& nx = a_.node(x);
        const Node& ny = b_.node(y);
        for (size_t i = 0; i < nx.inputs.size() && i < ny.inputs.size(); ++i) {
            if (!nx.inputs[i].valid() || !ny.inputs[i].valid())
                continue;
            const Tensor& tx = a_.tensor(nx.inputs[i]);
            const Tensor& ty = b_.tensor(ny.inputs[i]);
            if (tx.isGraphInput != ty.isGraphInput ||
                (tx.isGraphInput && inputPosition(a_, tx.id) != inputPosition(b_, ty.id)))
                return false;
            const NodeId px = tx.producer, py = ty.producer;
            if (px.valid() && m_.toB[px.value].valid() && m_.toB[px.value] != py)
                return false;
            if (py.valid() && m_.toA[py.value].valid() && m_.toA[py.value] != px)
                return false;
        }
        return true;
    }

    /// Pairs two candidate lists of one kind (same op, same input slot, in topological order). A single
    /// candidate on each side pairs if consistent. Among several, a pair is taken only when its score beats
    /// every rival for either node; ties wait for a better-informed route through the graph, and only the
    /// final pass (allowTies_) settles them by relative position.
    bool pairCandidates(const std::vector<NodeId>& xs, const std::vector<NodeId>& ys) {
        if (xs.size() == 1 && ys.size() == 1) {
            if (consistent(xs[0], ys[0]))
                pair(xs[0], ys[0], MatchKind::Structure);
            return true;
        }
        struct Option {
            int score;
            size_t offset;
            size_t i, j;
        };
        std::vector<Option> options;
        for (size_t i = 0; i < xs.size(); ++i)
            for (size_t j = 0; j < ys.size(); ++j)
                if (consistent(xs[i], ys[j]))
                    options.push_back({score(xs[i], ys[j]), i > j ? i - j : j - i, i, j});
        std::sort(options.begin(), options.end(), [](const Option& l, const Option& r) {
            return std::tie(r.score, l.offset, l.i, l.j) < std::tie(l.score, r.offset, r.i, r.j);
        });
        std::vector<bool> usedX(xs.size()), usedY(ys.size());
        bool settled = true;
        for (size_t k = 0; k < options.size(); ++k) {
            const Option& o = options[k];
            if (usedX[o.i] || usedY[o.j] || !bothFree(xs[o.i], ys[o.j]))
                continue;
            bool rival = false;
            for (size_t r = 0; r < options.size() && !rival; ++r) {
                const Option& q = options[r];
                rival = r != k && q.score >= o.score && (q.i == o.i || q.j == o.j) && !usedX[q.i] &&
                        !usedY[q.j] && bothFree(xs[q.i], ys[q.j]);
            }
            if (rival && !allowTies_) {
                settled = false;
                continue;
            }
            usedX[o.i] = usedY[o.j] = true;
            pair(xs[o.i], ys[o.j], MatchKind::Structure);
        }
        return settled;
    }

    void propagate() {
        while (!queue_.empty()) {
            const auto [ta, tb] = queue_.front();
            queue_.pop_front();
            if (a_.tensor(ta).isInitializer || b_.tensor(tb).isInitializer)
                continue; // see pair(): weights do not tell their consumers apart
            // Producers: the same value comes from the same node.
            const NodeId pa = a_.tensor(ta).producer, pb = b_.tensor(tb).producer;
            if (pa.valid() && pb.valid() && bothFree(pa, pb) && a_.node(pa).opType == b_.node(pb).opType)
                pair(pa, pb, MatchKind::Structure);
            // Consumers, grouped by op type and the slot they read the value at.
            std::map<std::pair<std::string, size_t>, std::pair<std::vector<NodeId>, std::vector<NodeId>>>
                groups;
            collect(a_, ta, m_.toB, groups, true);
            collect(b_, tb, m_.toA, groups, false);
            bool settled = true;
            for (const auto& [key, lists] : groups)
                if (!lists.first.empty() && !lists.second.empty())
                    settled &= pairCandidates(lists.first, lists.second);
            if (!settled)
                deferred_.emplace_back(ta, tb);
        }
    }

    template <typename Groups>
    static void collect(const Graph& g, TensorId t, const std::vector<NodeId>& matched, Groups& groups,
                        bool first) {
        std::vector<NodeId> consumers = g.tensor(t).consumers;
        std::sort(consumers.begin(), consumers.end(),
                  [&g](NodeId l, NodeId r) { return g.topoIndex()[l.value] < g.topoIndex()[r.value]; });
        consumers.erase(std::unique(consumers.begin(), consumers.end()), consumers.end());
        for (NodeId c : consumers) {
            if (matched[c.value].valid())
                continue;
            const Node& n = g.node(c);
            for (size_t slot = 0; slot < n.inputs.size(); ++slot) {
                if (n.inputs[slot] != t)
                    continue;
                auto& lists = groups[{n.opType, slot}];
                (first ? lists.first : lists.second).push_back(c);
                break;
            }
        }
    }

    void byUniqueSignature() {
        std::map<std::string, std::pair<std::vector<NodeId>, std::vector<NodeId>>> bySig;
        for (NodeId id : a_.topoOrder)
            if (!m_.toB[id.value].valid())
                bySig[sigA_[id.value] + "|" + shapeA_[id.value]].first.push_back(id);
        for (NodeId id : b_.topoOrder)
            if (!m_.toA[id.value].valid())
                bySig[sigB_[id.value] + "|" + shapeB_[id.value]].second.push_back(id);
        for (const auto& [sig, lists] : bySig)
            if (lists.first.size() == 1 && lists.second.size() == 1)
                pair(lists.first[0], lists.second[0], MatchKind::Structure);
    }

    const Graph& a_;
    const Graph& b_;
    NodeMatching m_;
    std::vector<MatchKind> kind_;
    std::vector<std::string> sigA_, sigB_, shapeA_, shapeB_;
    std::deque<std::pair<TensorId, TensorId>> queue_;
    std::vector<std::pair<TensorId, TensorId>> deferred_; ///< tensors whose consumers tied
    bool allowTies_ = false;
};

} // namespace

NodeMatching matchNodes(const Graph& a, const Graph& b) {
    return Matcher(a, b).run();
}

} // namespace bpu
