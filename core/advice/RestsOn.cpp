// SPDX-License-Identifier: MIT
#include "RestsOn.h"

#include <algorithm>

namespace bpu {

std::vector<RestsOn> restsOn(const TargetProfile& t, const std::vector<std::string>& keys,
                             const std::vector<std::string>& assumptions) {
    std::vector<RestsOn> out;
    for (const std::string& k : keys)
        for (const auto& p : t.parameters())
            if (p.key == k)
                out.push_back({RestsOn::Kind::Parameter, k, !p.param->identified, p.param->note});
    for (const std::string& id : assumptions) {
        if (std::any_of(out.begin(), out.end(), [&](const RestsOn& r) { return r.id == id; }))
            continue;
        if (const Assumption* a = t.assumption(id))
            out.push_back(
                {RestsOn::Kind::Assumption, id, !a->sourced(), a->text + " (source: " + a->source + ")"});
        else
            out.push_back({RestsOn::Kind::Assumption, id, true, "the target profile does not state it"});
    }
    return out;
}

bool anyWeak(const std::vector<RestsOn>& r) {
    return std::any_of(r.begin(), r.end(), [](const RestsOn& x) { return x.weak; });
}

std::string weakRestsOnText(const std::vector<RestsOn>& r) {
    std::string params, assumptions;
    for (const RestsOn& x : r) {
        if (!x.weak)
            continue;
        std::string& list = x.kind == RestsOn::Kind::Parameter ? params : assumptions;
        list += (list.empty() ? "" : ", ") + x.id;
    }
    if (params.empty() && assumptions.empty())
        return {};
    std::string out = "rests on ";
    if (!params.empty())
        out += params + " (not identified by the calibration, docs/calibration.md)";
    if (!assumptions.empty())
        out += std::string(params.empty() ? "" : " and ") + "an assumption no published source states (" +
               assumptions + ")";
    return out;
}

} // namespace bpu
