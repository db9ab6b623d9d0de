// SPDX-License-Identifier: MIT
#pragma once

#include "OnnxExport.h"
#include "core/deploy/DeploySettings.h"
#include "core/edit/EditFwd.h"

#include <string>
#include <vector>

namespace bpu {

class Session;

/// What writing a what-if state out for hb_compile produced: the model file and, when asked, its config.
struct EditedModelExport {
    OnnxExportReport onnx;
    DeploySettings compiled;        ///< the deployment the config carries (compileDeploy)
    std::vector<std::string> notes; ///< what the config cannot carry (the fusion what-ifs)
    bool yamlWritten = false;
};

/// The edits of `edits` that are idealized what-ifs (assume_*, fuse, filter_outputs: the cost of a waste,
/// with no form in a model file), each as "edit N (description)". An export of a state that holds one is
/// refused by name, never written without it.
std::vector<std::string> idealizedEdits(const EditList& edits);

/// What the changes of `edits` cost besides time (EditCost: retraining, other outputs, the application's I/O
/// or preprocessing), one line per cost naming the edits that carry it ("needs retraining or fine-tuning:
/// replace_activation ..."). Said with every export: a model written with another activation or channel
/// count runs at the estimated speed only once it is fine-tuned.
std::vector<std::string> exportCostLines(const EditList& edits);

/// The sentence for an export's re-initialised weights (empty when none): how many, what was written in
/// their place, that the model needs retraining, and the first 10 names. The CLI and the workbench say it.
std::string reinitialisedText(const std::vector<std::string>& weights);

/// Writes the session's graph to `onnxPath` (exportOnnx) and, when `yamlPath` is not empty, the hb_compile
/// config of its state (compileDeploy + deployToYaml, naming the model as a path from the config's folder,
/// the target's march) by the one output rule set (OutputFile). The CLI's `export --yaml` and the workbench's
/// File > Export Edited Model both come here (issues 49, 51). Throws ExportError or FileError naming the
/// file.
EditedModelExport exportEditedModel(const Session& s, const std::string& onnxPath,
                                    const std::string& yamlPath);

} // namespace bpu
