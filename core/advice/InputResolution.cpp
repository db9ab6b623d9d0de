// SPDX-License-Identifier: MIT
#include "InputResolution.h"

#include "FindingUtil.h"
#include "core/edit/OptionEdits.h"
#include "core/edit/ShapeEdits.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace bpu {

std::optional<ImageInput> findImageInput(const Graph& g, int64_t maxChannels) {
    std::optional<ImageInput> found;
    for (const auto& t : g.tensors) {
        if (!t.isGraphInput || t.isInitializer || !t.shape.rankKnown || t.shape.rank() != 4)
            continue;
        const auto& d = t.shape.dims;
        if (std::any_of(d.begin(), d.end(), [](int64_t v) { return v <= 0; }))
            continue;
        ImageInput in;
        in.id = t.id;
        if (d[1] <= maxChannels) {
            in.hAxis = 2;
            in.wAxis = 3;
        } else if (d[3] <= maxChannels) {
            in.hAxis = 1;
            in.wAxis = 2;
        } else {
            continue;
        }
        in.h = d[size_t(in.hAxis)];
        in.w = d[size_t(in.wAxis)];
        if (in.h < 16 || in.w < 16)
            continue;
        if (found)
            return std::nullopt; // two images: which one's size to change is the owner's call
        found = in;
    }
    return found;
}

namespace {
int64_t nearestPow2(double ratio) {
    return int64_t(1) << std::max(0, int(std::lround(std::log2(std::max(1.0, ratio)))));
}
} // namespace

std::optional<std::pair<int64_t, int64_t>> modelStride(const Graph& g, const AnalysisResult& r,
                                                       const ImageInput& in) {
    const Tensor* smallest = nullptr;
    int64_t fewest = 0;
    for (const auto& t : g.tensors) {
        const PaddedShape& p = r.tensors[t.id.value].padded;
        if (t.isInitializer || t.isGraphInput || !p.applies || p.rule != PadRule::ConvLike ||
            t.shape.rank() != 4)
            continue;
        const auto& d = t.shape.dims;
        if (d[2] <= 1 && d[3] <= 1)
            continue;
        const int64_t px = d[2] * d[3];
        if (px > 0 && (!smallest || px < fewest)) {
            smallest = &t;
            fewest = px;
        }
    }
    if (!smallest)
        return std::nullopt;
    const int64_t sh = nearestPow2(double(in.h) / double(smallest->shape.dims[2]));
    const int64_t sw = nearestPow2(double(in.w) / double(smallest->shape.dims[3]));
    if (sh < 2 && sw < 2)
        return std::nullopt;
    return std::make_pair(sh, sw);
}

namespace {
std::vector<int64_t> sideCandidates(int64_t today, int64_t stride, double range) {
    std::vector<int64_t> out;
    const int64_t lo = int64_t(std::ceil(double(today) * (1 - range) / double(stride)));
    const int64_t hi = int64_t(std::floor(double(today) * (1 + range) / double(stride)));
    for (int64_t k = std::max<int64_t>(1, lo); k <= hi; ++k)
        out.push_back(k * stride);
    return out;
}
} // namespace

std::vector<std::pair<int64_t, int64_t>> resolutionCandidates(int64_t h, int64_t w, int64_t strideH,
                                                              int64_t strideW, double range, size_t max) {
    std::vector<std::pair<int64_t, int64_t>> out;
    if (h == w) {
        for (int64_t v : sideCandidates(h, std::max(strideH, strideW), range))
            if (v != h)
                out.emplace_back(v, v);
    } else {
        for (int64_t hh : sideCandidates(h, strideH, range))
            for (int64_t ww : sideCandidates(w, strideW, range))
                if (hh != h || ww != w)
                    out.emplace_back(hh, ww);
    }
    const int64_t today = h * w;
    std::stable_sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
        return std::llabs(a.first * a.second - today) < std::llabs(b.first * b.second - today);
    });
    if (out.size() > max)
        out.resize(max);
    return out;
}

void addInputResolutionFinding(AnalysisContext& c, const std::vector<TensorId>& hwPadded) {
    if (hwPadded.empty())
        return;
    const Graph& g = c.g;
    const auto in = findImageInput(g, int64_t(c.target.alignment.inputCMax.value));
    if (!in)
        return;
    const auto stride = modelStride(g, c.r, *in);
    if (!stride)
        return;
    const int64_t h = in->h, w = in->w;
    // Each trial re-estimates the whole model (every shape changes): at most sweep_node_budget nodes x
    // trials, as a drag-editor curve, never fewer than two (the two nearest sizes; at 100k nodes).
    const double budget = c.target.sweepNodeBudget.value / double(std::max<size_t>(1, g.nodes.size()));
    const double trials =
        std::min(c.target.resolutionSearchMaxTrials.value, std::max(2.0, std::floor(budget)));
    const auto sizes =
        resolutionCandidates(h, w, stride->first, stride->second, c.target.resolutionSearchRange.value,
                             size_t(std::max(0.0, trials)));
    if (sizes.empty())
        return;
    const Tensor& input = g.tensor(in->id);
    Finding f;
    f.rule = RuleId::G4_2;
    f.severity = Severity::Low;
    f.cause = "input resolution " + std::to_string(h) + "x" + std::to_string(w);
    std::vector<uint8_t> listed(g.nodes.size(), 0);
    std::vector<std::string> names;
    nlohmann::json tensors = nlohmann::json::array();
    int64_t waste = 0;
    for (TensorId id : hwPadded) {
        const Tensor& t = g.tensor(id);
        const PaddedShape& p = c.r.tensors[id.value].padded;
        waste += p.wasteBytes;
        names.push_back(t.name);
        const NodeId owner = t.producer;
        if (owner.valid() && !listed[owner.value]) {
            listed[owner.value] = 1;
            f.nodes.push_back(owner);
        }
        if (tensors.size() < kEvidenceItems)
            tensors.push_back(
                {{"tensor", t.name}, {"shape", t.shape.toString()}, {"padded_shape", dimsText(p.dims)}});
    }
    for (const auto& [hh, ww] : sizes) {
        std::vector<int64_t> dims = input.shape.dims;
        dims[size_t(in->hAxis)] = hh;
        dims[size_t(in->wAxis)] = ww;
        f.fixCandidates.push_back({std::make_shared<SetInputShapeEdit>(input.name, std::move(dims))});
    }
    f.fixSearch = FixSearch::InputResolution;
    const std::string hw = std::to_string(h) + "x" + std::to_string(w);
    const std::string st = stride->first == stride->second
                               ? std::to_string(stride->first)
                               : std::to_string(stride->first) + "x" + std::to_string(stride->second);
    f.title = "Input " + hw + " leaves " + std::to_string(hwPadded.size()) + " feature map" +
              (hwPadded.size() > 1 ? "s" : "") + " padded in H/W (model stride " + st + ")";
    f.evidence = {{"input", input.name},
                  {"input_shape", input.shape.toString()},
                  {"input_dims", input.shape.dims},
                  {"h_axis", in->hAxis},
                  {"w_axis", in->wAxis},
                  {"stride", {stride->first, stride->second}},
                  {"tensors", tensors},
                  {"tensors_total", hwPadded.size()},
                  {"waste_bytes", waste},
                  {"candidates_total", sizes.size()}};
    f.recommendation = "Choose an input size whose stages align: a multiple of the model's stride (" + st +
                       ") whose smallest feature map is a multiple of the H and W units.";
    // What the H/W padding of these maps costs (their C padding too: an upper bound).
    f.whatIf = {std::make_shared<AssumeEdit>(AssumeEdit::Aligned, std::move(names))};
    c.r.findings.push_back(std::move(f));
}

} // namespace bpu
