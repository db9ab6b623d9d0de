// SPDX-License-Identifier: MIT
#include "ShapeRules.h"

#include <algorithm>
#include <map>
#include <optional>

namespace bpu {

namespace {

const TensorShape* knownInput(const Graph& g, const Node& n, size_t i) {
    if (i >= n.inputs.size() || !n.inputs[i].valid())
        return nullptr;
    const TensorShape& s = g.tensor(n.inputs[i]).shape;
    return s.fullyKnown() ? &s : nullptr;
}

const ConstValue* inputValue(const Graph& g, const Node& n, size_t i) {
    if (i >= n.inputs.size() || !n.inputs[i].valid())
        return nullptr;
    const auto& v = g.tensor(n.inputs[i]).value;
    return v ? v.get() : nullptr;
}

// Einsum: letters name dims, "..." stands for broadcast leading dims; the implicit output is the ellipsis
// followed by the letters used exactly once, in alphabetical order.
std::optional<std::vector<int64_t>> einsumShape(const Graph& g, const Node& n) {
    auto eq = n.attrString("equation");
    if (!eq)
        return std::nullopt;
    std::string e;
    for (char c : *eq)
        if (c != ' ')
            e += c;
    const auto arrow = e.find("->");
    const std::string lhs = e.substr(0, arrow);
    std::vector<std::string> terms;
    for (size_t start = 0;;) {
        const auto comma = lhs.find(',', start);
        terms.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos)
            break;
        start = comma + 1;
    }
    if (terms.size() != n.inputs.size())
        return std::nullopt;
    std::map<char, int64_t> dim;
    std::map<char, int> uses;
    std::vector<int64_t> ellipsis;
    for (size_t i = 0; i < terms.size(); ++i) {
        const TensorShape* s = knownInput(g, n, i);
        if (!s)
            return std::nullopt;
        std::string term = terms[i];
        const auto dots = term.find("...");
        const std::string letters =
            dots == std::string::npos ? term : term.substr(0, dots) + term.substr(dots + 3);
        if (letters.size() > s->rank())
            return std::nullopt;
        const size_t ellipsisRank = s->rank() - letters.size();
        if (dots == std::string::npos && ellipsisRank != 0)
            return std::nullopt;
        size_t axis = 0;
        for (size_t k = 0; k < term.size(); ++k) {
            if (term.compare(k, 3, "...") == 0) {
                // Broadcast this operand's ellipsis dims into the common ones (right-aligned).
                std::vector<int64_t> mine(s->dims.begin() + axis, s->dims.begin() + axis + ellipsisRank);
                if (mine.size() > ellipsis.size())
                    ellipsis.insert(ellipsis.begin(), mine.size() - ellipsis.size(), 1);
                for (size_t j = 0; j < mine.size(); ++j) {
                    int64_t& d = ellipsis[ellipsis.size() - mine.size() + j];
                    if (d == 1)
                        d = mine[j];
                    else if (mine[j] != 1 && mine[j] != d)
                        return std::nullopt;
                }
                axis += ellipsisRank;
                k += 2;
                continue;
            }
            const char c = term[k];
            const int64_t d = s->dims[axis++];
            auto [it, fresh] = dim.emplace(c, d);
            if (!fresh && it->second != d) {
                if (it->second == 1)
                    it->second = d;
                else if (d != 1)
                    return std::nullopt;
            }
            ++uses[c];
        }
    }
    std::vector<int64_t> out;
    if (arrow == std::string::npos) {
        out = ellipsis;
        for (const auto& [c, count] : uses) // std::map: alphabetical
            if (count == 1)
                out.push_back(dim[c]);
        return out;
    }
    const std::string rhs = e.substr(arrow + 2);
    for (size_t k = 0; k < rhs.size(); ++k) {
        if (rhs.compare(k, 3, "...") == 0) {
            out.insert(out.end(), ellipsis.begin(), ellipsis.end());
            k += 2;
        } else if (auto it = dim.find(rhs[k]); it != dim.end()) {
            out.push_back(it->second);
        } else {
            return std::nullopt;
        }
    }
    return out;
}

std::optional<std::vector<int64_t>> oneHotShape(const Graph& g, const Node& n) {
    const TensorShape* idx = knownInput(g, n, 0);
    const ConstValue* depth = inputValue(g, n, 1);
    if (!idx || !depth || depth->size() != 1)
        return std::nullopt;
    const int64_t d = static_cast<int64_t>(depth->at(0));
    const int64_t rank = static_cast<int64_t>(idx->rank()) + 1;
    int64_t axis = n.attrIntOr("axis", -1);
    if (axis < 0)
        axis += rank;
    if (d < 0 || axis < 0 || axis >= rank)
        return std::nullopt;
    std::vector<int64_t> out = idx->dims;
    out.insert(out.begin() + axis, d);
    return out;
}

std::optional<std::vector<int64_t>> maxUnpoolShape(const Graph& g, const Node& n) {
    const ConstValue* shape = inputValue(g, n, 2);
    if (!shape || !shape->isInt() || shape->dims.size() != 1)
        return std::nullopt;
    return shape->ints;
}

// onnx 1.12 gives STFT's frequency axis the full DFT length even when onesided=1 (the default), where only
// dft_length / 2 + 1 bins are produced.
std::optional<std::vector<int64_t>> stftShape(const Node& n, const TensorShape& inferred) {
    if (!n.attrIntOr("onesided", 1) || !inferred.fullyKnown() || inferred.rank() != 4)
        return std::nullopt;
    std::vector<int64_t> out = inferred.dims;
    out[2] = out[2] / 2 + 1;
    return out;
}

// Without stopwords StringNormalizer only changes case: the shape passes through. (With stopwords the
// size depends on the strings; ShapeEngine treats it as data-dependent.)
std::optional<std::vector<int64_t>> stringNormalizerShape(const Graph& g, const Node& n) {
    const TensorShape* in = knownInput(g, n, 0);
    if (!in || n.attributeText("stopwords").size() > 2) // "[]" or absent
        return std::nullopt;
    return in->dims;
}

} // namespace

std::string ShapeRules::elementCountMismatch(const Graph& g, const Node& n) {
    if (!n.domain.empty() ||
        (n.opType != "Reshape" && n.opType != "Flatten" && n.opType != "Squeeze" && n.opType != "Unsqueeze"))
        return {};
    if (n.inputs.empty() || !n.inputs[0].valid() || n.outputs.empty() || !n.outputs[0].valid())
        return {};
    const TensorShape &in = g.tensor(n.inputs[0]).shape, &out = g.tensor(n.outputs[0]).shape;
    const auto inElements = in.elements(), outElements = out.elements();
    if (!inElements || !outElements || *inElements == *outElements)
        return {};
    return "its input " + in.toString() + " has " + std::to_string(*inElements) + " elements but its " +
           (n.opType == "Reshape" ? "constant target shape " : "output shape ") + out.toString() + " holds " +
           std::to_string(*outElements);
}

bool ShapeRules::refine(const Graph& g, const Node& n, size_t index, TensorShape& shape) {
    if (!n.domain.empty() || index != 0)
        return false;
    std::optional<std::vector<int64_t>> better;
    if (n.opType == "Einsum")
        better = einsumShape(g, n);
    else if (n.opType == "OneHot")
        better = oneHotShape(g, n);
    else if (n.opType == "MaxUnpool")
        better = maxUnpoolShape(g, n);
    else if (n.opType == "STFT")
        better = stftShape(n, shape);
    else if (n.opType == "StringNormalizer")
        better = stringNormalizerShape(g, n);
    if (!better || (shape.rankKnown && shape.rank() != better->size()) || shape.dims == *better)
        return false;
    // Never overrule a dim onnx did know, except the STFT bin count it gets wrong.
    if (n.opType != "STFT")
        for (size_t i = 0; i < shape.dims.size(); ++i)
            if (shape.dims[i] >= 0 && shape.dims[i] != (*better)[i])
                return false;
    shape = TensorShape(*better);
    return true;
}

} // namespace bpu
