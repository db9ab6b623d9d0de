// SPDX-License-Identifier: MIT
#include "Commands.h"

#include "core/target/TargetProfile.h"

#include <iostream>

namespace bpu::cli {

int runTargets(const CliArgs& args) {
    if (!args.positional.empty())
        throw UsageError("targets takes no arguments");
    for (const auto& [name, path] : builtinTargets()) {
        TargetProfile t = loadTargetProfile(name);
        std::cout << name << "\t" << t.displayName << "\tmarch " << t.march << "\t" << t.peakInt8Tops.value
                  << " TOPS int8 @ " << t.bpuClockGhz.value << " GHz\tprofile " << t.version << "\t" << path
                  << "\n";
    }
    return kOk;
}

} // namespace bpu::cli
