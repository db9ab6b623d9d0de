// SPDX-License-Identifier: MIT
#include "EditedModelExport.h"

#include "core/deploy/DeployYamlWriter.h"
#include "core/edit/Edit.h"
#include "core/edit/EditCost.h"
#include "core/edit/Session.h"
#include "core/util/OutputFile.h"

#include <filesystem>
#include <stdexcept>

namespace bpu {

std::vector<std::string> idealizedEdits(const EditList& edits) {
    std::vector<std::string> out;
    for (size_t i = 0; i < edits.size(); ++i)
        if (edits[i]->idealized())
            out.push_back("edit " + std::to_string(i + 1) + " (" + edits[i]->describe(3) + ")");
    return out;
}

std::vector<std::string> exportCostLines(const EditList& edits) {
    std::vector<std::string> out;
    for (int c = 0; c < kEditCostCount; ++c) {
        const auto cost = static_cast<EditCost>(c);
        std::string which;
        size_t count = 0;
        for (const auto& e : edits)
            if (e->costs().has(cost)) {
                if (++count <= 3)
                    which += (which.empty() ? "" : "; ") + e->describe(3);
            }
        if (count > 3)
            which += "; ... " + std::to_string(count - 3) + " more";
        if (count)
            out.push_back(std::string(editCostText(cost)) + ": " + which);
    }
    return out;
}

std::string reinitialisedText(const std::vector<std::string>& weights) {
    if (weights.empty())
        return {};
    std::string s =
        std::to_string(weights.size()) +
        (weights.size() > 1 ? " weights changed shape and were" : " weight changed shape and was") +
        " written as zeros (ones for a BatchNormalization variance): retrain or fine-tune before use:";
    for (size_t i = 0; i < weights.size() && i < 10; ++i)
        s += (i ? ", " : " ") + weights[i];
    if (weights.size() > 10)
        s += ", ... " + std::to_string(weights.size() - 10) + " more";
    return s;
}

EditedModelExport exportEditedModel(const Session& s, const std::string& onnxPath,
                                    const std::string& yamlPath) {
    namespace fs = std::filesystem;
    EditedModelExport r;
    // Both outputs are checked before either is written: a config that cannot be written must not leave a
    // model without it.
    std::optional<OutputFile> yaml;
    if (!yamlPath.empty())
        yaml = OutputFile::resolve(yamlPath);
    r.compiled = compileDeploy(s.options(), &r.notes);
    // The config's text before either file: a config that cannot be written (a name no YAML can hold) must
    // not leave a model without it.
    std::string yamlText;
    if (yaml) {
        const fs::path dir = fs::absolute(yamlPath).parent_path();
        const std::string model = fs::absolute(onnxPath).lexically_relative(dir).string();
        try {
            yamlText = deployToYaml(r.compiled, s.graph(),
                                    {model, s.target().march, fs::path(onnxPath).stem().string()});
        } catch (const std::invalid_argument& e) {
            throw std::runtime_error(yamlPath + ": no hb_compile config can be written: " + e.what());
        }
    }
    r.onnx = exportOnnx(s.graph(), onnxPath);
    if (yaml) {
        yaml->write(yamlText);
        r.yamlWritten = true;
    }
    return r;
}

} // namespace bpu
