// SPDX-License-Identifier: MIT
#include "BakedSizes.h"

#include "Graph.h"

#include <algorithm>
#include <deque>

namespace bpu {

namespace {

/// Where one element of a small integer tensor comes from.
struct Element {
    bool fixed = false; ///< a number of the file (a constant), not computed from a shape
    std::pair<TensorId, size_t> source{TensorId{}, 0};
};

/// How deep the shape arithmetic behind a size is followed: the tracer's chains are a few nodes long.
constexpr int kMaxDepth = 32;

const ConstValue* intValue(const Graph& g, TensorId t) {
    if (!t.valid())
        return nullptr;
    const auto& v = g.tensor(t).value;
    return v && v->isInt() && v->dims.size() <= 1 ? v.get() : nullptr;
}

/// The elements of `t` (a folded 1-D or scalar integer tensor) and where each comes from; nullopt when the
/// arithmetic is not one this follows (the caller counts such elements as computed, never as baked).
std::optional<std::vector<Element>> trace(const Graph& g, TensorId t, int depth) {
    const ConstValue* v = intValue(g, t);
    if (!v || depth > kMaxDepth)
        return std::nullopt;
    const size_t n = v->size();
    const Tensor& tensor = g.tensor(t);
    const Node* p = tensor.producer.valid() ? &g.node(tensor.producer) : nullptr;
    if (tensor.isInitializer || (p && p->opType == "Constant")) {
        std::vector<Element> out(n);
        for (size_t i = 0; i < n; ++i)
            out[i] = {true, {t, i}};
        return out;
    }
    if (!p)
        return std::vector<Element>(n); // a model input's value: not the file's number
    const std::string& op = p->opType;
    auto in = [&](size_t i) {
        return i < p->inputs.size() ? p->inputs[i] : TensorId{};
    };
    if (op == "Shape" || op == "Size")
        return std::vector<Element>(n);
    if (op == "Concat") {
        std::vector<Element> out;
        for (TensorId i : p->inputs) {
            auto part = trace(g, i, depth + 1);
            if (!part)
                return std::nullopt;
            out.insert(out.end(), part->begin(), part->end());
        }
        return out.size() == n ? std::optional(out) : std::nullopt;
    }
    if (op == "Cast" || op == "Identity" || op == "Squeeze" || op == "Unsqueeze" || op == "Floor" ||
        op == "Ceil" || op == "Reshape" || op == "Flatten") {
        auto a = trace(g, in(0), depth + 1);
        return a && a->size() == n ? a : std::nullopt;
    }
    if (op == "Slice") {
        auto a = trace(g, in(0), depth + 1);
        const ConstValue *starts = intValue(g, in(1)), *ends = intValue(g, in(2));
        const ConstValue* axes = intValue(g, in(3));
        const ConstValue* steps = intValue(g, in(4));
        if (!a || !starts || !ends || starts->size() != 1 || ends->size() != 1 ||
            (axes && (axes->size() != 1 || axes->ints[0] != 0)) ||
            (steps && (steps->size() != 1 || steps->ints[0] != 1)))
            return std::nullopt;
        const auto len = int64_t(a->size());
        auto clamp = [len](int64_t i) {
            return std::clamp(i < 0 ? i + len : i, int64_t(0), len);
        };
        const int64_t s = clamp(starts->ints[0]), e = clamp(ends->ints[0]);
        std::vector<Element> out(a->begin() + s, a->begin() + std::max(s, e));
        return out.size() == n ? std::optional(out) : std::nullopt;
    }
    if (op == "Gather") {
        auto a = trace(g, in(0), depth + 1);
        const ConstValue* idx = intValue(g, in(1));
        if (!a || !idx || p->attrIntOr("axis", 0) != 0)
            return std::nullopt;
        std::vector<Element> out;
        for (int64_t i : idx->ints) {
            const int64_t k = i < 0 ? i + int64_t(a->size()) : i;
            if (k < 0 || k >= int64_t(a->size()))
                return std::nullopt;
            out.push_back((*a)[size_t(k)]);
        }
        return out.size() == n ? std::optional(out) : std::nullopt;
    }
    if (op == "Mul" || op == "Div" || op == "Add" || op == "Sub" || op == "Max" || op == "Min") {
        // Arithmetic on a shape follows the shape; only constants combined are the file's number, and then
        // no one element holds it (not rewritable).
        auto a = trace(g, in(0), depth + 1), b = trace(g, in(1), depth + 1);
        if (!a || !b || a->empty() || b->empty())
            return std::nullopt;
        std::vector<Element> out(n);
        for (size_t i = 0; i < n; ++i) {
            const Element& x = (*a)[a->size() == 1 ? 0 : std::min(i, a->size() - 1)];
            const Element& y = (*b)[b->size() == 1 ? 0 : std::min(i, b->size() - 1)];
            out[i].fixed = x.fixed && y.fixed;
        }
        return out;
    }
    return std::nullopt;
}

int64_t ceilDiv(int64_t a, int64_t b) {
    return (a + b - 1) / b;
}

/// How the value `v` follows one extent `x` of the traced input: a stage (ceil(x / s)) or past it (x * s).
int64_t followStride(int64_t v, int64_t x) {
    if (v < 2 || x < 2)
        return 0;
    for (int64_t s = 1; s <= 128; s *= 2)
        if (v == ceilDiv(x, s))
            return s;
    for (int64_t s = 2; s <= 8; s *= 2)
        if (v == x * s)
            return -s;
    return 0;
}

int64_t areaStride(int64_t v, const TracedInput& in) {
    if (v < 4)
        return 0;
    // Up to stride 32, the deepest stage a detector or a classifier has: a 64-channel dim must not pass for
    // the 8x8 map of stride 64 at 512.
    for (int64_t s = 1; s <= 32; s *= 2)
        if (v == ceilDiv(in.h, s) * ceilDiv(in.w, s))
            return s;
    return 0;
}

/// The input holding a node's size and what the JSON calls it; invalid when the node applies none.
std::pair<TensorId, const char*> sizeInput(const Node& n) {
    auto at = [&n](size_t i) {
        return i < n.inputs.size() ? n.inputs[i] : TensorId{};
    };
    if (n.opType == "Resize")
        return {at(3), "sizes"};
    if (n.opType == "Reshape" || n.opType == "Expand")
        return {at(1), "shape"};
    if (n.opType == "ConstantOfShape")
        return {at(0), "shape"};
    return {TensorId{}, ""};
}

/// Sets `b.follows` for the elements of a size that follow the input at `traced`; false when none does.
/// Where H and W can be: the last two of a Resize/Expand/ConstantOfShape; anywhere after N in a Reshape
/// target (NCHW, NHWC and token layouts alike: yolo12's attention reshapes to [1, 40, 40, 64]). A size holds
/// one map at most, so the first reading that fits wins and no other element is read as H or W:
///  1. two fixed neighbours at one stage's stride are its H then W, wherever they sit ([1, 40, 40, 64] is
///     not H and H: read so, a re-export at another H than W scaled both; issue 63);
///  2. else, in a Reshape target, a fixed element that is a stage's area is a flattened map ([B, H*W, C] or
///     [B, C, H*W]; [1, 192, 1280] at 512 x 640 is 32 x 40, not W twice);
///  3. else each lone element that is a stage's extent or a multiple of the input's (the last is W, the
///     others H).
/// Numbers still coincide (a channel count equal to a stage's extent): the re-export trial then breaks at
/// the next conv and says so, rather than estimating anything. Without 1 and 2, at 512 x 640 yolo12n's 64
/// channels passed for H / 8 beside a flattened 1280, and 128 for H / 4 beside its 16 x 20 map.
bool matchFollows(BakedSize& b, bool reshape, const TracedInput& traced) {
    const size_t r = b.value.size();
    auto spatial = [&](size_t i) {
        return b.fixed[i] && (reshape ? i >= 1 : i + 2 >= r);
    };
    for (size_t i = 0; i + 1 < r; ++i)
        if (spatial(i) && spatial(i + 1))
            if (const int64_t sh = followStride(b.value[i], traced.h);
                sh && followStride(b.value[i + 1], traced.w) == sh) {
                b.follows[i] = {SizeFollow::H, sh};
                b.follows[i + 1] = {SizeFollow::W, sh};
                return true;
            }
    if (reshape)
        for (size_t i = 1; i < r; ++i)
            if (const int64_t s = b.fixed[i] ? areaStride(b.value[i], traced) : 0) {
                b.follows[i] = {SizeFollow::Area, s};
                return true;
            }
    bool any = false;
    for (size_t i = 0; i < r; ++i) {
        if (!spatial(i))
            continue;
        const int64_t sh = followStride(b.value[i], traced.h), sw = followStride(b.value[i], traced.w);
        SizeFollow& f = b.follows[i];
        if (i + 1 == r && sw)
            f = {SizeFollow::W, sw};
        else if (sh)
            f = {SizeFollow::H, sh};
        else if (sw)
            f = {SizeFollow::W, sw};
        any = any || f.axis != SizeFollow::None;
    }
    return any;
}

/// `node` as a baked size, or nullopt when its size is computed (or it applies none).
std::optional<BakedSize> bakedAt(const Graph& g, NodeId id, const std::optional<TracedInput>& traced) {
    const Node& n = g.node(id);
    const auto [sizeTensor, what] = sizeInput(n);
    const ConstValue* v = intValue(g, sizeTensor);
    if (!v || v->size() == 0)
        return std::nullopt;
    const std::optional<std::vector<Element>> elems = trace(g, sizeTensor, 0);
    if (!elems)
        return std::nullopt;
    BakedSize b;
    b.node = id;
    b.input = what;
    b.value = v->ints;
    const size_t r = b.value.size();
    b.fixed.resize(r);
    b.source.resize(r, {TensorId{}, 0});
    b.follows.resize(r);
    for (size_t i = 0; i < r; ++i) {
        b.fixed[i] = (*elems)[i].fixed;
        b.source[i] = (*elems)[i].source;
    }
    const bool reshape = n.opType == "Reshape";
    if (!reshape && r < 3)
        return std::nullopt; // a Resize/Expand of rank < 3 has no H/W to bake
    if (!traced) {
        // Nothing to match against: a Resize/Expand/ConstantOfShape whose H or W (its last two) is fixed.
        if (reshape || !(b.fixed[r - 2] || b.fixed[r - 1]))
            return std::nullopt;
    } else if (!matchFollows(b, reshape, *traced)) {
        return std::nullopt;
    }
    b.rewritable = true;
    for (size_t i = 0; i < r; ++i)
        if (b.follows[i].axis != SizeFollow::None && !b.source[i].first.valid())
            b.rewritable = false;
    if (!traced) // nothing is known to follow the input: nothing to rewrite
        b.rewritable = false;
    return b;
}

} // namespace

std::vector<BakedSize> bakedSizesBehind(const Graph& g, NodeId node, const std::optional<TracedInput>& traced,
                                        size_t max) {
    std::vector<BakedSize> out;
    if (!node.valid() || node.value >= g.nodes.size())
        return out;
    std::vector<uint8_t> seen(g.nodes.size(), 0);
    std::deque<NodeId> queue;
    auto push = [&](const Node& n) {
        for (TensorId t : n.inputs)
            if (t.valid())
                if (NodeId p = g.tensor(t).producer; p.valid() && !seen[p.value]) {
                    seen[p.value] = 1;
                    queue.push_back(p);
                }
    };
    // The node itself first (a Reshape to a traced target breaks where it stands), then behind it.
    if (auto b = bakedAt(g, node, traced))
        out.push_back(std::move(*b));
    seen[node.value] = 1;
    push(g.node(node));
    while (!queue.empty() && out.size() < max) {
        const NodeId id = queue.front();
        queue.pop_front();
        if (auto b = bakedAt(g, id, traced))
            out.push_back(std::move(*b));
        push(g.node(id));
    }
    return out;
}

std::vector<BakedSize> bakedSizes(const Graph& g, const TracedInput& traced) {
    std::vector<BakedSize> out;
    for (const auto& n : g.nodes)
        if (sizeInput(n).first.valid())
            if (auto b = bakedAt(g, n.id, traced))
                out.push_back(std::move(*b));
    return out;
}

std::vector<int64_t> reexportedValue(const BakedSize& b, int64_t h1, int64_t w1) {
    std::vector<int64_t> out = b.value;
    for (size_t i = 0; i < out.size() && i < b.follows.size(); ++i) {
        const SizeFollow& f = b.follows[i];
        auto scaled = [&f](int64_t x) {
            return f.stride > 0 ? ceilDiv(x, f.stride) : x * -f.stride;
        };
        switch (f.axis) {
        case SizeFollow::H:
            out[i] = scaled(h1);
            break;
        case SizeFollow::W:
            out[i] = scaled(w1);
            break;
        case SizeFollow::Area:
            out[i] = ceilDiv(h1, f.stride) * ceilDiv(w1, f.stride);
            break;
        case SizeFollow::None:
            break;
        }
    }
    return out;
}

std::string bakedSizeText(const Graph& g, const BakedSize& b) {
    const Node& n = g.node(b.node);
    std::string dims;
    for (size_t i = 0; i < b.value.size(); ++i)
        dims += (i ? "x" : "") + std::to_string(b.value[i]);
    return "'" + n.name + "' (" + n.opType + " " + b.input + " " + dims + ")";
}

} // namespace bpu
