// SPDX-License-Identifier: MIT
#include "EinsumEquation.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace bpu {

const char* EinsumLowering::loweredOp() const {
    switch (kind) {
    case Kind::MatMul:
        return "MatMul";
    case Kind::Mul:
        return "Mul";
    case Kind::Transpose:
        return "Transpose";
    case Kind::Reduce:
        return "ReduceSum";
    case Kind::None:
        break;
    }
    return "";
}

namespace {

// Splits `s` at `sep`.
std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out(1);
    for (char ch : s) {
        if (ch == sep)
            out.emplace_back();
        else
            out.back() += ch;
    }
    return out;
}

// Replaces "..." by `count` placeholder indices (bytes 1..count, aligned from the right so broadcast batch
// dims line up). Returns false if the term has a stray '.'.
bool expandEllipsis(std::string& term, size_t count) {
    const size_t at = term.find("...");
    if (at == std::string::npos)
        return term.find('.') == std::string::npos;
    std::string dims;
    for (size_t i = count; i > 0; --i)
        dims += static_cast<char>(i);
    term = term.substr(0, at) + dims + term.substr(at + 3);
    return term.find('.') == std::string::npos;
}

std::string letterName(char c) {
    return c > 0 && c < 32 ? std::string("...") : std::string(1, c);
}

} // namespace

EinsumLowering lowerEinsum(const Graph& g, const Node& n) {
    EinsumLowering low;
    auto fail = [&](std::string why) {
        low.kind = EinsumLowering::Kind::None;
        low.why = std::move(why);
        return low;
    };
    auto eq = n.attrString("equation");
    if (!eq)
        return fail("no equation attribute");
    low.equation = *eq;
    std::string text;
    for (char ch : *eq)
        if (ch != ' ')
            text += ch;
    const size_t arrow = text.find("->");
    const bool explicitOut = arrow != std::string::npos;
    std::vector<std::string> terms = split(text.substr(0, arrow), ',');
    std::string out = explicitOut ? text.substr(arrow + 2) : std::string();
    std::vector<TensorId> operands;
    for (TensorId t : n.inputs)
        if (t.valid())
            operands.push_back(t);
    if (terms.size() > 2)
        return fail(std::to_string(terms.size()) + " operands (a MatMul takes two)");
    if (terms.size() != operands.size())
        return fail("the equation names " + std::to_string(terms.size()) + " operands, the node has " +
                    std::to_string(operands.size()));
    // "..." covers the dims the letters do not name.
    size_t ellipsisDims = 0;
    for (size_t i = 0; i < terms.size(); ++i) {
        if (terms[i].find("...") == std::string::npos)
            continue;
        const TensorShape& s = g.tensor(operands[i]).shape;
        const size_t letters = terms[i].size() - 3;
        if (!s.rankKnown || s.rank() < letters)
            return fail("'...' over an operand of unknown rank");
        const size_t dims = s.rank() - letters;
        ellipsisDims = std::max(ellipsisDims, dims);
        if (!expandEllipsis(terms[i], dims))
            return fail("malformed equation");
    }
    for (auto& term : terms) {
        if (term.find('.') != std::string::npos)
            return fail("malformed equation");
        std::set<char> seen;
        for (char ch : term)
            if (!seen.insert(ch).second)
                return fail("index '" + letterName(ch) + "' repeated in one operand (a diagonal)");
    }
    std::map<char, int> uses;
    for (const auto& term : terms)
        for (char ch : term)
            ++uses[ch];
    if (explicitOut) {
        if (!expandEllipsis(out, ellipsisDims))
            return fail("malformed equation");
    } else {
        // Implicit output: the ellipsis dims, then the indices used once, in alphabetical order.
        for (size_t i = ellipsisDims; i > 0; --i)
            out += static_cast<char>(i);
        for (const auto& [ch, count] : uses)
            if (count == 1 && ch >= 32)
                out += ch;
    }
    std::set<char> outSet;
    for (char ch : out) {
        if (!uses.count(ch))
            return fail("output index '" + letterName(ch) + "' is not in any operand");
        if (!outSet.insert(ch).second)
            return fail("output index '" + letterName(ch) + "' repeated");
    }
    // Extents (broadcast: the largest), known when every operand's shape is.
    std::map<char, int64_t> extent;
    bool known = true;
    for (size_t i = 0; i < terms.size(); ++i) {
        const TensorShape& s = g.tensor(operands[i]).shape;
        if (!s.fullyKnown() || s.rank() != terms[i].size()) {
            known = false;
            continue;
        }
        for (size_t d = 0; d < terms[i].size(); ++d)
            extent[terms[i][d]] = std::max(extent[terms[i][d]], s.dims[d]);
    }
    std::set<char> summed;
    for (const auto& [ch, count] : uses)
        if (!outSet.count(ch))
            summed.insert(ch);
    if (terms.size() == 1) {
        low.kind = summed.empty() ? EinsumLowering::Kind::Transpose : EinsumLowering::Kind::Reduce;
    } else {
        bool contracted = false;
        for (char ch : summed)
            contracted |= terms[0].find(ch) != std::string::npos && terms[1].find(ch) != std::string::npos;
        low.kind = contracted || !summed.empty() ? EinsumLowering::Kind::MatMul : EinsumLowering::Kind::Mul;
    }
    if (known) {
        int64_t macs = 1, k = 1;
        bool overflow = false;
        for (const auto& [ch, e] : extent) {
            overflow |= __builtin_mul_overflow(macs, e, &macs);
            if (summed.count(ch))
                overflow |= __builtin_mul_overflow(k, e, &k);
        }
        if (!overflow) {
            low.macs = low.kind == EinsumLowering::Kind::MatMul ? macs : 0;
            low.contracted = k;
        }
    }
    return low;
}

} // namespace bpu
