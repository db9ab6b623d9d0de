// SPDX-License-Identifier: MIT
#include "EditContext.h"

#include "Session.h"

namespace bpu {

const Graph& EditContext::graph() const {
    return s_.graph();
}

Graph& EditContext::mutableGraph() {
    return s_.mutableGraph();
}

const AnalysisOptions& EditContext::options() const {
    return s_.options();
}

AnalysisOptions& EditContext::mutableOptions() {
    if (!token_.options_)
        token_.options_ = s_.options();
    return s_.mutableOptions();
}

void EditContext::replaceGraph(Graph g) {
    token_.swaps_.emplace_back(token_.patches_.size(),
                               s_.replaceGraph(std::make_shared<Graph>(std::move(g))));
}

void EditContext::recordPatch(GraphPatch patch, const std::vector<NodeId>& dirty) {
    token_.patches_.push_back(std::move(patch));
    token_.dirty_.insert(token_.dirty_.end(), dirty.begin(), dirty.end());
}

} // namespace bpu
