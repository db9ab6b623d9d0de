// SPDX-License-Identifier: MIT
#include "InputNormalization.h"

#include <cmath>
#include <string>
#include <unordered_set>

namespace bpu {

namespace {

// Consumers that read `t` at run time (a Shape node reads only its static shape).
std::vector<NodeId> runtimeReaders(const Graph& g, TensorId t) {
    std::vector<NodeId> out;
    for (NodeId c : g.tensor(t).consumers) {
        const Node& n = g.node(c);
        bool constantOut = !n.outputs.empty();
        for (TensorId o : n.outputs)
            constantOut = constantOut && o.valid() && g.tensor(o).value;
        if (!constantOut)
            out.push_back(c);
    }
    return out;
}

// The per-channel (or scalar) constant operand of an arithmetic node whose other operand is `x`, with its
// values when known: a shape of [C,1,1], [1,C,1,1] (or any rank with C at the channel axis), or 1 element.
bool perChannelConstant(const Graph& g, const Node& n, TensorId x, int64_t channels, size_t channelAxis,
                        size_t rank, TensorId& constant) {
    if (n.inputs.size() != 2 || !n.inputs[0].valid() || !n.inputs[1].valid())
        return false;
    const bool xFirst = n.inputs[0] == x;
    if (!xFirst && n.inputs[1] != x)
        return false;
    constant = n.inputs[xFirst ? 1 : 0];
    const Tensor& c = g.tensor(constant);
    const bool isConst =
        c.isInitializer || c.value || (c.producer.valid() && g.node(c.producer).opType == "Constant");
    if (!isConst || !c.shape.fullyKnown())
        return false;
    // Sub and Div need the image first: (x - mean), (x / std).
    if (!xFirst && (n.opType == "Sub" || n.opType == "Div"))
        return false;
    const int64_t e = c.shape.elements().value_or(0);
    if (e == 1)
        return true;
    if (e != channels || c.shape.rank() > rank)
        return false;
    // Aligned from the right against the image's dims: the channel dim is C, every other dim is 1.
    const size_t offset = rank - c.shape.rank();
    for (size_t d = 0; d < c.shape.rank(); ++d)
        if (c.shape.dims[d] != (d + offset == channelAxis ? channels : 1))
            return false;
    return true;
}

} // namespace

namespace {

bool constantTensor(const Graph& g, TensorId t) {
    if (!t.valid())
        return true;
    const Tensor& x = g.tensor(t);
    return x.isInitializer || x.value || (x.producer.valid() && g.node(x.producer).opType == "Constant");
}

bool imageInput(const Tensor& t, int64_t maxChannels) {
    const TensorShape& s = t.shape;
    if (!t.isGraphInput || !s.fullyKnown() || (s.rank() != 4 && s.rank() != 3))
        return false;
    const int64_t c = s.dims[s.rank() == 4 ? 1 : 0];
    return c >= 1 && c <= maxChannels && s.dims[s.rank() - 1] >= 16 && s.dims[s.rank() - 2] >= 16;
}

} // namespace

std::vector<uint8_t> InputNormalization::imageTensors(const Graph& g, int64_t maxChannels) {
    static const std::unordered_set<std::string> preprocessing{
        "Sub", "Add", "Mul", "Div", "Cast", "Resize", "Upsample", "Unsqueeze", "Squeeze", "Reshape", "Concat",
        "Pad", "Slice", "Identity", "Expand", "Clip", "Split", "Gather",
        // a QDQ model's input fake-quant: the same image, quantized
        "QuantizeLinear", "DequantizeLinear"};
    std::vector<uint8_t> image(g.tensors.size(), 0);
    // From each image input forward through preprocessing ops only: a few nodes before the first layer.
    std::vector<TensorId> todo;
    for (TensorId in : g.inputs)
        if (imageInput(g.tensor(in), maxChannels)) {
            image[in.value] = 1;
            todo.push_back(in);
        }
    while (!todo.empty()) {
        const TensorId t = todo.back();
        todo.pop_back();
        for (NodeId c : g.tensor(t).consumers) {
            const Node& n = g.node(c);
            if (!n.domain.empty() || !preprocessing.count(n.opType) || n.inputs.empty())
                continue;
            // The image is the data input (any input of a Concat that batches it); arithmetic only with
            // constants (a normalisation, not a residual sum with a layer's output).
            if (n.inputs[0] != t && n.opType != "Concat")
                continue;
            const bool arithmetic =
                n.opType == "Sub" || n.opType == "Add" || n.opType == "Mul" || n.opType == "Div";
            bool withConstants = true;
            for (size_t i = 1; arithmetic && i < n.inputs.size(); ++i)
                withConstants = withConstants && constantTensor(g, n.inputs[i]);
            if (!withConstants)
                continue;
            for (TensorId o : n.outputs)
                if (o.valid() && !image[o.value]) {
                    image[o.value] = 1;
                    todo.push_back(o);
                }
        }
    }
    return image;
}

std::vector<InputNormalization> InputNormalization::find(const Graph& g) {
    std::vector<InputNormalization> found;
    for (TensorId in : g.inputs) {
        if (!imageInput(g.tensor(in), 4))
            continue; // an image: a few channels, a real H x W
        const TensorShape& s = g.tensor(in).shape;
        const size_t channelAxis = s.rank() == 4 ? 1 : 0;
        const int64_t channels = s.dims[channelAxis];
        InputNormalization norm;
        norm.input = in;
        norm.channels = channels;
        std::vector<double> mean(static_cast<size_t>(channels), 0.0),
            scale(static_cast<size_t>(channels), 1.0);
        bool valuesKnown = true;
        TensorId cur = in;
        for (size_t guard = 0; guard < 8; ++guard) {
            const auto readers = runtimeReaders(g, cur);
            if (readers.size() != 1)
                break;
            const Node& n = g.node(readers.front());
            if (n.opType != "Sub" && n.opType != "Add" && n.opType != "Mul" && n.opType != "Div")
                break;
            TensorId c;
            if (!perChannelConstant(g, n, cur, channels, channelAxis, s.rank(), c) || n.outputs.empty() ||
                !n.outputs[0].valid())
                break;
            // Fold the step into y = (x - mean) * scale, per channel, when the value is known.
            const auto& v = g.tensor(c).value;
            valuesKnown = valuesKnown && v && !v->isInt() && v->size() >= 1;
            for (int64_t ch = 0; valuesKnown && ch < channels; ++ch) {
                const double k = v->at(v->size() == 1 ? 0 : static_cast<size_t>(ch));
                double& m = mean[static_cast<size_t>(ch)];
                double& sc = scale[static_cast<size_t>(ch)];
                if (n.opType == "Sub")
                    m += k / sc;
                else if (n.opType == "Add")
                    m -= k / sc;
                else if (n.opType == "Mul")
                    sc *= k;
                else if (k != 0)
                    sc /= k;
                else
                    valuesKnown = false;
            }
            norm.nodes.push_back(n.id);
            cur = n.outputs[0];
        }
        if (norm.nodes.empty())
            continue;
        norm.output = cur;
        if (valuesKnown) {
            norm.mean = mean;
            norm.scale = scale;
        }
        found.push_back(std::move(norm));
    }
    return found;
}

} // namespace bpu
