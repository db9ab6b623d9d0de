// SPDX-License-Identifier: MIT
#include "Alignment.h"
#include "core/analysis/AnalysisTypes.h"

namespace bpu {

int64_t DimAlignment::align(int64_t v) const {
    if (unit <= 1 || v <= 0)
        return v;
    if (powerOfTwo && v < unit) {
        int64_t p = 1;
        while (p < v)
            p <<= 1;
        return p;
    }
    return (v + unit - 1) / unit * unit;
}

DimAlignment dimAlignment(PadRule rule, size_t rank, size_t axis, const AlignmentRules& al) {
    auto unit = [](const Param& p, const char* key, const char* dim) {
        return DimAlignment{static_cast<int64_t>(p.value), key, false, dim};
    };
    switch (rule) {
    case PadRule::Input:
        if (rank == 4 && axis == 2)
            return unit(al.inputH, "alignment.input_h", "H");
        if (rank == 4 && axis == 3)
            return unit(al.inputW, "alignment.input_w", "W");
        return {};
    case PadRule::ConvLike:
        if (axis == 1)
            return unit(al.convC, "alignment.conv_c", "C");
        if (rank == 4 && axis == 2)
            return unit(al.convH, "alignment.conv_h", "H");
        if ((rank == 4 && axis == 3) || (rank == 3 && axis == 2))
            return unit(al.convW, "alignment.conv_w", "W");
        return {};
    case PadRule::General: {
        if (axis == 0 && rank >= 2)
            return {};
        static const char* names[] = {"d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"};
        return {static_cast<int64_t>(al.generalMaxUnit.value), "alignment.general_max_unit", true,
                axis < 8 ? names[axis] : "d"};
    }
    case PadRule::None:
        break;
    }
    return {};
}

std::string dimPadRule(const PaddedShape& p, const std::vector<int64_t>& original, size_t d,
                       const AlignmentRules& al) {
    if (!p.applies || d >= p.dims.size() || d >= original.size() || p.dims[d] == original[d])
        return {};
    const DimAlignment da = dimAlignment(p.rule, p.dims.size(), d, al);
    std::string s = da.dimName;
    s += ' ';
    s += std::to_string(original[d]);
    s += "->";
    s += std::to_string(p.dims[d]);
    s += da.powerOfTwo ? " (pow2/x" : " (x";
    s += std::to_string(da.unit);
    s += ", ";
    s += p.rule == PadRule::Input ? "model input" : padRuleName(p.rule);
    s += ')';
    return s;
}

std::vector<std::string> dimPadRules(const PaddedShape& p, const std::vector<int64_t>& original,
                                     const AlignmentRules& al) {
    std::vector<std::string> out;
    for (size_t d = 0; d < p.dims.size(); ++d)
        if (std::string s = dimPadRule(p, original, d, al); !s.empty())
            out.push_back(std::move(s));
    return out;
}

} // namespace bpu
