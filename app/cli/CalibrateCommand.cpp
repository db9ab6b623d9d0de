// SPDX-License-Identifier: MIT
#include "Commands.h"

#include "core/cost/Calibration.h"
#include "core/target/TargetProfile.h"

#include <filesystem>
#include <iostream>
#include <set>

namespace bpu::cli {

int runCalibrate(const CliArgs& args) {
    if (args.positional.size() != 1)
        throw UsageError("calibrate takes exactly one MEASUREMENTS.csv");
    std::vector<Measurement> measurements = loadMeasurements(args.positional[0]);
    // Every target the measurements name, unless --target picks some: S100P rows are predicted from the S100P
    // profile, and a fit shares its parameters between them.
    std::vector<std::string> names = args.all("target");
    if (names.empty()) {
        std::set<std::string> seen;
        for (const auto& m : measurements)
            if (seen.insert(m.target).second)
                names.push_back(m.target);
    }
    std::vector<TargetProfile> profiles;
    for (const auto& n : names)
        profiles.push_back(loadTargetProfile(n));
    std::vector<TargetProfile*> mutableProfiles;
    std::vector<const TargetProfile*> constProfiles;
    for (auto& p : profiles) {
        mutableProfiles.push_back(&p);
        constProfiles.push_back(&p);
    }
    CalibrationSet set(std::move(measurements));
    CalibrationResult r = args.has("fit")
                              ? set.fit(mutableProfiles, std::stoi(args.get("iterations").value_or("300")))
                              : set.evaluate(constProfiles);
    const std::vector<ParamIdentity> identity = set.identify(constProfiles);
    const std::string table = calibrationMarkdown(r, constProfiles, identity);
    std::cout << table;
    if (auto md = args.get("markdown"))
        writeOutput(*md, table);
    if (auto out = args.get("write")) {
        if (!args.has("fit"))
            throw UsageError("--write needs --fit");
        namespace fs = std::filesystem;
        // One profile: --write FILE.json; several: --write FOLDER (each profile as NAME.json in it).
        const bool folder = fs::is_directory(*out);
        if (!folder && profiles.size() > 1)
            throw UsageError(
                "--write: with several targets give a folder (each profile is written as NAME.json)");
        for (const auto& p : profiles) {
            const std::string path = folder ? (fs::path(*out) / (p.name + ".json")).string() : *out;
            writeFittedProfile(p.sourcePath, path, r, identity);
            std::cout << "wrote " << path << "\n";
        }
    }
    return kOk;
}

} // namespace bpu::cli
