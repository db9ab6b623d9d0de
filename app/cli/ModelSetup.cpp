// SPDX-License-Identifier: MIT
#include "ModelSetup.h"

#include "core/deploy/DeployImport.h"
#include "core/deploy/DeployYaml.h"
#include "core/edit/EditList.h"
#include "core/util/PrintableText.h"

#include <iostream>

namespace bpu::cli {

ModelSetup loadModelSetup(const CliArgs& args) {
    ModelSetup s;
    // Checked first: a typo is a usage error before any file is read.
    if (auto o = args.get("objective")) {
        const auto parsed = parseObjective(*o);
        if (!parsed)
            throw UsageError("--objective takes latency or throughput, got '" + *o + "'");
        s.objective = *parsed;
    }
    s.deploy = loadDeploy(args.get("deploy").value_or("fast-perf"));
    std::string target = args.get("target").value_or("");
    const std::string fromMarch = targetForMarch(s.deploy.march);
    if (target.empty())
        target = fromMarch.empty() ? std::string("s100") : fromMarch;
    else if (!fromMarch.empty() && fromMarch != target)
        std::cerr << "bpuscope: note: " << s.deploy.source << " compiles for march " << s.deploy.march
                  << "; estimating for --target " << target << " as asked\n";
    s.target = std::make_shared<const TargetProfile>(loadTargetProfile(target));
    return s;
}

ImportOptions importOptions(const CliArgs& args, const ModelSetup& setup) {
    std::vector<std::string> notes;
    ImportOptions o =
        importOptionsWithDeploy(args.importOptions(), args.get("batch").has_value(), setup.deploy, notes);
    for (const auto& n : notes)
        std::cerr << "bpuscope: note: " << printable(n) << "\n";
    return o;
}

EditList loadEditsOption(const std::string& path) {
    std::vector<std::string> notes;
    EditList edits = loadEditFile(path, &notes);
    for (const auto& n : notes)
        std::cerr << "bpuscope: note: " << printable(n) << "\n";
    return edits;
}

} // namespace bpu::cli
