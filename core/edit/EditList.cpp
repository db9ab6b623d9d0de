// SPDX-License-Identifier: MIT
#include "EditList.h"

#include "core/util/JsonFile.h"

#include "EditContext.h"
#include "EditRegistry.h"
#include "Session.h"

#include <algorithm>

namespace bpu {

EditListError::EditListError(size_t index, std::string edit, std::string reason, std::string brokenNode)
    : EditError("edit " + std::to_string(index + 1) + " (" + edit + "): " + reason, std::move(brokenNode))
    , index_(index)
    , edit_(std::move(edit))
    , reason_(std::move(reason)) {}

UndoToken Edit::apply(Session& s) const {
    // A lone edit: the error is its own, without the list's "edit 1 (...)" prefix.
    try {
        return applyEditList(s, {std::shared_ptr<const Edit>(std::shared_ptr<const Edit>(), this)});
    } catch (const EditListError& e) {
        throw EditError(e.reason());
    }
}

namespace {

/// A list of at most this many numbers is printed whole (a tensor shape's rank is at most 8 here).
constexpr size_t kWholeNumberList = 8;

std::string valueText(const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

} // namespace

std::string Edit::describe(size_t maxListItems) const {
    const nlohmann::json j = toJson();
    std::string s = j.value("op", std::string("edit"));
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "op")
            continue;
        // A shape (a few numbers) is one value: "shape=[1, 3, 512, 512]", never "[4: 1, 3, 512, ... 1 more]".
        const bool dims =
            it->is_array() && it->size() <= kWholeNumberList &&
            std::all_of(it->begin(), it->end(), [](const nlohmann::json& v) { return v.is_number(); });
        if (!it->is_array() || it->size() <= maxListItems || dims) {
            s += " " + it.key() + "=" + valueText(*it);
            continue;
        }
        s += " " + it.key() + "=[" + std::to_string(it->size()) + ": ";
        for (size_t n = 0; n < maxListItems; ++n)
            s += (n ? ", " : "") + valueText((*it)[n]);
        s += (maxListItems ? ", ... " : "... ") + std::to_string(it->size() - maxListItems) + " more]";
    }
    return s;
}

UndoToken applyEditList(Session& s, const EditList& edits) {
    EditContext ctx(s);
    for (size_t i = 0; i < edits.size(); ++i) {
        try {
            edits[i]->change(ctx);
        } catch (const EditError& e) {
            // Nothing was re-estimated yet: undoing the graph and options leaves the session as it was.
            ctx.token().restore(s);
            throw EditListError(i, edits[i]->describe(3), e.what(), e.brokenNode());
        } catch (...) {
            ctx.token().restore(s);
            throw;
        }
    }
    UndoToken token = std::move(ctx.token());
    token.normalise();
    // Nothing recorded (an empty list, as every analyze without --edits applies): the estimate stands. A
    // re-estimate here would only redo the analysis and mark the findings stale for another full pass.
    if (token.empty())
        return token;
    if (token.structural())
        s.fullReestimate(); // node and tensor ids changed: nothing incremental holds
    else
        s.reestimate(token.dirty_);
    return token;
}

EditPtr editFromJson(const nlohmann::json& j) {
    if (!j.is_object() || !j.contains("op") || !j["op"].is_string())
        throw EditError("each edit must be an object with a string \"op\"");
    const std::string op = j["op"];
    const EditKind* kind = findEditKind(op);
    if (!kind)
        throw EditError("unknown edit op '" + op + "'");
    return kind->fromJson(j);
}

EditList editListFromJson(const nlohmann::json& doc) {
    const nlohmann::json* list = &doc;
    if (doc.is_object()) {
        if (!doc.contains("edits") || !doc["edits"].is_array())
            throw EditError("expected {\"edits\": [...]}");
        list = &doc["edits"];
    } else if (!doc.is_array()) {
        throw EditError("expected {\"edits\": [...]}");
    }
    EditList out;
    out.reserve(list->size());
    for (size_t i = 0; i < list->size(); ++i) {
        try {
            out.push_back(editFromJson((*list)[i]));
        } catch (const EditError& e) {
            throw EditError("edit " + std::to_string(i + 1) + ": " + e.what());
        }
    }
    return out;
}

nlohmann::json editListToJson(const EditList& edits) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& e : edits)
        list.push_back(e->toJson());
    return {{"edits", std::move(list)}};
}

EditList loadEditFile(const std::string& path, std::vector<std::string>* notes) {
    // A FIFO, a device or a huge file is refused before a byte is read; a syntax error names no file bytes.
    const nlohmann::json doc = readJsonFile(path, {"edit file", file_limits::kJson});
    EditList edits;
    try {
        edits = editListFromJson(doc);
    } catch (const EditError& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
    if (notes && doc.is_object() && doc.contains("edits_not_applied") &&
        doc["edits_not_applied"].is_array() && !doc["edits_not_applied"].empty())
        notes->push_back(path + ": " + std::to_string(doc["edits_not_applied"].size()) +
                         " edit(s) under edits_not_applied (kept aside in the workbench: they did not apply "
                         "when the project was last open) are not applied; only `edits` is");
    return edits;
}

EditList netEdits(const EditList& edits) {
    EditList out;
    for (const auto& e : edits) {
        const std::string key = e->mergeKey();
        if (!out.empty() && !key.empty() && out.back()->mergeKey() == key)
            out.back() = e;
        else
            out.push_back(e);
    }
    return out;
}

} // namespace bpu
