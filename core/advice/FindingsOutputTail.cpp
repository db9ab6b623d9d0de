// SPDX-License-Identifier: MIT
// G6.2 (issue 62): a model that ends in a full-resolution tail - its low-resolution class map resized to the
// input size, an ArgMax over the classes - spends BPU time and DDR traffic on the largest feature map it has,
// for work the application can do on the small map (argmax first, then resize: one value per pixel instead
// of one per class). Where that tail is a top layer, the fix is the existing cut (cut_at) at the map before
// it; the application then does the resize/argmax.
#include "FindingUtil.h"
#include "core/edit/CutEdits.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace bpu {

namespace {

bool tailOp(const std::string& op) {
    return op == "Resize" || op == "Upsample" || op == "ArgMax" || op == "Softmax" || op == "Sigmoid" ||
           op == "Cast";
}

} // namespace

void findOutputTail(AnalysisContext& c) {
    const Graph& g = c.g;
    auto& r = c.r;
    // The model's input sizes (H, W): a resize to one of them is back to full resolution.
    std::set<std::pair<int64_t, int64_t>> inputHw;
    for (TensorId in : g.inputs) {
        const TensorShape& s = g.tensor(in).shape;
        if (s.rank() == 4 && s.fullyKnown())
            inputHw.insert({s.dims[2], s.dims[3]});
    }
    const double total = bpuRooflineUs(c);
    for (TensorId out : g.outputs) {
        // From the output back, while each node is a tail op whose output only the tail reads.
        std::vector<NodeId> tail; // output first
        TensorId t = out;
        bool fullRes = false;
        while (t.valid()) {
            const Tensor& tensor = g.tensor(t);
            const NodeId p = tensor.producer;
            if (!p.valid() || !tailOp(g.node(p).opType) || g.node(p).inputs.empty() ||
                tensor.consumers.size() != (tail.empty() ? 0u : 1u) ||
                (!tail.empty() && tensor.isGraphOutput))
                break;
            const Node& n = g.node(p);
            const TensorShape& in = g.tensor(n.inputs[0]).shape;
            if (n.opType == "ArgMax")
                fullRes = true;
            if ((n.opType == "Resize" || n.opType == "Upsample") && tensor.shape.rank() == 4 &&
                in.rank() == 4 && inputHw.count({tensor.shape.dims[2], tensor.shape.dims[3]}) &&
                tensor.shape.elements().value_or(0) > in.elements().value_or(0))
                fullRes = true;
            tail.push_back(p);
            t = n.inputs[0];
        }
        if (tail.empty() || !fullRes || !t.valid() || !g.tensor(t).producer.valid() ||
            g.tensor(t).isGraphInput)
            continue;
        double us = 0;
        for (NodeId n : tail)
            us += rooflineUs(c, n);
        // A top layer: at least the profile's medium-severity share of the BPU time (else not worth a cut).
        const double share = total > 0 ? us / total : 0;
        if (share < c.target.severityMediumShare.value)
            continue;
        std::reverse(tail.begin(), tail.end()); // in execution order
        std::string ops;
        nlohmann::json names = nlohmann::json::array();
        for (NodeId n : tail) {
            ops += (ops.empty() ? "" : " -> ") + g.node(n).opType;
            names.push_back(g.node(n).name);
        }
        const Tensor& low = g.tensor(t);
        const Tensor& high = g.tensor(out);
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.0f%%", share * 100);
        Finding f;
        f.rule = RuleId::G6_2;
        f.cause = "output tail '" + high.name + "'";
        f.severity = Severity::Medium;
        f.nodes = tail;
        f.title = "Full-resolution output tail " + ops + " " + low.shape.toString() + " -> " +
                  high.shape.toString() + " at output '" + high.name + "' (" + pct + " of the BPU time)";
        f.evidence = {{"output", high.name},
                      {"cut_at", low.name},
                      {"tail_nodes", names},
                      {"low_resolution_shape", low.shape.toString()},
                      {"output_shape", high.shape.toString()},
                      {"roofline_us", us},
                      {"bpu_roofline_us", total},
                      {"share_of_bpu_time", share},
                      {"share_min", c.target.severityMediumShare.value},
                      {"note",
                       "the estimated gain counts the tail's time as saved: the resize/argmax moves to "
                       "the application, which runs it on the CPU (argmax first, then resize the class "
                       "map: one value per pixel instead of one per class)"}};
        f.recommendation =
            "End the model at '" + low.name + "' " + low.shape.toString() +
            " (cut_at) and let the application do the " + ops +
            " on that map: the BPU no longer writes the full-resolution " + high.shape.toString() +
            " map, the largest feature map of the model. The application pays the resize/argmax "
            "instead (argmax first, then resize: one value per pixel instead of one per class).";
        f.fix = {std::make_shared<CutAtEdit>(std::vector<std::string>{low.name})};
        r.findings.push_back(std::move(f));
    }
}

} // namespace bpu
