// SPDX-License-Identifier: MIT
#include "SubgraphScopes.h"

#include "ImportError.h"
#include "ModelChecks.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <deque>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace bpu {

namespace {

bool holdsBody(const onnx::NodeProto& n) {
    for (const auto& a : n.attribute())
        if (a.has_g() || a.graphs_size() > 0)
            return true;
    return false;
}

/// Who produced a name, kept as pointers into the model (alive for the whole check) so the label is built
/// only for a message.
struct Producer {
    enum class Kind { Input, Initializer, SparseInitializer, NodeOutput };
    Kind kind;
    const onnx::NodeProto* node; ///< NodeOutput only
    int index;                   ///< the node's index in its graph, or the input's
    const std::string* scope;    ///< "" for the main graph, else " in the body 'x' of node ..."
};

class ScopeStack {
public:
    explicit ScopeStack(const std::string& path)
        : path_(path) {}

    void mainGraph(const onnx::GraphProto& g) {
        static const std::string kMain;
        scopes_.emplace_back();
        // The main graph's duplicates are the importer's to refuse (on ids, SingleAssignment); here its names
        // are only what the bodies see, the first producer of each kept.
        for (int i = 0; i < g.input_size(); ++i)
            scopes_.back().emplace(g.input(i).name(), Producer{Producer::Kind::Input, nullptr, i, &kMain});
        for (const auto& t : g.initializer())
            scopes_.back().emplace(t.name(), Producer{Producer::Kind::Initializer, nullptr, 0, &kMain});
        for (const auto& s : g.sparse_initializer())
            scopes_.back().emplace(s.values().name(),
                                   Producer{Producer::Kind::SparseInitializer, nullptr, 0, &kMain});
        for (int i = 0; i < g.node_size(); ++i) {
            const auto& n = g.node(i);
            if (holdsBody(n))
                bodies(n, i, kMain);
            for (const auto& out : n.output())
                if (!out.empty())
                    scopes_.back().emplace(out, Producer{Producer::Kind::NodeOutput, &n, i, &kMain});
        }
        scopes_.pop_back();
    }

private:
    using Scope = std::unordered_map<std::string_view, Producer>;

    void bodies(const onnx::NodeProto& n, int index, const std::string& scope) {
        for (const auto& a : n.attribute()) {
            if (!a.has_g() && a.graphs_size() == 0)
                continue;
            labels_.push_back(" in the body '" + a.name() + "' of " + nodeLabel(n, index) + scope);
            const std::string& inner = labels_.back();
            if (a.has_g())
                body(a.g(), inner);
            for (const auto& g : a.graphs())
                body(g, inner);
        }
    }

    void body(const onnx::GraphProto& g, const std::string& scope) {
        scopes_.emplace_back();
        for (int i = 0; i < g.input_size(); ++i) {
            const std::string& name = g.input(i).name();
            if (name.empty())
                continue;
            if (auto it = scopes_.back().find(name); it != scopes_.back().end())
                fail("input '" + name + "'" + scope + " is listed twice (as inputs " +
                     std::to_string(it->second.index) + " and " + std::to_string(i) +
                     "): a value has one producer");
            scopes_.back().emplace(name, Producer{Producer::Kind::Input, nullptr, i, &scope});
        }
        // Two initializers with one name are refused whether or not it is also an input; one that is also an
        // input gives the input its default (legal at every IR version) and the input stays its producer.
        std::vector<std::string_view> initializers;
        for (const auto& t : g.initializer())
            initializers.push_back(t.name());
        for (const auto& s : g.sparse_initializer())
            initializers.push_back(s.values().name());
        checkInitializerNames(initializers, scope);
        for (const auto& t : g.initializer())
            if (!t.name().empty())
                scopes_.back().emplace(t.name(), Producer{Producer::Kind::Initializer, nullptr, 0, &scope});
        for (const auto& s : g.sparse_initializer())
            if (!s.values().name().empty())
                scopes_.back().emplace(s.values().name(),
                                       Producer{Producer::Kind::SparseInitializer, nullptr, 0, &scope});
        for (int i = 0; i < g.node_size(); ++i) {
            const auto& n = g.node(i);
            if (holdsBody(n))
                bodies(n, i, scope);
            for (int slot = 0; slot < n.output_size(); ++slot) {
                const std::string& out = n.output(slot);
                if (out.empty())
                    continue;
                if (const Producer* first = find(out))
                    refuse(n, i, scope, out, *first);
                scopes_.back().emplace(out, Producer{Producer::Kind::NodeOutput, &n, i, &scope});
            }
        }
        scopes_.pop_back();
    }

    /// Two initializers of one body with one name, whether or not it is also an input.
    void checkInitializerNames(std::vector<std::string_view>& names, const std::string& scope) const {
        std::sort(names.begin(), names.end());
        for (size_t i = 1; i < names.size(); ++i)
            if (!names[i].empty() && names[i] == names[i - 1])
                fail("initializer '" + std::string(names[i]) + "'" + scope +
                     " is listed twice (a value has one producer)");
    }

    const Producer* find(const std::string& name) const {
        for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
            if (auto it = s->find(name); it != s->end())
                return &it->second;
        return nullptr;
    }

    [[noreturn]] void refuse(const onnx::NodeProto& n, int index, const std::string& scope,
                             const std::string& name, const Producer& first) const {
        const std::string who = nodeLabel(n, index) + scope;
        if (first.node == &n) {
            fail(who + " lists '" + name + "' as more than one of its outputs (" + outputSlots(n, name) +
                 "): a value has one producer");
        }
        std::string what;
        switch (first.kind) {
        case Producer::Kind::Input:
            what = "input " + std::to_string(first.index) +
                   (first.scope->empty() ? " of the model" : *first.scope);
            break;
        case Producer::Kind::Initializer:
            what = "an initializer" + (first.scope->empty() ? std::string(" of the model") : *first.scope);
            break;
        case Producer::Kind::SparseInitializer:
            what =
                "a sparse initializer" + (first.scope->empty() ? std::string(" of the model") : *first.scope);
            break;
        case Producer::Kind::NodeOutput:
            what = "an output of " + nodeLabel(*first.node, first.index) + *first.scope;
            break;
        }
        fail(who + " writes '" + name + "', which is already " + what +
             " (a value has one producer, and a body sees the names around it)");
    }

    [[noreturn]] void fail(const std::string& problem) const { throw ImportError(path_, problem); }

    const std::string& path_;
    std::vector<Scope> scopes_;
    std::deque<std::string> labels_; ///< body labels; a deque keeps the producers' pointers to them valid
};

} // namespace

void checkSubgraphScopes(const std::string& path, const onnx::GraphProto& mainGraph) {
    bool any = false;
    for (const auto& n : mainGraph.node())
        if (holdsBody(n)) {
            any = true;
            break;
        }
    if (!any)
        return;
    ScopeStack(path).mainGraph(mainGraph);
}

} // namespace bpu
