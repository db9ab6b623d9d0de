// SPDX-License-Identifier: MIT
#include "ResourceDir.h"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace bpu {

namespace {

namespace fs = std::filesystem;

struct Located {
    std::string dir;
    ResourceOrigin origin;
};

/// True when `path` lies inside `folder` (both absolute and normalised).
bool isInside(const fs::path& path, const fs::path& folder) {
    const fs::path rel = path.lexically_relative(folder);
    return !rel.empty() && *rel.begin() != "..";
}

Located locate() {
    std::error_code ec;
    // Linux names the running executable here; a binary linked into another program still resolves its own.
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec || exe.empty())
        return {BPUSCOPE_RESOURCE_DIR, ResourceOrigin::SourceTree};
    // Build-tree binaries (the tools, tests and benchmarks) use the sources, so an edit to a profile takes
    // effect without a reinstall. Anything else is an installed copy: it reads its own prefix, even when
    // the data is missing there (the error then names the installed path, never the build machine's).
    if (isInside(exe.lexically_normal(), fs::path(BPUSCOPE_BUILD_DIR).lexically_normal()))
        return {BPUSCOPE_RESOURCE_DIR, ResourceOrigin::SourceTree};
    return {(exe.parent_path() / BPUSCOPE_INSTALLED_DATA_REL).lexically_normal().string(),
            ResourceOrigin::Installed};
}

const Located& located() {
    static const Located l = locate();
    return l;
}

} // namespace

std::string resourceDir() {
    if (const char* env = std::getenv("BPUSCOPE_RESOURCES"); env && *env)
        return env;
    return located().dir;
}

ResourceOrigin resourceOrigin() {
    if (const char* env = std::getenv("BPUSCOPE_RESOURCES"); env && *env)
        return ResourceOrigin::Environment;
    return located().origin;
}

} // namespace bpu
