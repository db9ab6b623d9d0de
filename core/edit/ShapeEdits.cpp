// SPDX-License-Identifier: MIT
#include "ShapeEdits.h"

#include "EditContext.h"
#include "EditError.h"
#include "EditJson.h"
#include "Session.h"
#include "StoredWeight.h"
#include "core/model/ImportOptions.h"

#include <algorithm>
#include <unordered_set>

namespace bpu {

namespace {

/// A Conv to edit and where its weight is stored: an initializer, or one behind a fake-quant pair (QAT).
struct EditableConv {
    Node& node;
    StoredWeight weight;
    const std::vector<int64_t>& dims() const { return dimsOf; }
    std::vector<int64_t> dimsOf; ///< the weight's dims, as stored
};

EditableConv requireConv(Graph& g, const std::string& name) {
    NodeId id = g.findNode(name);
    if (!id.valid())
        throw EditError("no node named '" + name + "'");
    Node& n = g.node(id);
    if (n.opType != "Conv")
        throw EditError("'" + name + "' is a " + n.opType + ", not a Conv");
    std::optional<StoredWeight> w;
    if (n.inputs.size() >= 2 && n.inputs[1].valid())
        w = storedWeight(g, n.inputs[1]);
    if (!w || !g.tensor(w->stored).shape.fullyKnown() || g.tensor(w->stored).shape.rank() < 3)
        throw EditError("Conv '" + name +
                        "' has no stored weight with a known shape (an initializer, or one behind its "
                        "QuantizeLinear/DequantizeLinear)");
    if (!n.inputs[0].valid() || !g.tensor(n.inputs[0]).shape.fullyKnown())
        throw EditError("Conv '" + name + "' input shape is not known");
    const std::vector<int64_t> dims = g.tensor(w->stored).shape.dims;
    return {n, std::move(*w), dims};
}

int64_t channelsOf(const Graph& g, TensorId t) {
    if (!t.valid())
        return -1;
    const auto& s = g.tensor(t).shape;
    return s.rank() >= 2 && s.dims[1] > 0 ? s.dims[1] : -1;
}

// Resizes the parameters of node `id` to its (already re-inferred) input channel count. Nodes between a
// resized weight and `id` (a QAT weight's Q/DQ pair) are added to `between`: their metrics change too.
void adaptToInput(Graph& g, GraphPatch& patch, NodeId id, std::vector<NodeId>& between) {
    Node& n = g.node(id);
    if (n.inputs.empty() || !n.inputs[0].valid())
        return;
    const TensorShape& x = g.tensor(n.inputs[0]).shape;
    const int64_t c = channelsOf(g, n.inputs[0]);
    if (c <= 0)
        return;
    auto initializer = [&](size_t i) -> Tensor* {
        if (i >= n.inputs.size() || !n.inputs[i].valid() || !g.tensor(n.inputs[i]).isInitializer)
            return nullptr;
        return &g.tensor(n.inputs[i]);
    };
    // A weight stored as an initializer or behind a fake-quant pair: resized where it is stored.
    // A parameter passed on by Identity nodes alone is one torch shares between layers: left as it is (it
    // always was), the layer's own shape inference says whether the new width fits.
    auto source = [&](size_t i) -> std::optional<StoredWeight> {
        if (i >= n.inputs.size() || !n.inputs[i].valid())
            return std::nullopt;
        std::optional<StoredWeight> w = storedWeight(g, n.inputs[i]);
        if (w &&
            std::all_of(w->nodes.begin(), w->nodes.end(),
                        [&](NodeId x) { return g.node(x).opType == "Identity"; }) &&
            !w->nodes.empty())
            return std::nullopt;
        return w;
    };
    auto resize = [&](const StoredWeight& w, size_t axis, int64_t value) {
        resizeWeight(g, patch, w, axis, value);
        between.insert(between.end(), w.nodes.begin(), w.nodes.end());
    };
    if (n.opType == "Conv") {
        const std::optional<StoredWeight> w = source(1);
        if (!w || g.tensor(w->stored).shape.rank() < 3)
            return;
        const std::vector<int64_t> dims = g.tensor(w->stored).shape.dims;
        const int64_t group = std::max<int64_t>(1, n.attrIntOr("group", 1));
        if (dims[1] * group == c)
            return;
        const bool depthwise = group > 1 && dims[1] == 1 && dims[0] % group == 0;
        if (depthwise) {
            const int64_t multiplier = dims[0] / group;
            patch.saveNode(g, id);
            n.proto = n.withIntAttribute("group", c);
            resize(*w, 0, c * multiplier);
            if (const std::optional<StoredWeight> b = source(2))
                resize(*b, 0, c * multiplier);
            return;
        }
        if (c % group != 0)
            throw EditError("Conv '" + n.name + "' (group " + std::to_string(group) + ") cannot take " +
                            std::to_string(c) + " input channels");
        resize(*w, 1, c / group);
    } else if (n.opType == "ConvTranspose") {
        if (Tensor* w = initializer(1))
            resizeTensorDim(g, patch, w->id, 0, c);
    } else if (n.opType == "BatchNormalization" || n.opType == "InstanceNormalization") {
        for (size_t i = 1; i < n.inputs.size(); ++i)
            if (Tensor* p = initializer(i); p && p->shape.rank() == 1)
                resizeTensorDim(g, patch, p->id, 0, c);
    } else if (n.opType == "PRelu" || n.opType == "Add" || n.opType == "Mul" || n.opType == "Sub" ||
               n.opType == "Div") {
        // Per-channel broadcast parameters: [C], [C,1,1] or [1,C,1,1].
        for (size_t i = 0; i < n.inputs.size(); ++i) {
            Tensor* p = initializer(i);
            if (!p || p->shape.rank() == 0 || x.rank() < 2)
                continue;
            size_t axis = p->shape.rank() == x.rank() ? 1 : p->shape.rank() + 1 == x.rank() ? 0 : SIZE_MAX;
            if (axis != SIZE_MAX && p->shape.dims[axis] > 1)
                resizeTensorDim(g, patch, p->id, axis, c);
        }
    } else if (n.opType == "Gemm" && x.rank() == 2) {
        Tensor* w = initializer(1);
        const int64_t k = n.attrIntOr("transA", 0) ? x.dims[0] : x.dims[1];
        if (w && w->shape.rank() == 2)
            resizeTensorDim(g, patch, w->id, n.attrIntOr("transB", 0) ? 1 : 0, k);
    } else if (n.opType == "MatMul" && x.rank() >= 1) {
        Tensor* w = initializer(1);
        if (w && w->shape.rank() == 2)
            resizeTensorDim(g, patch, w->id, 0, x.dims.back());
    }
}

} // namespace

void ShapeEdit::change(EditContext& ctx) const {
    GraphPatch patch;
    std::vector<TensorId> changed;
    std::vector<NodeId> touched;
    Graph& g = ctx.mutableGraph();
    try {
        changeGraph(g, patch, changed, touched);
    } catch (...) {
        patch.restore(g);
        throw;
    }
    std::vector<NodeId> between; // Q/DQ nodes of weights adaptToInput resized
    std::vector<NodeId> visited =
        patch.reinfer(g, changed, touched, [&](NodeId id) { adaptToInput(g, patch, id, between); });
    visited.insert(visited.end(), between.begin(), between.end());
    // The edited node itself and everything re-inferred need new metrics; neighbours of resized weights too.
    std::unordered_set<uint32_t> dirty;
    for (NodeId id : visited)
        dirty.insert(id.value);
    for (NodeId id : touched)
        dirty.insert(id.value);
    for (TensorId t : changed)
        for (NodeId c : g.tensor(t).consumers)
            dirty.insert(c.value);
    // A parameter resized for one consumer (a weight, BN or per-channel constant shared between nodes) must
    // not change another node the new width never reached: that node's shapes would not be re-derived.
    for (TensorId t : patch.savedTensors()) {
        const Tensor& tensor = g.tensor(t);
        if (!tensor.isInitializer)
            continue;
        for (NodeId c : tensor.consumers)
            if (!dirty.count(c.value)) {
                const std::string user = g.node(c).name, name = tensor.name;
                patch.restore(g);
                throw EditError("the change resizes '" + name + "', which '" + user +
                                "' shares but the new shape does not reach");
            }
    }
    std::vector<NodeId> nodes;
    nodes.reserve(dirty.size());
    for (uint32_t v : dirty)
        nodes.push_back(NodeId{v});
    ctx.recordPatch(std::move(patch), nodes);
}

EditPtr SetGroupEdit::fromJson(const nlohmann::json& j) {
    return std::make_shared<SetGroupEdit>(editjson::str(j, "node"), editjson::integer(j, "group"));
}

void SetGroupEdit::changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                               std::vector<NodeId>& touched) const {
    EditableConv conv = requireConv(g, node_);
    Node& n = conv.node;
    const auto& w = conv.dims();
    const int64_t cin = g.tensor(n.inputs[0]).shape.dims[1], cout = w[0];
    if (group_ <= 0)
        throw EditError("group must be positive");
    if (cin % group_ != 0 || cout % group_ != 0)
        throw EditError("group " + std::to_string(group_) + " does not divide the channels of '" + node_ +
                        "' (in " + std::to_string(cin) + ", out " + std::to_string(cout) + ")");
    requireWeightUnshared(g, conv.weight, n.id, node_, 1);
    patch.saveNode(g, n.id);
    n.proto = n.withIntAttribute("group", group_);
    for (TensorId t : resizeWeight(g, patch, conv.weight, 1, cin / group_))
        changed.push_back(t);
    touched.push_back(n.id);
    touched.insert(touched.end(), conv.weight.nodes.begin(), conv.weight.nodes.end());
}

EditPtr SetBatchEdit::fromJson(const nlohmann::json& j) {
    return std::make_shared<SetBatchEdit>(editjson::integer(j, "batch"));
}

void SetBatchEdit::changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                               std::vector<NodeId>&) const {
    if (batch_ <= 0 || batch_ > kMaxBatch)
        throw EditError("batch must be in 1.." + std::to_string(kMaxBatch) + ", got " +
                        std::to_string(batch_));
    for (TensorId in : g.inputs) {
        const Tensor& t = g.tensor(in);
        const auto& d = t.shape.dims;
        // A rank-3 input with a channel-sized first dim is one CHW image (torchvision detection exports take
        // a list of them): its dim 0 is colour, and batching it would be a wrong what-if, not an error later.
        if (d.size() == 3 && d[0] >= 1 && d[0] <= 4 && d[1] >= 16 && d[2] >= 16)
            throw EditError(
                "input '" + t.name + "' is " + t.shape.toString() +
                ", one CHW image without a batch dimension; re-export the model with an NCHW input "
                "to estimate batching");
    }
    for (TensorId in : g.inputs) {
        Tensor& t = g.tensor(in);
        if (t.shape.rank() == 0 || t.shape.dims[0] == batch_)
            continue;
        patch.saveTensor(g, in);
        t.shape.dims[0] = batch_;
        t.shape.setSymbol(0, {});
        if (!t.shape.fullyKnown()) {
            // A dim the file leaves open is no overflow: say which, and how to give it.
            std::string open;
            for (size_t i = 1; i < t.shape.dims.size() && open.empty(); ++i)
                if (t.shape.dims[i] <= 0)
                    open = "dim " + std::to_string(i) +
                           (t.shape.symbols.size() > i && !t.shape.symbols[i].empty()
                                ? " ('" + t.shape.symbols[i] + "')"
                                : std::string());
            throw EditError("input '" + t.name + "' has an unresolved " + (open.empty() ? "dim" : open) +
                            ": give its shape first (--input-shape, or the workbench's input-shape prompt)");
        }
        if (!t.shape.elements())
            throw EditError("batch " + std::to_string(batch_) + " makes input '" + t.name + "' overflow");
        changed.push_back(in);
    }
}

void SetBatchEdit::change(EditContext& ctx) const {
    try {
        ShapeEdit::change(ctx);
    } catch (const EditError& e) {
        if (e.brokenNode().empty())
            throw;
        const std::string why = e.what();
        // The usual cause is an export traced at batch 1 that baked it into a constant; say so.
        throw EditError(why +
                            " (the exported graph fixes the batch there; re-export with a dynamic batch axis "
                            "to estimate batching)",
                        e.brokenNode());
    }
}

EditPtr SetInputShapeEdit::fromJson(const nlohmann::json& j) {
    std::vector<int64_t> dims = editjson::integers(j, "shape");
    return std::make_shared<SetInputShapeEdit>(editjson::str(j, "input"), std::move(dims));
}

void SetInputShapeEdit::changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                                    std::vector<NodeId>&) const {
    TensorId id = g.findTensor(input_);
    if (!id.valid() || !g.tensor(id).isGraphInput)
        throw EditError("no model input named '" + input_ + "'");
    Tensor& t = g.tensor(id);
    if (t.shape.rankKnown && t.shape.rank() != dims_.size())
        throw EditError("input '" + input_ + "' has rank " + std::to_string(t.shape.rank()) +
                        ", the new shape has " + std::to_string(dims_.size()));
    if (std::string problem = inputShapeProblem(dims_); !problem.empty())
        throw EditError("input '" + input_ + "': " + problem);
    patch.saveTensor(g, id);
    t.shape = TensorShape(dims_);
    changed.push_back(id);
}

EditPtr SetChannelsEdit::fromJson(const nlohmann::json& j) {
    return std::make_shared<SetChannelsEdit>(editjson::str(j, "node"), editjson::integer(j, "channels"));
}

void SetChannelsEdit::changeGraph(Graph& g, GraphPatch& patch, std::vector<TensorId>& changed,
                                  std::vector<NodeId>& touched) const {
    EditableConv conv = requireConv(g, node_);
    Node& n = conv.node;
    if (channels_ <= 0 || channels_ > 65536)
        throw EditError("channels must be in 1..65536, got " + std::to_string(channels_));
    const int64_t group = std::max<int64_t>(1, n.attrIntOr("group", 1));
    if (group > 1 && conv.dims()[1] == 1)
        throw EditError("'" + node_ +
                        "' is depthwise: its channels follow its input; edit the conv before it");
    if (channels_ % group != 0)
        throw EditError(std::to_string(channels_) + " channels are not divisible by the group (" +
                        std::to_string(group) + ") of '" + node_ + "'");
    requireWeightUnshared(g, conv.weight, n.id, node_, 0);
    for (TensorId t : resizeWeight(g, patch, conv.weight, 0, channels_))
        changed.push_back(t);
    touched.insert(touched.end(), conv.weight.nodes.begin(), conv.weight.nodes.end());
    // The bias, stored the same ways (a QAT bias behind its DequantizeLinear). One shared with other convs
    // (torch passes equal biases through Identity nodes) keeps its length, as an Identity-fed bias always
    // did: resizing it would change the others, and its length changes no estimate.
    if (n.inputs.size() > 2 && n.inputs[2].valid())
        if (const std::optional<StoredWeight> b = storedWeight(g, n.inputs[2])) {
            bool shared = false;
            try {
                requireWeightUnshared(g, *b, n.id, node_, 0);
            } catch (const EditError&) {
                shared = true;
            }
            if (!shared) {
                for (TensorId t : resizeWeight(g, patch, *b, 0, channels_))
                    changed.push_back(t);
                touched.insert(touched.end(), b->nodes.begin(), b->nodes.end());
            }
        }
    touched.push_back(n.id);
}

} // namespace bpu
