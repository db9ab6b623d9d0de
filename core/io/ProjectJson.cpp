// SPDX-License-Identifier: MIT
#include "ProjectJson.h"

#include "core/deploy/DeployJson.h"
#include "core/util/JsonFile.h"

namespace bpu {

namespace {

bool isHex64(const std::string& s) {
    if (s.size() != 64)
        return false;
    for (char c : s)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
    return true;
}

} // namespace

ProjectData parseProject(const nlohmann::json& doc, const std::string& file) {
    if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != "bpuscope.project/1")
        throw FileError(file, "not a BpuScope project (schema bpuscope.project/1)");
    auto text = [&](const char* key, bool required) -> std::string {
        if (!doc.contains(key)) {
            if (required)
                throw FileError(file, std::string("key '") + key + "': missing");
            return {};
        }
        if (!doc[key].is_string() || (required && doc[key].get<std::string>().empty()))
            throw FileError(file, std::string("key '") + key + "': expected a non-empty string");
        return doc[key].get<std::string>();
    };
    ProjectData p;
    p.model = text("model", true);
    if (p.model.find('\0') != std::string::npos)
        throw FileError(file, "key 'model': the path holds a NUL byte");
    p.sha256 = text("model_sha256", false);
    if (!p.sha256.empty() && !isHex64(p.sha256))
        throw FileError(file, "key 'model_sha256': expected 64 lower-case hex digits");
    if (doc.contains("target"))
        p.target = text("target", true);
    if (doc.contains("edits")) {
        if (!doc["edits"].is_array())
            throw FileError(file, "key 'edits': must be an array");
        p.edits = doc["edits"];
    }
    if (doc.contains("deploy")) {
        if (!doc["deploy"].is_object())
            throw FileError(file, "key 'deploy': must be an object");
        try {
            p.deploy = deployFromJson(doc["deploy"]);
        } catch (const std::exception& e) {
            throw FileError(file, std::string("key 'deploy': ") + e.what());
        }
    }
    if (doc.contains("objective")) {
        const auto& o = doc["objective"];
        const auto parsed = o.is_string() ? parseObjective(o.get<std::string>()) : std::nullopt;
        if (!parsed)
            throw FileError(file, "key 'objective': expected \"latency\" or \"throughput\"");
        p.objective = *parsed;
    }
    if (doc.contains("baseline_edits")) {
        const auto& b = doc["baseline_edits"];
        if (b.is_array()) {
            for (size_t i = 0; i < b.size(); ++i)
                if (!b[i].is_object())
                    throw FileError(file, "key 'baseline_edits', entry " + std::to_string(i + 1) +
                                              ": expected an edit object");
            p.baselineList = b;
        } else {
            if (!b.is_number_integer() || b.get<int64_t>() < 0 || uint64_t(b.get<int64_t>()) > p.edits.size())
                throw FileError(file, "key 'baseline_edits': expected a whole number from 0 to the " +
                                          std::to_string(p.edits.size()) +
                                          " edits the project holds, or an edit list");
            p.baselineEdits = size_t(b.get<int64_t>());
        }
    }
    if (doc.contains("edits_not_applied")) {
        const auto& kept = doc["edits_not_applied"];
        if (!kept.is_array())
            throw FileError(file, "key 'edits_not_applied': must be an array");
        for (size_t i = 0; i < kept.size(); ++i) {
            const auto& k = kept[i];
            const std::string where = "key 'edits_not_applied', entry " + std::to_string(i + 1) + ": ";
            if (!k.is_object() || !k.contains("edit") || !k["edit"].is_object())
                throw FileError(file, where + "expected {\"edit\": {...}, \"reason\": \"...\"}");
            ProjectKeptEdit e;
            e.edit = k["edit"];
            for (const char* key : {"reason", "from"})
                if (k.contains(key) && !k[key].is_string())
                    throw FileError(file, where + "'" + key + "' must be a string");
            e.reason = k.value("reason", std::string());
            e.from = k.value("from", std::string());
            p.kept.push_back(std::move(e));
        }
    }
    for (auto it = doc.begin(); it != doc.end(); ++it)
        if (it.key() != "schema" && it.key() != "model" && it.key() != "model_sha256" &&
            it.key() != "target" && it.key() != "edits" && it.key() != "deploy" &&
            it.key() != "edits_not_applied" && it.key() != "objective" && it.key() != "baseline_edits")
            throw FileError(file, "key '" + it.key() + "': unknown key");
    return p;
}

ProjectData readProjectFile(const std::string& path) {
    return parseProject(readJsonFile(path, {"BpuScope project", file_limits::kJson}), path);
}

} // namespace bpu
