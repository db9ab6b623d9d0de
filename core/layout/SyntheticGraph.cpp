// SPDX-License-Identifier: MIT
#include "SyntheticGraph.h"

#include <algorithm>
#include <random>
#include <string>

namespace bpu::layout {

namespace {

class Builder {
public:
    explicit Builder(uint32_t seed)
        : rng_(seed) {}

    Graph graph;

    int nodeCount() const { return static_cast<int>(graph.nodes.size()); }
    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

    TensorId input(int c, int hw) {
        TensorId t = tensor("images", c, hw);
        graph.tensor(t).isGraphInput = true;
        graph.inputs.push_back(t);
        return t;
    }

    /// One node with the given inputs and a single output of shape 1 x c x hw x hw.
    TensorId op(const std::string& type, std::vector<TensorId> inputs, int c, int hw) {
        Node n;
        n.opType = type;
        n.name = "/" + section_ + "/" + type + "_" + std::to_string(graph.nodes.size());
        n.inputs = std::move(inputs);
        TensorId out = tensor(n.name + "_out", c, hw);
        n.outputs = {out};
        graph.addNode(std::move(n));
        return out;
    }

    std::vector<TensorId> split(TensorId x, int c, int hw) {
        Node n;
        n.opType = "Split";
        n.name = "/" + section_ + "/Split_" + std::to_string(graph.nodes.size());
        n.inputs = {x};
        n.outputs = {tensor(n.name + "_0", c / 2, hw), tensor(n.name + "_1", c / 2, hw)};
        auto outs = n.outputs;
        graph.addNode(std::move(n));
        return outs;
    }

    void output(TensorId t) {
        graph.tensor(t).isGraphOutput = true;
        graph.outputs.push_back(t);
    }

    void section(const std::string& s) { section_ = s; }

private:
    TensorId tensor(const std::string& name, int c, int hw) {
        TensorId t = graph.internTensor(name);
        graph.tensor(t).dtype = DataType::Float;
        graph.tensor(t).shape = TensorShape({1, c, hw, hw});
        return t;
    }

    std::mt19937 rng_;
    std::string section_ = "model";
};

TensorId silu(Builder& b, TensorId x, int c, int hw) {
    TensorId y = b.op("Conv", {x}, c, hw);
    TensorId s = b.op("Sigmoid", {y}, c, hw);
    return b.op("Mul", {y, s}, c, hw);
}

TensorId c2f(Builder& b, TensorId x, int c, int hw, int repeats) {
    TensorId y = silu(b, x, c, hw);
    auto parts = b.split(y, c, hw);
    std::vector<TensorId> cat = parts;
    TensorId cur = parts[1];
    for (int i = 0; i < repeats; ++i) {
        TensorId t = silu(b, silu(b, cur, c / 2, hw), c / 2, hw);
        cur = b.op("Add", {cur, t}, c / 2, hw);
        cat.push_back(cur);
    }
    return silu(b, b.op("Concat", cat, c * (repeats + 2) / 2, hw), c, hw);
}

TensorId sppf(Builder& b, TensorId x, int c, int hw) {
    TensorId y = silu(b, x, c / 2, hw);
    TensorId m1 = b.op("MaxPool", {y}, c / 2, hw);
    TensorId m2 = b.op("MaxPool", {m1}, c / 2, hw);
    TensorId m3 = b.op("MaxPool", {m2}, c / 2, hw);
    return silu(b, b.op("Concat", {y, m1, m2, m3}, c * 2, hw), c, hw);
}

/// YOLOv8-like: backbone with C2f stages, SPPF, FPN/PAN neck and three two-branch heads. Returns the deepest
/// neck feature so the next section can continue from it.
TensorId yoloSection(Builder& b, TensorId x, int id) {
    b.section("yolo" + std::to_string(id));
    int c = 32, hw = 160;
    x = silu(b, x, c, hw);
    std::vector<TensorId> p;
    for (int s = 0; s < 4; ++s) {
        c *= 2;
        hw /= 2;
        x = silu(b, x, c, hw);
        x = c2f(b, x, c, hw, b.pick(1, 3));
        p.push_back(x);
    }
    x = sppf(b, x, c, hw);
    // Top-down: upsample and merge with the laterals from the backbone (long skips).
    TensorId up = b.op("Resize", {x}, c, hw * 2);
    TensorId n4 = c2f(b, b.op("Concat", {up, p[2]}, c + c / 2, hw * 2), c / 2, hw * 2, 1);
    up = b.op("Resize", {n4}, c / 2, hw * 4);
    TensorId n3 = c2f(b, b.op("Concat", {up, p[1]}, c, hw * 4), c / 4, hw * 4, 1);
    // Bottom-up.
    TensorId d = silu(b, n3, c / 4, hw * 2);
    TensorId n4b = c2f(b, b.op("Concat", {d, n4}, c, hw * 2), c / 2, hw * 2, 1);
    d = silu(b, n4b, c / 2, hw);
    TensorId n5 = c2f(b, b.op("Concat", {d, x}, c * 2, hw), c, hw, 1);
    for (TensorId f : {n3, n4b, n5}) {
        for (int branch = 0; branch < 2; ++branch) {
            TensorId h = silu(b, silu(b, f, 64, hw), 64, hw);
            b.output(b.op("Conv", {h}, branch == 0 ? 64 : 80, hw));
        }
    }
    return n5;
}

/// ResNet-like: bottleneck blocks Conv-Relu-Conv-Relu-Conv + shortcut, Add, Relu; the first block of a stage
/// has a downsample Conv on its shortcut.
TensorId resnetSection(Builder& b, TensorId x, int id, int blocks) {
    b.section("resnet" + std::to_string(id));
    int c = 256, hw = 56;
    for (int i = 0; i < blocks; ++i) {
        const bool down = i % 8 == 0;
        TensorId shortcut = down ? b.op("Conv", {x}, c, hw) : x;
        TensorId y = b.op("Relu", {b.op("Conv", {x}, c / 4, hw)}, c / 4, hw);
        y = b.op("Relu", {b.op("Conv", {y}, c / 4, hw)}, c / 4, hw);
        y = b.op("Conv", {y}, c, hw);
        x = b.op("Relu", {b.op("Add", {y, shortcut}, c, hw)}, c, hw);
    }
    return x;
}

} // namespace

Graph makeSyntheticGraph(int targetNodes, uint32_t seed, int towers) {
    Builder b(seed);
    b.graph.path = "synthetic";
    b.graph.producerName = "bpuscope synthetic";
    const TensorId in = b.input(3, 640);
    towers = std::max(1, towers);
    std::vector<TensorId> ends;
    for (int tower = 0; tower < towers; ++tower) {
        const int budget = targetNodes * (tower + 1) / towers;
        TensorId x = in;
        for (int section = 0; b.nodeCount() < budget; ++section) {
            const int left = budget - b.nodeCount();
            const int id = tower * 1000 + section;
            if (section % 2 == 0)
                x = resnetSection(b, x, id, std::max(1, std::min(30, left / 8)));
            else
                x = yoloSection(b, x, id);
        }
        ends.push_back(x);
    }
    b.section("output");
    b.output(towers > 1 ? b.op("Concat", ends, 256 * towers, 56) : ends.front());
    b.graph.link();
    return std::move(b.graph);
}

} // namespace bpu::layout
