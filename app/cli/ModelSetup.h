// SPDX-License-Identifier: MIT
#pragma once

#include "CliArgs.h"
#include "core/advice/Objective.h"
#include "core/deploy/DeploySettings.h"
#include "core/edit/EditFwd.h"
#include "core/target/TargetProfile.h"

#include <memory>

namespace bpu::cli {

/// The target and deployment a model command runs under: --deploy (a preset or an hb_compile YAML; default
/// fast-perf) and --target (else the YAML's march, else s100). A config whose march disagrees with --target
/// is noted on stderr; --target wins. The config's own notes are the result's diagnostics (ResultNotice.h).
struct ModelSetup {
    std::shared_ptr<const TargetProfile> target;
    DeploySettings deploy;
    Objective objective = Objective::Latency; ///< --objective latency|throughput (issue 62)
};
ModelSetup loadModelSetup(const CliArgs& args);
/// The import options of the command line over the config's input_shape / input_batch (DeployImport.h);
/// each config value the command line overrides is noted on stderr.
ImportOptions importOptions(const CliArgs& args, const ModelSetup& setup);
/// The --edits file's list (loadEditFile), its notes (a project's edits kept aside) on stderr.
EditList loadEditsOption(const std::string& path);

} // namespace bpu::cli
