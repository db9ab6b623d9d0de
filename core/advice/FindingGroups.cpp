// SPDX-License-Identifier: MIT
#include "FindingGroups.h"

#include "core/edit/Edit.h"
#include "core/edit/EditList.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

namespace bpu {

namespace {

/// The list's identity: its edits in order (Edit::describe names every item).
std::string editsKey(const EditList& edits) {
    std::string key;
    for (const auto& e : edits)
        key += e->describe() + '\n';
    return key;
}

/// The edit kinds of a list ("set_group"), sorted and unique, joined by '+'.
std::string editKinds(const EditList& edits) {
    std::set<std::string> ops;
    for (const auto& e : edits)
        ops.insert(e->toJson().value("op", std::string("?")));
    std::string out;
    for (const auto& op : ops)
        out += (out.empty() ? "" : "+") + op;
    return out;
}

FindingPart partOf(const Finding& f) {
    return {f.rule, f.cause, f.title, f.nodes, f.estimatedGainMs, f.wasteUpperBoundMs};
}

void addNodes(std::vector<NodeId>& into, const std::vector<NodeId>& more) {
    std::set<uint32_t> have;
    for (NodeId n : into)
        have.insert(n.value);
    for (NodeId n : more)
        if (have.insert(n.value).second)
            into.push_back(n);
}

/// One edit per kind where the kinds take a list (assume_aligned tensors=[...]): the group's what-if is
/// one assume_aligned over every padded tensor, as one would write it, not one per occurrence. Edits of
/// other forms stay as they are, in order.
EditList mergeListEdits(const EditList& edits) {
    EditList out;
    std::map<std::string, size_t> at; // the edit's form without its list -> index in `out`
    std::vector<nlohmann::json> merged;
    std::vector<std::string> listKey;
    for (const auto& e : edits) {
        nlohmann::json j = e->toJson();
        std::string arrayMember;
        int arrays = 0;
        for (auto it = j.begin(); it != j.end(); ++it)
            if (it->is_array()) {
                ++arrays;
                arrayMember = it.key();
            }
        if (arrays != 1) {
            out.push_back(e);
            merged.emplace_back();
            listKey.emplace_back();
            continue;
        }
        nlohmann::json form = j;
        form.erase(arrayMember);
        auto [it, fresh] = at.try_emplace(form.dump() + '/' + arrayMember, out.size());
        if (fresh) {
            out.push_back(e);
            merged.push_back(std::move(j));
            listKey.push_back(arrayMember);
            continue;
        }
        nlohmann::json& into = merged[it->second][arrayMember];
        for (const auto& item : j[arrayMember])
            if (std::find(into.begin(), into.end(), item) == into.end())
                into.push_back(item);
    }
    for (size_t i = 0; i < out.size(); ++i)
        if (!listKey[i].empty() && merged[i][listKey[i]].size() != out[i]->toJson()[listKey[i]].size())
            out[i] = editFromJson(merged[i]);
    return out;
}

/// A what-if of one edit with one list (assume_aligned tensors=[...]): its form without the list and the
/// list's items; empty form otherwise.
std::pair<std::string, std::set<std::string>> listForm(const EditList& edits) {
    if (edits.size() != 1)
        return {};
    nlohmann::json j = edits.front()->toJson();
    std::string member;
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it->is_array()) {
            if (!member.empty())
                return {};
            member = it.key();
        }
    if (member.empty())
        return {};
    std::set<std::string> items;
    for (const auto& v : j[member])
        items.insert(v.dump());
    j.erase(member);
    return {j.dump() + '/' + member, std::move(items)};
}

template <class T> void append(std::vector<T>& into, const std::vector<T>& more) {
    into.insert(into.end(), more.begin(), more.end());
}

/// What `f` rests on, added to `into` (issue 62): its rule's assumptions, and what its own trial rested on
/// (a merged finding keeps its figure: the same change), the severity capped where any of it is weak.
void addRestsOn(Finding& into, const Finding& f) {
    for (const std::string& a : f.assumes)
        if (std::find(into.assumes.begin(), into.assumes.end(), a) == into.assumes.end())
            into.assumes.push_back(a);
    for (const RestsOn& r : f.restsOn)
        if (std::none_of(into.restsOn.begin(), into.restsOn.end(),
                         [&](const RestsOn& x) { return x.id == r.id; }))
            into.restsOn.push_back(r);
    if (anyWeak(into.restsOn) && into.severity == Severity::High)
        into.severity = Severity::Medium;
}

} // namespace

std::vector<size_t> mergeAndGroup(std::vector<Finding>& findings) {
    // 1. The same change proposed by two rules (ssdlite's post-processing cut: G1.2 for the tail, G1.1 for
    //    the Q/DQ passes at its CPU edges) is one finding, under the rule of the first (the larger gain).
    std::vector<Finding> merged;
    std::map<std::string, size_t> byFix;
    for (auto& f : findings) {
        // Issue 62: without a fix, the same idealized change is the same waste: G6.2 and G6.4 over one
        // tensor (both assume_resident of it) are one finding, the larger waste bound (ranked first) leading.
        const std::string key = !f.fix.empty()      ? "fix:" + editsKey(f.fix)
                                : !f.whatIf.empty() ? "what-if:" + editsKey(f.whatIf)
                                                    : std::string();
        if (!key.empty()) {
            auto [it, fresh] = byFix.try_emplace(key, merged.size());
            if (!fresh) {
                Finding& into = merged[it->second];
                into.also.push_back(partOf(f));
                append(into.also, f.also);
                addRestsOn(into, f);
                addNodes(into.nodes, f.nodes);
                continue;
            }
        }
        merged.push_back(std::move(f));
    }
    // 1b. Issue 62, one tensor one finding: a finding without a fix whose what-if idealizes a part of what
    //     an earlier one's (a larger waste, ranked first) idealizes - resnet50's G4.3 "large C on small
    //     H/W" 7x7 maps among the input size's H/W-padded maps, both assume_aligned - is that waste again:
    //     listed under the larger one's `also`.
    {
        std::vector<Finding> kept;
        std::vector<std::pair<std::string, std::set<std::string>>> forms;
        for (auto& f : merged) {
            auto form = f.fix.empty() ? listForm(f.whatIf) : std::pair<std::string, std::set<std::string>>{};
            bool into = false;
            if (!form.first.empty())
                for (size_t i = 0; i < kept.size() && !into; ++i)
                    if (forms[i].first == form.first && kept[i].fix.empty() &&
                        std::includes(forms[i].second.begin(), forms[i].second.end(), form.second.begin(),
                                      form.second.end())) {
                        kept[i].also.push_back(partOf(f));
                        append(kept[i].also, f.also);
                        addRestsOn(kept[i], f);
                        addNodes(kept[i].nodes, f.nodes);
                        into = true;
                    }
            if (into)
                continue;
            kept.push_back(std::move(f));
            forms.push_back(std::move(form));
        }
        merged = std::move(kept);
    }
    // 2. One rule and one kind of fix: one finding with its occurrences, in rank order.
    std::map<std::string, size_t> byKind;   // kind -> index in `out` of the group's finding
    std::map<std::string, size_t> byAdvice; // rule and recommendation of a finding without a fix -> the same
    std::vector<Finding> out;
    std::vector<int> members; // per finding of `out`: how many it holds
    for (auto& f : merged) {
        const std::string kind =
            std::string(ruleName(f.rule)) + '|' + editKinds(f.fix) + '|' + editKinds(f.whatIf) +
            (f.fixSearch == FixSearch::InputResolution ? "|input size" : "") +
            (f.evidence.contains("fix_not_applicable") ? "|n/a" : "") + (f.unavoidable ? "|unavoidable" : "");
        // Issue 62: findings with no fix that give the same advice under one rule are one finding too (two
        // G6.6 transform chains on yolo12n: one with a what-if, one without), whatever their what-ifs.
        const std::string advice =
            f.fix.empty() ? std::string(ruleName(f.rule)) + '|' + f.recommendation : std::string();
        size_t at = out.size();
        if (const auto a = byAdvice.find(advice); !advice.empty() && a != byAdvice.end())
            at = a->second;
        else if (const auto k = byKind.find(kind); k != byKind.end())
            at = k->second;
        byKind.try_emplace(kind, at);
        if (!advice.empty())
            byAdvice.try_emplace(advice, at);
        if (at == out.size()) {
            out.push_back(std::move(f));
            members.push_back(1);
            continue;
        }
        Finding& g = out[at];
        if (g.occurrences.empty())
            g.occurrences.push_back(partOf(g));
        g.occurrences.push_back(partOf(f));
        ++members[at];
        append(g.fix, f.fix);
        append(g.whatIf, f.whatIf);
        append(g.alternativeFix, f.alternativeFix);
        append(g.also, f.also);
        addRestsOn(g, f);
        addNodes(g.nodes, f.nodes);
    }
    std::vector<size_t> grouped;
    for (size_t i = 0; i < out.size(); ++i) {
        if (members[i] < 2)
            continue;
        Finding& g = out[i];
        const std::string more = std::to_string(members[i] - 1);
        g.cause = "alike: " + g.cause + " and " + more + " more";
        g.title += " (and " + more + " more alike)";
        g.evidence["alike_findings"] = members[i];
        g.fix = mergeListEdits(g.fix);
        g.whatIf = mergeListEdits(g.whatIf);
        // Its edits changed: the figures of the first occurrence are not the group's.
        g.estimatedGainMs.reset();
        g.fpsGain.reset();
        g.wasteUpperBoundMs.reset();
        g.fixEffects.reset();
        for (const char* key : {"gain_share_of_latency", "waste_share_of_latency", "fix_without_gain",
                                "fix_not_applicable", "what_if_not_applicable", "latency_gain_ms"})
            g.evidence.erase(key);
        grouped.push_back(i);
    }
    findings = std::move(out);
    return grouped;
}

} // namespace bpu
