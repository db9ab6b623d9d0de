// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace bpu {

/// Folder holding the target profiles, rule texts and calibration data (`targets/`, `rules/`,
/// `calibration/`). In order: $BPUSCOPE_RESOURCES if set; the source tree's resources/ for a binary that runs
/// from the build tree; otherwise the installed data folder relative to the running executable
/// (`<prefix>/bin/..` ->
/// `<prefix>/share/bpuscope`), so an installed or relocated package never reads the build machine's sources.
std::string resourceDir();

/// Where resourceDir() came from, for `bpuscope-cli targets` and error messages.
enum class ResourceOrigin { Environment, SourceTree, Installed };
ResourceOrigin resourceOrigin();

} // namespace bpu
