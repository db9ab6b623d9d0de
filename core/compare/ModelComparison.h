// SPDX-License-Identifier: MIT
#pragma once

#include "NodeMatcher.h"
#include "core/cost/LatencyFigures.h"
#include "core/model/Ids.h"
#include "core/target/Placement.h"

#include <string>
#include <vector>

namespace bpu {

class Session;

/// One model's side of a comparison: the figures a one-row summary shows.
struct CompareSide {
    std::string path;
    std::string target; ///< display name and profile version
    LatencyFigures figures;
    int nodes = 0, bpuNodes = 0, cpuNodes = 0, bpuSegments = 0, findings = 0;
    int64_t paddingWasteBytes = 0;
    double paddingWasteRatio = 0;
    /// Why this side's figures rest on guessed shapes (Completeness::summary); empty when it is complete.
    std::string partial;
};

/// One node as one model has it.
struct NodeFacts {
    std::string name;
    Placement placement = Placement::BPU;
    std::vector<int64_t> shape;       ///< first output, -1 for unknown dims; empty when the rank is unknown
    std::vector<int64_t> paddedShape; ///< empty when no BPU padding applies
    int64_t paddingWasteBytes = 0;    ///< over every output
    double latencyUs = 0;
};

/// A matched pair and how it changed from A to B.
struct NodeDelta {
    NodeId a, b;
    std::string op;
    MatchKind how = MatchKind::Structure;
    NodeFacts inA, inB;

    bool placementChanged() const { return inA.placement != inB.placement; }
    bool shapeChanged() const { return inA.shape != inB.shape; }
    bool paddingChanged() const {
        return inA.paddedShape != inB.paddedShape || inA.paddingWasteBytes != inB.paddingWasteBytes;
    }
    double latencyDeltaUs() const { return inB.latencyUs - inA.latencyUs; }
};

/// A node only one model has.
struct UnmatchedNode {
    NodeId id;
    std::string op;
    NodeFacts facts;
};

/// A finding one model has and the other does not (by rule, and by the nodes it names through the matching).
struct FindingChange {
    std::string rule, severity, title;
    std::vector<std::string> nodes; ///< names in the model that has it
};

/// Model A against model B (B - A throughout): the headline figures, every matched node's deltas, the nodes
/// only one side has, and the findings added or removed. A value: it owns every string it shows, so it
/// travels between threads and outlives the sessions it came from.
struct Comparison {
    CompareSide a, b;
    std::vector<NodeDelta> nodes; ///< matched pairs in A's topological order
    std::vector<UnmatchedNode> unmatchedA, unmatchedB;
    std::vector<FindingChange> findingsAdded;   ///< in B, not in A
    std::vector<FindingChange> findingsRemoved; ///< in A, not in B
    int matchedByName = 0, matchedByStructure = 0;
    int placementChanges = 0, shapeChanges = 0, paddingChanges = 0;

    double latencyMsDelta() const { return b.figures.latencyMs - a.figures.latencyMs; }
    double bpuMsDelta() const { return b.figures.bpuMs - a.figures.bpuMs; }
    double fpsDelta() const { return b.figures.fps - a.figures.fps; }
    /// B's latency minus A's for every node of A (NaN for an unmatched one: no delta), indexed by A's NodeId.
    std::vector<double> latencyDeltaByNodeOfA(size_t nodeCount) const;
};

/// Compares two analysed sessions (their findings are brought up to date first).
Comparison compareSessions(Session& a, Session& b);

} // namespace bpu
