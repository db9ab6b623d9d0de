// SPDX-License-Identifier: MIT
// The edit vocabulary (docs/edits.md): JSON -> command objects.
#include "CutEdits.h"
#include "Edit.h"
#include "EditError.h"
#include "OptionEdits.h"
#include "ShapeEdits.h"

#include <fstream>

namespace bpu {

namespace {

using json = nlohmann::json;

std::string str(const json& j, const char* key) {
    if (!j.contains(key) || !j[key].is_string())
        throw EditError(std::string("edit '") + j.value("op", std::string("?")) + "' needs a string '" + key + "'");
    return j[key].get<std::string>();
}

int64_t integer(const json& j, const char* key) {
    if (!j.contains(key) || !j[key].is_number_integer())
        throw EditError(std::string("edit '") + j.value("op", std::string("?")) + "' needs an integer '" + key + "'");
    return j[key].get<int64_t>();
}

std::vector<std::string> strings(const json& j, const char* key) {
    if (!j.contains(key) || !j[key].is_array())
        throw EditError(std::string("edit '") + j.value("op", std::string("?")) + "' needs an array '" + key + "'");
    std::vector<std::string> out;
    for (const auto& v : j[key]) {
        if (!v.is_string())
            throw EditError(std::string("'") + key + "' must hold strings");
        out.push_back(v.get<std::string>());
    }
    return out;
}

} // namespace

std::string Edit::describe() const {
    json j = toJson();
    std::string s = j.value("op", std::string("edit"));
    for (auto it = j.begin(); it != j.end(); ++it)
        if (it.key() != "op")
            s += " " + it.key() + "=" + (it->is_string() ? it->get<std::string>() : it->dump());
    return s;
}

std::unique_ptr<Edit> editFromJson(const json& j) {
    if (!j.is_object() || !j.contains("op") || !j["op"].is_string())
        throw EditError("each edit must be an object with a string \"op\"");
    const std::string op = j["op"];
    if (op == "fuse_all")
        return std::make_unique<FuseAllEdit>();
    if (op == "unfuse_all")
        return std::make_unique<UnfuseAllEdit>();
    if (op == "fuse" || op == "unfuse")
        return std::make_unique<FuseEdit>(str(j, "node"), op == "fuse");
    if (op == "set_group")
        return std::make_unique<SetGroupEdit>(str(j, "node"), integer(j, "group"));
    if (op == "set_batch")
        return std::make_unique<SetBatchEdit>(integer(j, "batch"));
    if (op == "set_input_shape") {
        if (!j.contains("shape") || !j["shape"].is_array())
            throw EditError("edit 'set_input_shape' needs an array 'shape'");
        std::vector<int64_t> dims;
        for (const auto& d : j["shape"]) {
            if (!d.is_number_integer())
                throw EditError("set_input_shape: dims must be integers");
            dims.push_back(d.get<int64_t>());
        }
        return std::make_unique<SetInputShapeEdit>(str(j, "input"), dims);
    }
    if (op == "set_channels")
        return std::make_unique<SetChannelsEdit>(str(j, "node"), integer(j, "channels"));
    if (op == "remove_boundary_qdq")
        return std::make_unique<RemoveBoundaryQdqEdit>();
    if (op == "set_placement") {
        auto p = parsePlacement(str(j, "placement"));
        if (!p)
            throw EditError("set_placement: placement must be BPU, CPU or folded");
        return std::make_unique<SetPlacementEdit>(str(j, "node"), *p);
    }
    if (op == "assume_resident")
        return std::make_unique<AssumeEdit>(AssumeEdit::Resident, strings(j, "tensors"));
    if (op == "assume_aligned")
        return std::make_unique<AssumeEdit>(AssumeEdit::Aligned, strings(j, "tensors"));
    if (op == "assume_removed")
        return std::make_unique<AssumeEdit>(AssumeEdit::Removed, strings(j, "nodes"));
    if (op == "cut_at")
        return std::make_unique<CutAtEdit>(strings(j, "tensors"));
    if (op == "filter_outputs")
        return std::make_unique<FilterOutputsEdit>(integer(j, "keep"));
    throw EditError("unknown edit op '" + op + "'");
}

std::vector<std::unique_ptr<Edit>> editsFromJson(const json& doc) {
    const json* list = &doc;
    if (doc.is_object()) {
        if (!doc.contains("edits") || !doc["edits"].is_array())
            throw EditError("expected {\"edits\": [...]}");
        list = &doc["edits"];
    } else if (!doc.is_array()) {
        throw EditError("expected {\"edits\": [...]}");
    }
    std::vector<std::unique_ptr<Edit>> out;
    for (size_t i = 0; i < list->size(); ++i) {
        try {
            out.push_back(editFromJson((*list)[i]));
        } catch (const EditError& e) {
            throw EditError("edit " + std::to_string(i + 1) + ": " + e.what());
        }
    }
    return out;
}

std::vector<std::unique_ptr<Edit>> loadEditFile(const std::string& path) {
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error(path + ": cannot open the edit file");
    json doc;
    try {
        doc = json::parse(in);
    } catch (const json::exception& e) {
        throw std::runtime_error(path + ": not valid JSON: " + e.what());
    }
    try {
        return editsFromJson(doc);
    } catch (const EditError& e) {
        throw std::runtime_error(path + ": " + e.what());
    }
}

} // namespace bpu
