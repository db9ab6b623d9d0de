// SPDX-License-Identifier: MIT
#include "Commands.h"

#include "core/cost/Calibration.h"
#include "core/target/TargetProfile.h"

#include <iostream>

namespace bpu::cli {

int runCalibrate(const CliArgs& args) {
    if (args.positional.size() != 1)
        throw UsageError("calibrate takes exactly one MEASUREMENTS.csv");
    TargetProfile profile = loadTargetProfile(args.get("target").value_or("s100"));
    CalibrationSet set(loadMeasurements(args.positional[0]));
    CalibrationResult r = args.has("fit") ? set.fit(profile, std::stoi(args.get("iterations").value_or("300")))
                                          : set.evaluate(profile);
    const std::string table = calibrationMarkdown(r, profile);
    std::cout << table;
    if (auto md = args.get("markdown"))
        writeOutput(*md, table);
    if (auto out = args.get("write")) {
        if (!args.has("fit"))
            throw UsageError("--write needs --fit");
        writeFittedProfile(profile.sourcePath, *out, r);
        std::cout << "wrote " << *out << "\n";
    }
    return kOk;
}

} // namespace bpu::cli
